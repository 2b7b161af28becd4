import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import leven from 'leven';
import * as v from 'valibot';
import { REACHABLE_DEMO_MAX_PLACES } from '@placeport/contract';

/** Stripe keys and, for tests, where the Stripe API is. Present only when both keys are set. */
export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  /** Base URL of the Stripe API (`STRIPE_API_BASE`); Stripe's own when undefined. */
  apiBase: URL | undefined;
}

/** Where demo payments run: see {@link Settings.demoPayments}. */
export type DemoPayments = 'loopback' | 'reachable';

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
  /**
   * Proxies in front of the API whose `X-Forwarded-For` is believed (`TRUST_PROXY`): a hop count,
   * or a list of proxy addresses/CIDRs; false when none. Never "any": with `true` every client
   * could pick its own address, and so its own rate-limit key and free budget; for the same
   * reason no range is wider than an IPv4 /8 or an IPv6 /32.
   */
  trustProxy: number | string[] | false;
  /**
   * How demo payments run (no Stripe keys): `loopback` when only this machine can reach the server
   * (a loopback `HOST` and no `TRUST_PROXY`), where a demo intent has no cap of its own (up to
   * `MAX_PAYMENT_PLACES`, as every payment);
   * `reachable` when `DEMO_PAYMENTS=on` allows them where others can reach the server (another
   * `HOST`, or behind a proxy), warned about at start and capped per intent. Undefined with Stripe.
   */
  demoPayments: DemoPayments | undefined;
  /**
   * The payer cookie's keys (`PAYER_COOKIE_SECRET`, comma-separated): the first signs, every one
   * verifies, so a secret can be rotated by putting the new one first. When unset: with Stripe,
   * a key derived from the Stripe secret key ({@link defaultPayerCookieSecret}), so a restart keeps
   * every payer's cookie; in demo mode one random key per process (its demo payments live in the
   * process too). REDIS_URL requires the setting.
   */
  payerCookieSecrets: string[];
  /** Whether {@link payerCookieSecrets} came from the environment (several instances need it). */
  payerCookieSecretSet: boolean;
  /** An authorization unused this long is settled by the server (`SETTLE_AFTER_MINUTES`). */
  settleAfterMinutes: number;
  /** Free lookups per client per day (`FREE_LINKS_PER_DAY`). */
  freeLinksPerDay: number;
  /** Shared state for several instances (`REDIS_URL`); undefined = in-process memory. */
  redisUrl: string | undefined;
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

/** A setting that is a URL passing `test`, with `message` for any other text. */
const url = (test: (parsed: URL) => boolean, message: string) =>
  v.pipe(
    v.string(),
    v.check((text) => URL.canParse(text) && test(new URL(text)), message),
  );

const origin = v.pipe(
  url(
    (url) =>
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password,
    'must be an http(s) origin such as https://example.com (no path)',
  ),
  v.transform((text) => new URL(text).origin),
);

/** A setting whose text must match `pattern`. */
const matching = (pattern: RegExp, message: string) =>
  v.pipe(v.string(), v.regex(pattern, message));

