import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  coordinatesForCid,
  s2CellIdFor,
  startFakeGoogle,
  startFakeStripe,
  type FakeGoogle,
  type FakeGoogleOptions,
  type FakeStripe,
} from '@placeport/testkit';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppConfig } from '../src/app.js';
import { loadSettings } from '../src/config.js';

/** A tiny built web app, so static serving is the same whether or not apps/web was built. */
export const WEB_FIXTURE = fileURLToPath(new URL('./fixtures/web', import.meta.url));

/** A payer-cookie secret for tests that share state through Redis (REDIS_URL requires one). */
export const TEST_PAYER_COOKIE_SECRET = 'tests-share-this-payer-cookie-secret-0123456789';

/** Settings from an environment, with the web fixture served unless told otherwise. */
export function settingsFor(env: Record<string, string> = {}) {
  return loadSettings({ WEB_DIST: WEB_FIXTURE, FREE_LINKS_PER_DAY: GENEROUS_FREE_BUDGET, ...env });
}

/** The settings that send the API's lookups to the fake Google: place pages and the Places API. */
export function googleEnv(google: FakeGoogle): Record<string, string> {
  return { MAPS_UPSTREAM_ORIGIN: google.url, PLACES_API_ORIGIN: google.url };
}

/**
 * The settings of Stripe mode on the fake Stripe. `apiBase` is where the API sends its Stripe
 * requests: the fake itself unless something (a tap) stands in front of it.
 */
export function stripeEnv(stripe: FakeStripe, apiBase = stripe.url): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_API_BASE: apiBase,
  };
}

/** The settings of an instance that keeps its state in the Redis at `url` (which needs a payer-cookie secret). */
export function redisEnv(
  url: string,
  payerCookieSecret = TEST_PAYER_COOKIE_SECRET,
): Record<string, string> {
  return { REDIS_URL: url, PAYER_COOKIE_SECRET: payerCookieSecret };
}

/**
 * The settings of one of several instances that share the Redis at `redisUrl`, on the fake Google
 * and the fake Stripe (reached at `stripeApiBase`, the fake itself unless a tap stands in front).
 */
export function sharedRedisEnv(
  redisUrl: string,
  { google, stripe }: { google: FakeGoogle; stripe: FakeStripe },
  options: { payerCookieSecret?: string; stripeApiBase?: string } = {},
): Record<string, string> {
  return {
    ...redisEnv(redisUrl, options.payerCookieSecret),
    ...googleEnv(google),
    ...stripeEnv(stripe, options.stripeApiBase),
  };
}

/** The fake Google and the fake Stripe, for tests that build their own instances on them. */
export async function startFakes(): Promise<{ google: FakeGoogle; stripe: FakeStripe }> {
  return { google: await startFakeGoogle(), stripe: await startFakeStripe() };
}

/** One API instance listening on loopback. */
export interface Instance {
  app: FastifyInstance;
  url: string;
}

/**
 * An API instance as server.ts builds it: from settings (`env`, over the tests' defaults), without
 * rate limits unless `config` says otherwise, listening on loopback. It joins `apps`, which the
 * test closes.
 */
