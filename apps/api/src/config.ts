import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';

/** Stripe keys and, for tests, where the Stripe API is. Present only when both keys are set. */
export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  /** Base URL of the Stripe API (`STRIPE_API_BASE`); Stripe's own when undefined. */
  apiBase: URL | undefined;
}

/** The API's settings, parsed once from the environment at start-up (architecture.md "Settings"). */
export interface Settings {
  host: string;
  port: number;
  /** Undefined means demo payments. */
  stripe: StripeSettings | undefined;
  googleMapsApiKey: string | undefined;
  /** Origin that place pages and short links are fetched from instead of Google (tests). */
  mapsUpstreamOrigin: string | undefined;
  /** Origin of the Places API (New). */
  placesApiOrigin: string;
  contactEmail: string;
  productName: string;
  /** Folder of the built web app, served at `/`; undefined when there is none. */
  webDist: string | undefined;
  /** Browser origins allowed to call the API cross-origin (`CORS_ORIGIN`, comma-separated); empty = same origin only. */
  corsOrigins: string[];
  /** Trust `X-Forwarded-For` from a proxy in front (`TRUST_PROXY=true`), so rate limits see the real client. */
  trustProxy: boolean;
  /** Multiplies every per-client rate limit (`RATE_LIMIT_FACTOR`), e.g. for browser test suites on one address. */
  rateLimitFactor: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

/** Thrown when the environment holds invalid settings; the message lists every problem, never a secret's value. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** The built web app next to this package (apps/web/dist), from src/ or dist/ alike. */
const DEFAULT_WEB_DIST = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');

const origin = v.pipe(
  v.string(),
  v.check((text) => {
    try {
      const url = new URL(text);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.pathname === '/' &&
        !url.search &&
        !url.hash &&
        !url.username &&
        !url.password
      );
    } catch {
      return false;
    }
  }, 'must be an http(s) origin such as https://example.com (no path)'),
  v.transform((text) => new URL(text).origin),
);

const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'must be a whole number from 0 to 65535'),
      v.transform(Number),
      v.maxValue(65535, 'must be a whole number from 0 to 65535'),
    ),
    '8080',
  ),
  HOST: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name or IP address')),
    '127.0.0.1',
  ),
  STRIPE_SECRET_KEY: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
        'must be a Stripe secret key (sk_test_… or sk_live_…)',
      ),
    ),
  ),
  STRIPE_PUBLISHABLE_KEY: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^pk_(test|live)_[A-Za-z0-9]+$/,
        'must be a Stripe publishable key (pk_test_… or pk_live_…)',
      ),
    ),
  ),
  STRIPE_API_BASE: v.optional(origin),
  GOOGLE_MAPS_API_KEY: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,200}$/, 'must be a Google Maps Platform API key')),
  ),
  MAPS_UPSTREAM_ORIGIN: v.optional(origin),
  PLACES_API_ORIGIN: v.optional(origin, 'https://places.googleapis.com'),
  CONTACT_EMAIL: v.optional(
    v.pipe(v.string(), v.email('must be an e-mail address')),
    'feedback@example.com',
  ),
  PRODUCT_NAME: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(60, 'must be at most 60 characters'),
    ),
    'PlacePort',
  ),
  WEB_DIST: v.optional(v.string()),
  CORS_ORIGIN: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) =>
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
      v.array(origin, 'must be comma-separated http(s) origins'),
    ),
  ),
  RATE_LIMIT_FACTOR: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}(?:\.\d{1,3})?$/, 'must be a positive number such as 1 or 10'),
      v.transform(Number),
      v.minValue(0.001, 'must be a positive number such as 1 or 10'),
    ),
    '1',
  ),
  TRUST_PROXY: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
  LOG_LEVEL: v.optional(
    v.picklist(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'must be one of fatal, error, warn, info, debug, trace, silent',
    ),
    'info',
  ),
});

const UNPAIRED_KEYS =
  'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together (neither means demo payments)';

function problemsOf(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const name = issue.path?.map((item) => String(item.key)).join('.') ?? 'environment';
    // Only the schema's own message: the received value may be a secret.
    return `${name.split('.')[0]}: ${issue.message}`;
  });
}

function stripeSettings(
  env: v.InferOutput<typeof EnvSchema>,
  problems: string[],
): StripeSettings | undefined {
  const secret = env.STRIPE_SECRET_KEY;
  const publishable = env.STRIPE_PUBLISHABLE_KEY;
  if (!secret && !publishable) return undefined;
  if (!secret || !publishable) {
    problems.push(
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together (neither means demo payments)',
    );
    return undefined;
  }
  const secretMode = secret.includes('_live_') ? 'live' : 'test';
  const publishableMode = publishable.includes('_live_') ? 'live' : 'test';
  if (secretMode !== publishableMode) {
    problems.push(
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test keys or both live keys',
    );
  }
  return {
    secretKey: secret,
    publishableKey: publishable,
    apiBase: env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined,
  };
}

function webDist(given: string | undefined, problems: string[]): string | undefined {
  if (given === undefined) {
    return existsSync(join(DEFAULT_WEB_DIST, 'index.html')) ? DEFAULT_WEB_DIST : undefined;
  }
  const folder = resolve(given);
  if (!existsSync(join(folder, 'index.html'))) {
    problems.push(`WEB_DIST: ${folder} has no index.html (build the web app or unset WEB_DIST)`);
    return undefined;
  }
  return folder;
}

/**
 * Parses the API's settings from an environment (the process's by default). This is the only code
 * that reads `process.env`. Empty values count as unset. Throws {@link SettingsError} listing every
 * problem at once, so a misconfigured server stops at start-up with a clear message.
 */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== '',
    ),
  );
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    const pairing =
      'STRIPE_SECRET_KEY' in present === 'STRIPE_PUBLISHABLE_KEY' in present ? [] : [UNPAIRED_KEYS];
    throw new SettingsError([...problemsOf(parsed.issues), ...pairing]);
  }
  const values = parsed.output;
  const problems: string[] = [];
  const settings: Settings = {
    host: values.HOST,
    port: values.PORT,
    stripe: stripeSettings(values, problems),
    googleMapsApiKey: values.GOOGLE_MAPS_API_KEY,
    mapsUpstreamOrigin: values.MAPS_UPSTREAM_ORIGIN,
    placesApiOrigin: values.PLACES_API_ORIGIN,
    contactEmail: values.CONTACT_EMAIL,
    productName: values.PRODUCT_NAME,
    webDist: webDist(values.WEB_DIST, problems),
    corsOrigins: values.CORS_ORIGIN ?? [],
    trustProxy: values.TRUST_PROXY === 'true',
    rateLimitFactor: values.RATE_LIMIT_FACTOR,
    logLevel: values.LOG_LEVEL,
  };
  if (problems.length > 0) throw new SettingsError(problems);
  return settings;
}