/** A number setting: its text matches `pattern`, its value lies from `min` to `max`. */
const numberFrom = (pattern: RegExp, message: string, min: number, max = Infinity) =>
  v.pipe(
    matching(pattern, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(max, message),
  );

/** The non-empty, trimmed parts of a comma-separated setting. */
function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

const PAYER_SECRET_MESSAGE =
  'must be one secret of at least 32 characters of random text, or several separated by commas (the first signs)';

const EnvSchema = v.object({
  PORT: v.optional(
    numberFrom(/^\d{1,5}$/, 'must be a whole number from 0 to 65535', 0, 65535),
    '8080',
  ),
  HOST: v.optional(matching(/^[A-Za-z0-9.:-]+$/, 'must be a host name or IP address'), '127.0.0.1'),
  STRIPE_SECRET_KEY: v.optional(
    matching(
      /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
      'must be a Stripe secret key (sk_test_… or sk_live_…)',
    ),
  ),
  STRIPE_PUBLISHABLE_KEY: v.optional(
    matching(
      /^pk_(test|live)_[A-Za-z0-9]+$/,
      'must be a Stripe publishable key (pk_test_… or pk_live_…)',
    ),
  ),
  STRIPE_API_BASE: v.optional(origin),
  GOOGLE_MAPS_API_KEY: v.optional(
    matching(/^[A-Za-z0-9_-]{8,200}$/, 'must be a Google Maps Platform API key'),
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
      v.transform(commaList),
      v.array(origin, 'must be comma-separated http(s) origins'),
    ),
  ),
  RATE_LIMIT_FACTOR: v.optional(
    numberFrom(/^\d{1,6}(?:\.\d{1,3})?$/, 'must be a positive number such as 1 or 10', 0.001),
    '1',
  ),
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (text) => text.trim().toLowerCase() !== 'true',
        'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses, never true: with true any client could choose its own address',
      ),
      v.check(
        (text) => text.trim().toLowerCase() === 'false' || TRUST_PROXY_VALUE.test(text.trim()),
        'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses (e.g. 10.0.0.1, 10.0.1.0/24)',
      ),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed || !TRUST_PROXY_VALUE.test(dataset.value.trim())) return;
        const trusted = trustProxyOf(dataset.value);
        for (const entry of Array.isArray(trusted) ? trusted : []) {
          const problem = untrustworthyRange(entry);
          if (problem) addIssue({ message: problem });
        }
      }),
    ),
  ),
  DEMO_PAYMENTS: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'off'),
  PAYER_COOKIE_SECRET: v.optional(
    v.pipe(
      v.string(),
      v.transform(commaList),
      v.array(v.pipe(v.string(), v.minLength(32, PAYER_SECRET_MESSAGE)), PAYER_SECRET_MESSAGE),
      v.minLength(1, PAYER_SECRET_MESSAGE),
      v.maxLength(8, 'must list at most 8 secrets (the signing one first)'),
    ),
  ),
  SETTLE_AFTER_MINUTES: v.optional(
    numberFrom(
      /^\d{1,5}(?:\.\d{1,3})?$/,
      'must be a number of minutes from 0.05 to 10080 (7 days), such as 30',
      0.05,
      10_080,
    ),
    '30',
  ),
  FREE_LINKS_PER_DAY: v.optional(
    numberFrom(/^\d{1,5}$/, 'must be a whole number from 0 to 10000', 0, 10_000),
    '20',
  ),
  REDIS_URL: v.optional(
    url(
      (url) => ['redis:', 'rediss:', 'unix:'].includes(url.protocol),
      'must be a redis://, rediss:// or unix:// (a socket: unix:///run/redis.sock) URL',
    ),
  ),
  LOG_LEVEL: v.optional(
    v.picklist(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'must be one of fatal, error, warn, info, debug, trace, silent',
    ),
    'info',
  ),
});

/** Every setting the API reads from its environment. */
export const SETTING_NAMES: readonly string[] = Object.keys(EnvSchema.entries);

/**
 * Environment names one slip from a setting (case, one letter in a name of up to 6, two in a
 * longer one) that are not settings themselves, each with the setting it likely means: such a
 * value is otherwise ignored without a word (`FREE_LINK_PER_DAY=500` left the free tier at 20).
 */
export function misspeltSettings(
  env: Record<string, string | undefined> = process.env,
): { given: string; meant: string }[] {
  const found: { given: string; meant: string }[] = [];
  for (const given of Object.keys(env)) {
    if (SETTING_NAMES.includes(given) || given.length > 64) continue;
    const upper = given.toUpperCase();
    const meant = SETTING_NAMES.find((name) => leven(upper, name) <= (name.length <= 6 ? 1 : 2));
    if (meant) found.push({ given, meant });
  }
  return found;
}