export async function listenFromSettings(
  apps: FastifyInstance[],
  env: Record<string, string>,
  config: Partial<AppConfig> = {},
): Promise<Instance> {
  const app = await buildApp({ settings: settingsFor(env), rateLimits: UNLIMITED, ...config });
  apps.push(app);
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

/** Demo-payments app for `inject` tests. */
export function demoApp(config: Partial<AppConfig> = {}): Promise<FastifyInstance> {
  return buildApp({ settings: settingsFor(), ...config });
}

/** Every request the resolver sent, as seen by the fetch it was given. */
export interface UpstreamCall {
  url: string;
  upstreamHost: string | undefined;
}

/** A fetch that records every call and the highest number in flight, then calls the real fetch. */
export function recordingFetch() {
  const calls: UpstreamCall[] = [];
  let inFlight = 0;
  const stats = { peak: 0 };
  const fetchImpl: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    calls.push({ url: String(input), upstreamHost: headers.get('x-upstream-host') ?? undefined });
    inFlight += 1;
    stats.peak = Math.max(stats.peak, inFlight);
    try {
      return await fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch: fetchImpl, calls, stats };
}

/** Rate limits out of the way for tests about something else (the limits have their own tests). */
export const UNLIMITED = {
  globalPerMinute: 1e6,
  paymentPerMinute: 1e6,
  resolvePerMinute: 1e6,
  intentsPerHour: 1e6,
  intentsPerDay: 1e6,
  payerChecksPerMinute: 1e6,
  providerReadsPerMinute: 1e6,
};

/** The whole API listening on loopback with fake Google (and fake Stripe when asked). */
export interface Stack {
  app: FastifyInstance;
  url: string;
  google: FakeGoogle;
  stripe: FakeStripe | undefined;
  upstream: ReturnType<typeof recordingFetch>;
  /**
   * POSTs JSON as one browser: cookies the API sets are kept per `browser` (default `'me'`) and
   * sent back, as a browser does with `credentials: 'include'`. Another name is another browser.
   */
  post(
    path: string,
    body: unknown,
    browser?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  /** GETs as one browser, sending the cookies it keeps (see `post`). */
  get(
    path: string,
    browser?: string,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  /** The cookie header a browser would send now. */
  cookies(browser?: string): string;
  close(): Promise<void>;
}

/** Cookies per browser name: `name=value` pairs from Set-Cookie, the way a browser keeps them. */
export class CookieJars {
  private readonly jars = new Map<string, Map<string, string>>();

  header(browser = 'me'): string {
    return [...(this.jars.get(browser) ?? new Map<string, string>())]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }

  keep(browser: string, setCookies: readonly string[]): void {
    const jar = this.jars.get(browser) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    this.jars.set(browser, jar);
  }
}

export interface StackOptions {
  stripe?: boolean;
  /** Set GOOGLE_MAPS_API_KEY: `true` for the fake's key, or a given (wrong) key. */
  placesApiKey?: boolean | string;
  google?: FakeGoogleOptions;
  config?: Partial<AppConfig>;
  /** More environment settings (e.g. `FREE_LINKS_PER_DAY`). */
  env?: Record<string, string>;
}

/**
 * Free lookups per day in stacks whose tests are about something else: every test's requests come
 * from 127.0.0.1, so the real budget (20) would end them early. The budget has its own tests.
 */
export const GENEROUS_FREE_BUDGET = '10000';

/** Starts fakes and a real listening API wired to them through the documented settings. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const google = await startFakeGoogle(options.google);
  const stripe = options.stripe ? await startFakeStripe() : undefined;
  const upstream = recordingFetch();
  const env: Record<string, string> = {
    ...googleEnv(google),
    FREE_LINKS_PER_DAY: GENEROUS_FREE_BUDGET,
    ...options.env,
    ...(stripe ? stripeEnv(stripe) : {}),
  };
  if (options.placesApiKey) {
    env.GOOGLE_MAPS_API_KEY = options.placesApiKey === true ? google.apiKey : options.placesApiKey;
  }
  const app = await buildApp({
    settings: settingsFor(env),
    fetch: upstream.fetch,
    rateLimits: UNLIMITED,
    ...options.config,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const jars = new CookieJars();
  /** One request as `browser`: its cookies sent, the ones the API sets kept. */
  const send = async (path: string, browser: string, init: RequestInit) => {
    const cookie = jars.header(browser);
    const headers = { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) };
    const response = await fetch(`${address}${path}`, { ...init, headers });
    jars.keep(browser, response.headers.getSetCookie());
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      headers: response.headers,
    };
  };
  return {
    app,
    url: address,
    google,
    stripe,
    upstream,
    post: (path, body, browser = 'me', headers = {}) =>
      send(path, browser, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    get: (path, browser = 'me') => send(path, browser, {}),
    cookies: (browser = 'me') => jars.header(browser),
    async close() {
      await app.close();
      await google.close();
      await stripe?.close();
    },
  };
}

/**
 * Distinct Takeout place links without coordinates: each needs a lookup, so each is sent to the
 * resolver and counted against an allowance (the fake Google knows every one of them).
 */
export function placeLinks(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => takeoutLink(ftidFor(from + i)));
}

/** A loopback server that must never be contacted; `hits` counts requests that reached it. */
export async function startCanary(): Promise<{
  port: number;
  hits: () => number;
  close(): Promise<void>;
}> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits += 1;
    response.end('canary');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A Takeout-style place link for a feature id. */
export function takeoutLink(ftid: string, name = 'Some Place'): string {
  return `https://www.google.com/maps/place/${encodeURIComponent(name)}/data=!4m2!3m1!1s${ftid}`;
}

/**
 * A distinct, valid feature id per index (the CID is index + 1), whose high half is the S2 cell of
 * where the fake Google says the place is, as in real ftids.
 */
export function ftidFor(index: number): string {
  const cid = BigInt(index + 1);
  const cell = s2CellIdFor(coordinatesForCid(cid.toString()), 15);
  return `0x${cell.toString(16)}:0x${cid.toString(16)}`;
}
