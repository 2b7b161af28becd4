import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { Allowance } from './allowance/allowance.js';
import type { Settings } from './config.js';
import {
  connectionLimits,
  installConnectionLimits,
  type ConnectionLimits,
} from './http/connections.js';
import { ApiError, installErrorHandler } from './http/errors.js';
import { installJsonBodies } from './http/json-body.js';
import { installSecurity, scaledRateLimits, type RateLimitTuning } from './http/security.js';
import { installStaticAndFallback } from './http/static.js';
import { installValibotValidation } from './http/validation.js';
import { createDemoProvider } from './payments/demo-provider.js';
import { PaymentService } from './payments/service.js';
import { createSettlement } from './payments/settlement.js';
import { createStripeProvider } from './payments/stripe-provider.js';
import { REACHABLE_DEMO_MAX_PLACES } from '@placeport/contract';
import { createResolver, type ResolverTuning } from '@placeport/resolver';
import { createPublicFetch } from '@placeport/resolver/node';
import cookie from '@fastify/cookie';
import { createStateStore, RedisStateStore, type StateStore } from './state/index.js';
import { installRequestLog, noteStatusWritten, requestIdGenerator } from './http/request-log.js';
import { registerConfigRoute } from './routes/config.js';
import { registerDemoRoute } from './routes/demo.js';
import { registerHealthRoute } from './routes/health.js';
import { registerPaymentRoutes } from './routes/payments.js';
import { registerResolveRoute } from './routes/resolve.js';
import './services.js';

/** Largest request body outside the resolve route (which sets its own). */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** Log fields that could hold secrets or personal data; they are replaced before any log line is written. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-goog-api-key"]',
  'res.headers["set-cookie"]',
  '*.secretKey',
  '*.publishableKey',
  '*.googleMapsApiKey',
  '*.apiKey',
];

/** Everything {@link buildApp} needs: the parsed settings, and knobs tests and benchmarks turn. */
export interface AppConfig {
  settings: Settings;
  /** Fastify's logger: `false` (default) for silence, or pino options. Secrets are always redacted. */
  logger?: boolean | Exclude<FastifyServerOptions['logger'], boolean | undefined>;
  /** Lower deadlines or a smaller cache, e.g. to keep tests fast. */
  resolver?: Partial<ResolverTuning>;
  rateLimits?: Partial<RateLimitTuning>;
  /**
   * The shared state (tests share one between two apps, or inject a clock); by default the
   * settings' Redis, or the in-process store. A store given here is not closed with the app.
   */
  state?: StateStore;
  /** The clock of money decisions (settlement, free days); tests move it. */
  now?: () => number;
  /**
   * The settlement sweep: `auto` runs it at start and on a timer (server.ts turns it on); tests
   * leave it off and call `app.settlement.sweep()`, or set a short interval or lease.
   */
  settlement?: { auto: boolean; intervalMs?: number; leaseMs?: number };
  /** Shorter timeouts or smaller connection caps, e.g. so tests see slow clients cut quickly. */
  connections?: Partial<ConnectionLimits>;
  /**
   * The fetch the resolver reaches upstreams with (tests wrap it to record every request). By
   * default: one that connects only to public addresses, or, when a test-only maps origin is set,
   * the plain global fetch (that origin is on loopback).
   */
  fetch?: typeof globalThis.fetch;
}

function loggerOptions(logger: AppConfig['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } };
}

/**
 * Fastify's `trustProxy` for the setting: a hop count trusts that many proxies nearest the server
 * (what proxy-addr does for a number), a list trusts those addresses; never every address.
 */
function trustProxyOption(trust: Settings['trustProxy']) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** Stripe when the settings have keys; else the demo provider, also `demo` (its authorize route). */
function paymentProviders(settings: Settings, now: () => number) {
  if (settings.stripe) return { provider: createStripeProvider(settings.stripe), demo: undefined };
  if (!settings.demoPayments) {
    // loadSettings never gives this; settings made by hand must say where demo payments run.
    throw new Error('Settings without Stripe keys must set demoPayments (see loadSettings)');
  }
  const demo = createDemoProvider({
    now,
    maxPlaces: settings.demoPayments === 'reachable' ? REACHABLE_DEMO_MAX_PLACES : undefined,
  });
  return { provider: demo, demo };
}

/** How soon a client told the server is restarting may ask again (another instance, or this one back). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 2;

/**
 * How long a shutdown with the memory store waits for the payments' usage to reach their intents
 * (within the process's own grace, `SHUTDOWN_GRACE_MS`).
 */
export const SHUTDOWN_USAGE_FLUSH_MS = 5_000;

/**
 * A request Fastify refuses before routing (a malformed escape such as `/%zz`) skips every hook,
 * helmet's headers included: it is answered here in the API's error shape, with the headers that
 * keep any answer inert (no sniffing, no framing, nothing loaded).
 */
function answerBadUrl(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .code(400)
    .headers({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    })
    .send({ error: { code: 'bad_request', message: 'The address is not valid.' } });
}

/** What Node's HTTP parser refused, as the API words it: status, code, message. */
function clientErrorAnswer(error: NodeJS.ErrnoException): [number, string, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [408, 'request_timeout', 'The request did not arrive in time.'];
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'headers_too_large', 'The request headers are too large.'];
  }
  return [400, 'bad_request', 'The request could not be read.'];
}