/** A hop count (1–99), or comma-separated IPv4/IPv6 addresses, each with an optional /prefix. */
const TRUST_PROXY_VALUE =
  /^(?:\d{1,2}|[0-9A-Fa-f.:]{2,45}(?:\/\d{1,3})?(?:\s*,\s*[0-9A-Fa-f.:]{2,45}(?:\/\d{1,3})?){0,31})$/;

/**
 * The widest proxy range `TRUST_PROXY` takes, by IP version. Fastify believes the
 * `X-Forwarded-For` entry before any trusted address, so a client inside a trusted range can
 * choose its own address (its own rate limits and free budget); a range wider than these holds
 * far more than a provider's proxies, and the widest (`0.0.0.0/1,128.0.0.0/1`, `::/1`) hold
 * everyone, as `true` would.
 */
const WIDEST_PROXY_PREFIX = { 4: 8, 6: 32 } as const;

/**
 * IPv4 addresses as an IPv6 socket sees them (`::ffff:a.b.c.d`, the first 96 bits): Fastify
 * matches an IPv4 client against an IPv6 range in this form, so such a range is measured as IPv4.
 */
const IPV4_MAPPED = { base: ipaddr.IPv6.parse('::ffff:0:0'), prefix: 96 };

/**
 * Why one `TRUST_PROXY` entry (an address, or an address/prefix) cannot be trusted, or undefined
 * when it can. What Fastify's own reading (proxy-addr) would refuse is refused here first (no
 * address, a prefix past the address's bits, /0), so a bad value stops start-up with the other
 * settings' problems instead of crashing it; `isIP` is the stricter reader (no `127.1`).
 */
function untrustworthyRange(entry: string): string | undefined {
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version !== 4 && version !== 6) return `${entry} is not an IP address or range`;
  const bits = version === 4 ? 32 : 128;
  const prefix = slash === -1 ? bits : Number(entry.slice(slash + 1));
  if (!Number.isInteger(prefix) || prefix > bits) {
    return `${entry}: an IPv${version} prefix is at most /${bits}`;
  }
  const why = `every client inside it could choose its own address (and its own rate limits and free budget) through X-Forwarded-For; name the proxies' own addresses`;
  if (prefix < WIDEST_PROXY_PREFIX[version]) {
    return `${entry} is wider than an IPv${version} /${WIDEST_PROXY_PREFIX[version]}: ${why}`;
  }
  if (version === 6) {
    // Holds IPv4-mapped addresses: the whole block when at most /96, else a part of it.
    const mapped = IPV4_MAPPED.base.match(
      ipaddr.IPv6.parse(address),
      Math.min(prefix, IPV4_MAPPED.prefix),
    );
    if (mapped && prefix - IPV4_MAPPED.prefix < WIDEST_PROXY_PREFIX[4]) {
      return `${entry} holds IPv4 addresses (as ::ffff:a.b.c.d) wider than an IPv4 /${WIDEST_PROXY_PREFIX[4]}: ${why}`;
    }
  }
  return undefined;
}

/**
 * The problem with an upstream `origin` setting (`name`) that would carry a key (`keyName`) in the
 * clear: plain http to a host other than this machine. The test-only bases (the fake Stripe, a
 * fake Places API) are on loopback; elsewhere only https.
 */
function clearTextKeyProblem(name: string, origin: string, keyName: string): string | undefined {
  const url = new URL(origin);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname.replace(/^\[(.*)\]$/, '$1'))) {
    return undefined;
  }
  return `${name}: must be an https origin (or http on this machine, for tests) while ${keyName} is set: plain http to another host would send the key in the clear`;
}

