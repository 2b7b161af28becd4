import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { StateStore } from '../state/index.js';
import { clientKeyOf } from './client.js';
import type { Settings } from '../config.js';
import { ApiError } from './errors.js';

/**
 * Production limits per client. A conversion makes one create, one capture and one resolve call
 * per 100 to 500 links (the converter aims at about 200 calls a run, `resolveChunkSizeFor`), so
 * the largest one (100,000 places, all cached) makes 200 resolve calls in well under a minute;
 * these leave room for that and for several people behind one address, and stop scripted abuse.
 */
export const DEFAULT_RATE_LIMITS = {
  /** Requests per client IP per minute, overall and for the routes that cost money or upstream work. */
  globalPerMinute: 600,
  paymentPerMinute: 60,
  resolvePerMinute: 300,
  /**
   * Payments one client (IPv4 address or IPv6 /64) may start per hour and per day: each intent's
   * client secret lets its holder try a card, so creation is capped well above what a person
   * converting lists needs.
   */
  intentsPerHour: 20,
  intentsPerDay: 50,
  /**
   * Checks with the payment provider one client may cause per minute for payments the store has
   * no payer for (each a read of the intent, see `requirePayer`): a browser that lost its binding
   * needs one per payment; made-up ids cost Stripe calls at this rate at most.
   */
  payerChecksPerMinute: 10,
  /**
   * Reads of a payment from the provider one client may cause per minute (`spendProviderRead`):
   * a payment's status, its capture, and its first paid batch (later batches use the verdict the
   * store keeps). A run needs a handful; without a cap, one unauthorized intent of one's own could
   * be read 400 times a minute, and Stripe's read limit is the whole account's.
   */
  providerReadsPerMinute: 30,
};

/** The per-client rate limits of one app. */
export type RateLimitTuning = typeof DEFAULT_RATE_LIMITS;

/** The production limits scaled by `RATE_LIMIT_FACTOR` (never below one request a minute). */
export function scaledRateLimits(factor: number): RateLimitTuning {
  const scaled = Object.entries(DEFAULT_RATE_LIMITS).map(([name, limit]) => [
    name,
    Math.max(1, Math.round(limit * factor)),
  ]);
  return Object.fromEntries(scaled) as RateLimitTuning;
}

/** Stripe.js is loaded from js.stripe.com and frames from js/hooks.stripe.com; it calls api.stripe.com. */
const STRIPE_SCRIPT = 'https://js.stripe.com';
const STRIPE_FRAMES = ['https://js.stripe.com', 'https://hooks.stripe.com'];
const STRIPE_API = 'https://api.stripe.com';

/**
 * The Content-Security-Policy of the served web app: same-origin code and the module worker
 * (`worker-src 'self' blob:`), Stripe.js scripts, frames and API calls, nothing else. When the
 * Stripe API base is overridden (tests), the browser may talk to it too.
 */
export function contentSecurityPolicy(settings: Settings): Record<string, string[]> {
  const stripeApi = settings.stripe?.apiBase ? [settings.stripe.apiBase.origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", STRIPE_SCRIPT],
    'frame-src': STRIPE_FRAMES,
    'connect-src': ["'self'", STRIPE_API, ...stripeApi],
    'worker-src': ["'self'", 'blob:'],
    'img-src': ["'self'", 'data:', 'blob:', 'https://*.stripe.com'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * What the page and any frame in it may ask the browser for: nothing of the camera, microphone,
 * location, devices or screen; payment (the wallets Stripe's frames offer) only on the page itself
 * and in Stripe's frames. Helmet sends no Permissions-Policy of its own.
 */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  `payment=(self "${STRIPE_SCRIPT}")`,
].join(', ');

/**
 * The route options of a route that moves money or spends a budget: its own limit, and closed
 * when the counters cannot be read (the shared state is away): 503 `store_unavailable`, never a
 * request let through uncounted. Every other route (static files, `/api/config`, `/api/health`)
 * keeps the global limit, which lets requests through while the state is away.
 */
export function moneyRouteRateLimit(max: number): {
  rateLimit: { max: number; timeWindow: number; skipOnError: false };
} {
  return { rateLimit: { max, timeWindow: 60_000, skipOnError: false } };
}

/** The prefix of a route's counters: its method and path (the global limit has its own). */
function routePrefix(params: unknown): string {
  const route = (params as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
  return `${String(route?.method ?? '')}${String(route?.url ?? '')}:`;
}

/**
 * @fastify/rate-limit's counters kept in the state store ({@link StateStore.hit}, fixed windows):
 * shared by every instance with Redis, and failing with the store's own error when it is away,
 * which each route's `skipOnError` turns into "let it through" or a 503. The store fails at once
 * while Redis is away or known to hang (see `RedisStateStore`), so neither the page, `/api/config`
 * nor `/api/health` waits on it (a load balancer's health check would give up on the instance).
 */
function stateRateLimitStore(state: StateStore) {
  return class StateRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'all:',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      state.hit(`${this.prefix}${key}`, timeWindow, max).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.resetMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(params: unknown): FastifyRateLimitStore {
      return new StateRateLimitStore(undefined, routePrefix(params));
    }
  };
}

/**
 * Security headers (helmet with the CSP above), CORS for the configured origins only (none: same
 * origin only), and per-client rate limits answered in the API's error shape, counted in the
 * state store.
 */
export async function installSecurity(
  app: FastifyInstance,
  settings: Settings,
  limits: RateLimitTuning,
  state: StateStore,
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(settings) },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });
  await app.register(cors, {
    origin: settings.corsOrigins.length > 0 ? settings.corsOrigins : false,
    methods: ['GET', 'POST'],
    credentials: true,
    maxAge: 600,
  });
  await app.register(rateLimit, {
    global: true,
    max: limits.globalPerMinute,
    timeWindow: 60_000,
    // One client is an IPv4 address or an IPv6 /64 (one household's or server's block), as seen
    // through the proxies TRUST_PROXY names; with REDIS_URL every instance counts together.
    keyGenerator: (request) => clientKeyOf(request.ip),
    store: stateRateLimitStore(state),
    // Static files, /api/config and /api/health keep answering while the state is away; money
    // routes say otherwise (moneyRouteRateLimit).
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        'rate_limited',
        `Too many requests. Please wait ${context.after} and try again.`,
      ),
  });
}