/**
 * A request Node's HTTP parser refuses before Fastify sees it (a malformed or smuggling-shaped
 * request, headers past 16 KB, headers arriving too slowly): answered in the API's error shape
 * with the headers that keep an answer inert, as Fastify's own handler does otherwise (written
 * on the socket, which is then closed).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = clientErrorAnswer(error);
  noteStatusWritten(socket, status);
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'connection: close',
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        "content-security-policy: default-src 'none'; frame-ancestors 'none'",
        'x-content-type-options: nosniff',
        'x-frame-options: DENY',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
}

/**
 * Builds the whole API (and the web app, when built) without listening: `server.ts` listens, tests
 * call `app.inject` or listen on a random port. Payments are Stripe when keys are set, demo
 * otherwise; resolution reaches Google, or the origins the settings name.
 */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const { settings } = config;
  const connections = connectionLimits(config.connections);
  const app = Fastify({
    logger: loggerOptions(config.logger),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(settings.trustProxy),
    requestTimeout: connections.requestTimeoutMs,
    connectionTimeout: connections.connectionTimeoutMs,
    keepAliveTimeout:
      settings.trustProxy === false
        ? connections.keepAliveTimeoutMs
        : connections.keepAliveBehindProxyMs,
    requestIdHeader: false,
    genReqId: requestIdGenerator(settings.trustProxy !== false),
    http: { connectionsCheckingInterval: connections.timeoutCheckIntervalMs },
    // One line per request, when it is answered (installRequestLog), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: answerBadUrl,
    clientErrorHandler: answerClientError,
    // Requests arriving while closing get the API's own 503 (an onRequest hook below), with
    // Retry-After, not Fastify's bare one.
    return503OnClosing: false,
  });
  installConnectionLimits(app.server, connections, settings.trustProxy !== false);
  installRequestLog(app);
  const now = config.now ?? Date.now;
  const { provider, demo } = paymentProviders(settings, now);
  const rateLimits = { ...scaledRateLimits(settings.rateLimitFactor), ...config.rateLimits };
  const state =
    config.state ??
    (await createStateStore({
      redisUrl: settings.redisUrl,
      onUnavailable: (error) =>
        app.log.error(
          { err: error },
          'shared state (Redis) unavailable: payments and lookups answer 503 store_unavailable until it returns',
        ),
      onAvailable: () => app.log.info('shared state (Redis) is back'),
    }));
  if (!config.state && state instanceof RedisStateStore) {
    // Loudly: a Redis that evicts or forgets on restart can lose open payments.
    for (const problem of await state.durabilityProblems()) {
      app.log.error({ redis: 'unsafe for payments' }, problem);
    }
  }
  app.decorate('settings', settings);
  app.decorate('state', state);
  app.decorate('now', now);
  const payments = new PaymentService(provider, state, now, settings.settleAfterMinutes * 60_000);
  app.decorate('payments', payments);
  app.decorate('allowance', new Allowance(payments, state, settings.freeLinksPerDay, now));
  const settlement = createSettlement(
    { payments, state, now, log: app.log, leaseMs: config.settlement?.leaseMs },
    config.settlement ?? { auto: false },
  );
  app.decorate('settlement', settlement);
  // Closing: batches under way are told to answer with what they have, and the sweep stops
  // before its next authorization and gives its lease back, before in-flight requests are waited
  // for (a 45 s batch or a long sweep would outlast a shutdown's grace, and a sweep left running
  // kept settling and then left its lease held); once they are done, the store closes.
  const closing = new AbortController();
  app.decorate('closing', closing.signal);
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing.signal.aborted) return;
    void reply.header('connection', 'close');
    throw new ApiError(
      503,
      'shutting_down',
      'This server is restarting; please try again in a moment.',
      SHUTDOWN_RETRY_AFTER_SECONDS,
    );
  });
  app.addHook('preClose', async () => {
    closing.abort();
    await settlement.stop();
  });
  app.addHook('onClose', async () => {
    // The memory store goes with the process: the places this process counted for each payment
    // and has not written to its intent are written now, once the requests are done, or the next
    // process's settlement would charge too little for a page that went away.
    if (state.kind === 'memory') {
      await payments.usage.flush((detail) => app.log.warn(detail), SHUTDOWN_USAGE_FLUSH_MS);
    }
    if (!config.state) await state.close();
  });
  app.decorate('demoPayments', demo);
  app.decorate('rateLimits', rateLimits);
  app.decorate(
    'resolver',
    createResolver({
      fetch: config.fetch ?? (settings.mapsUpstreamOrigin ? globalThis.fetch : createPublicFetch()),
      mapsOrigin: settings.mapsUpstreamOrigin,
      placesOrigin: settings.placesApiOrigin,
      googleMapsApiKey: settings.googleMapsApiKey,
      onPlacesKeyRejected: (reason) =>
        app.log.error(
          { placesKeyRejected: reason },
          'Google refused GOOGLE_MAPS_API_KEY for the Places API: places are looked up from their pages until it is answered again (check the key, and that its project has the Places API (New) and billing enabled)',
        ),
      cache: state.placeCache(),
      tuning: config.resolver,
    }),
  );

  // The first secret signs; every one verifies (rotation: put the new secret first).
  await app.register(cookie, { secret: settings.payerCookieSecrets });
  app.removeContentTypeParser('text/plain');
  installJsonBodies(app);
  installErrorHandler(app);
  installValibotValidation(app);
  await installSecurity(app, settings, rateLimits, state);
  registerHealthRoute(app);
  registerConfigRoute(app);
  registerPaymentRoutes(app);
  registerDemoRoute(app);
  registerResolveRoute(app);
  await installStaticAndFallback(app, settings.webDist);
  return app;
}