/** Hosts that are only reachable from this machine: demo payments are safe there. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function trustProxyOf(text: string | undefined): number | string[] | false {
  const value = text?.trim() ?? '0';
  if (value === '0' || value.toLowerCase() === 'false') return false;
  return /^\d{1,2}$/.test(value) ? Number(value) : commaList(value);
}

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
    problems.push(UNPAIRED_KEYS);
    return undefined;
  }
  if (secret.includes('_live_') !== publishable.includes('_live_')) {
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
/**
 * The payer cookie's key when `PAYER_COOKIE_SECRET` is unset. With Stripe, an HMAC of a fixed label
 * under the Stripe secret key: as secret as that key (which never leaves the server), the same after
 * a restart, so the payer of an open payment is not refused by the next process (the sweep would
 * otherwise cancel a hold whose page was still converting, its lookups never charged). In demo
 * mode, random per process.
 */
export function defaultPayerCookieSecret(stripeSecretKey: string | undefined): string {
  return stripeSecretKey
    ? createHmac('sha256', stripeSecretKey).update('placeport payer cookie v1').digest('base64url')
    : randomBytes(32).toString('base64url');
}

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
    trustProxy: trustProxyOf(values.TRUST_PROXY),
    demoPayments: undefined,
    payerCookieSecrets: values.PAYER_COOKIE_SECRET ?? [
      defaultPayerCookieSecret(values.STRIPE_SECRET_KEY),
    ],
    payerCookieSecretSet: values.PAYER_COOKIE_SECRET !== undefined,
    settleAfterMinutes: values.SETTLE_AFTER_MINUTES,
    freeLinksPerDay: values.FREE_LINKS_PER_DAY,
    redisUrl: values.REDIS_URL,
    rateLimitFactor: values.RATE_LIMIT_FACTOR,
    logLevel: values.LOG_LEVEL,
  };
  if (settings.redisUrl !== undefined && !settings.payerCookieSecretSet) {
    problems.push(
      'PAYER_COOKIE_SECRET: must be set with REDIS_URL: instances sharing one Redis serve one site, and each would otherwise sign payer cookies with a key of its own and refuse the payments the others made',
    );
  }
  for (const problem of [
    values.STRIPE_API_BASE && values.STRIPE_SECRET_KEY
      ? clearTextKeyProblem('STRIPE_API_BASE', values.STRIPE_API_BASE, 'STRIPE_SECRET_KEY')
      : undefined,
    values.GOOGLE_MAPS_API_KEY
      ? clearTextKeyProblem('PLACES_API_ORIGIN', values.PLACES_API_ORIGIN, 'GOOGLE_MAPS_API_KEY')
      : undefined,
  ]) {
    if (problem) problems.push(problem);
  }
  const stripeKeyGiven = 'STRIPE_SECRET_KEY' in present || 'STRIPE_PUBLISHABLE_KEY' in present;
  if (!stripeKeyGiven) {
    settings.demoPayments = demoPaymentsOf(settings, values.DEMO_PAYMENTS === 'on', problems);
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return settings;
}

/**
 * Where demo payments may run (product.md, Money): on their own only where nobody else can reach
 * the server, a loopback `HOST` with no trusted proxy in front; elsewhere only with
 * `DEMO_PAYMENTS=on`, since without it the server would hand out free lookups to the internet.
 * Anything else is a start-up problem, never a silent fallback to demo payments.
 */
function demoPaymentsOf(
  settings: Settings,
  allowed: boolean,
  problems: string[],
): DemoPayments | undefined {
  const loopback = isLoopbackHost(settings.host);
  if (loopback && settings.trustProxy === false) return 'loopback';
  if (allowed) return 'reachable';
  const keys = `Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or DEMO_PAYMENTS=on to allow demo payments there (at most ${REACHABLE_DEMO_MAX_PLACES.toLocaleString('en-US')} places a payment)`;
  problems.push(
    loopback
      ? `TRUST_PROXY: demo payments (no Stripe keys) do not run behind a proxy: it makes ${settings.host} reachable from other machines. ${keys}`
      : `HOST: demo payments (no Stripe keys) run only on a loopback address; ${settings.host} is reachable from other machines. ${keys}`,
  );
  return undefined;
}
