/**
 * API benchmark (`pnpm --filter @placeport/api bench`, about a minute on an idle machine):
 * 1. resolve 1,000 distinct places against the fake Google answering every page in 100 ms
 *    (wall time, upstream requests), then the same batch again (all cache hits);
 * 2. with the in-process memory store and with Redis (a private redis-server from `startRedis`),
 *    load from a second process (autocannon, see load.ts), requests per second and p99:
 *    - `capture-payment` (demo): every request captures its own prepared, authorized intent with
 *      the payer cookie (autocannon's programmatic API, a body per request: capture-load.mjs);
 *    - `create-payment-intent` (demo);
 *    - a paid `resolve-urls-batch` of 4 cached links (a demo intent and its payer cookie: the free
 *      tier's daily budget would refuse a load test);
 * 3. the settlement sweep of 1,000 open authorizations seeded on the fake Stripe (memory and
 *    Redis): wall time and what it captured and cancelled;
 * 4. a paid `resolve-urls-batch` of 4 cached links in Stripe mode (the fake Stripe; memory and
 *    Redis) under the same load: requests per second, p99, and the Stripe calls the batches made
 *    (the first batch's included), in all and per batch;
 * 5. recovery after a Redis outage: Redis is killed, started again on the same port, and the time
 *    from its first PONG to the first 200 of `create-payment-intent` (a money route) is measured,
 *    a few times over.
 */
import { cpus, loadavg } from 'node:os';
import {
  ensureRedisServer,
  ftidForCid,
  startFakeGoogle,
  startFakeStripe,
  startRedis,
  type FakeGoogle,
} from '@placeport/testkit';
import { UPSTREAM_CONCURRENCY } from '@placeport/resolver';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadSettings } from '../src/config.js';
import { PAYER_COOKIE } from '../src/http/payer.js';
import { payerHash } from '../src/payments/payer.js';
import { RECONNECT_MAX_DELAY_MS } from '../src/state/redis-store.js';
import { googleEnv, redisEnv, stripeEnv } from '../test/support.js';
import { describeLoad, loadEach, loadFor, type LoadResult } from './load.js';

const PLACES = 1_000;
const UPSTREAM_DELAY_MS = 100;
const LOAD_SECONDS = 5;
const LOAD_CONNECTIONS = 50;
/**
 * Measured captures per store, each with its own authorized intent. Demo payments keep at most
 * 10,000 intents and never evict open authorizations: warm-up, spares and these stay below that.
 */
const CAPTURES = 8_000;
/** Unmeasured captures before the measured ones (the JIT's warm-up). */
const CAPTURE_WARM_UP = 500;
/** Bodies autocannon builds ahead of time and never sends (one or two per connection). */
const CAPTURE_SPARES = 2 * LOAD_CONNECTIONS + 10;
/** Places of each captured intent; each capture charges all of them ($1.00). */
const CAPTURE_PLACES = 10;
const SWEEP_INTENTS = 1_000;
/** REDIS_URL requires a payer-cookie secret shared by the instances. */
const BENCH_PAYER_COOKIE_SECRET = 'bench-payer-cookie-secret-0123456789abcdef';
const UNLIMITED = {
  globalPerMinute: 1e9,
  paymentPerMinute: 1e9,
  resolvePerMinute: 1e9,
  intentsPerHour: 1e9,
  intentsPerDay: 1e9,
  payerChecksPerMinute: 1e9,
  providerReadsPerMinute: 1e9,
};

type StoreName = 'memory' | 'redis';

function link(index: number): string {
  const ftid = ftidForCid(BigInt(0x1000 + index));
  return `https://www.google.com/maps/place/Bench+${index}/data=!4m2!3m1!1s${ftid}`;
}

const count = (n: number) => n.toLocaleString('en-US');

interface Posted {
  body: Record<string, unknown>;
  /** The payer cookie as a `name=value` pair, when the answer set one. */
  payerCookie: string | undefined;
}

async function post(base: string, path: string, body: unknown, cookie?: string): Promise<Posted> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const payerCookie = response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${PAYER_COOKIE}=`))
    ?.split(';')[0];
  return { body: (await response.json()) as Record<string, unknown>, payerCookie };
}

/** An API listening on loopback (demo payments unless `env` has Stripe keys), state in memory or Redis. */
async function startApi(
  env: Record<string, string>,
): Promise<{ app: FastifyInstance; base: string }> {
  const settings = loadSettings(env);
  const app = await buildApp({
    settings: { ...settings, webDist: undefined },
    rateLimits: UNLIMITED,
  });
  return { app, base: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

/** A demo intent for `places`, created and authorized through the API by the browser `cookie` holds. */
async function authorizedThroughApi(
  base: string,
  places: number,
  cookie?: string,
): Promise<{ paymentIntentId: string; cookie: string }> {
  const created = await post(base, '/api/create-payment-intent', { amount: places / 10 }, cookie);
  const paymentIntentId = created.body.paymentIntentId as string;
  const payer = cookie ?? created.payerCookie;
  if (!payer) throw new Error('create-payment-intent set no payer cookie');
  await post(base, '/api/demo/authorize', { paymentIntentId }, payer);
  return { paymentIntentId, cookie: payer };
}

/**
 * `total` authorized demo intents of the browser whose payer cookie is `cookie`, made through the
 * payment service directly (the route's own work, without HTTP), so preparing them stays quick.
 */
async function prepareCaptures(app: FastifyInstance, cookie: string, total: number) {
  const raw = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  const payer = app.unsignCookie(raw);
  if (!payer.valid || !payer.value) throw new Error('the payer cookie does not verify');
  const hash = payerHash(payer.value);
  const demo = app.demoPayments;
  if (!demo) throw new Error('demo payments are off');
  const bodies: string[] = [];
  for (let done = 0; done < total; done += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, total - done) }, () =>
        app.payments.createIntent(CAPTURE_PLACES / 10, hash, () => {}),
      ),
    );
    for (const { paymentIntentId } of batch) {
      demo.authorize(paymentIntentId);
      bodies.push(
        JSON.stringify({
          paymentIntentId,
          actualAmount: CAPTURE_PLACES / 10,
          convertedCount: CAPTURE_PLACES,
          totalCount: CAPTURE_PLACES,
        }),
      );
    }
  }
  return bodies;
}

/** Part 1: a cold batch of 1,000 distinct places, then the same batch from the cache. */
async function resolutionBench(google: FakeGoogle): Promise<void> {
  const { app, base } = await startApi({
    ...googleEnv(google),
  });
  try {
    const { paymentIntentId, cookie } = await authorizedThroughApi(base, PLACES);
    const urls = Array.from({ length: PLACES }, (_, i) => link(i));
    console.log(
      `\n[1] Resolving ${count(PLACES)} distinct places, fake upstream ${UPSTREAM_DELAY_MS} ms per page, concurrency ${UPSTREAM_CONCURRENCY} (memory store)`,
    );
    google.clearRequests();
    let started = performance.now();
    const cold = await post(base, '/api/resolve-urls-batch', { urls, paymentIntentId }, cookie);
    const coldMs = performance.now() - started;
    const coldRequests = google.requests.length;
    google.clearRequests();
    started = performance.now();
    const warm = await post(base, '/api/resolve-urls-batch', { urls, paymentIntentId }, cookie);
    const warmMs = performance.now() - started;
    console.log(
      `first batch: ${Math.round(coldMs)} ms wall time, ${Object.keys(cold.body.results as object).length} resolved, ${coldRequests} upstream requests`,
    );
    console.log(
      `same batch again: ${Math.round(warmMs)} ms wall time, ${Object.keys(warm.body.results as object).length} resolved, ${google.requests.length} upstream requests`,
    );
  } finally {
    await app.close();
  }
}

/** Part 2 for one store: capture, create and a cached resolve batch under load. */
async function loadBench(
  store: StoreName,
  google: FakeGoogle,
  redisUrl: string | undefined,
): Promise<Record<string, LoadResult>> {
  const { app, base } = await startApi({
    ...googleEnv(google),
    ...storeEnv(redisUrl),
  });
  const results: Record<string, LoadResult> = {};
  const report = (label: string, result: LoadResult) => {
    results[label] = result;
    console.log(describeLoad(`${label} [${store}]`, result));
  };
  try {
    // Capture first, on a fresh demo provider: it keeps at most 10,000 intents.
    const payer = await post(base, '/api/create-payment-intent', { amount: 1 });
    const cookie = payer.payerCookie!;
    // A short unreported run first, so the measured one does not pay for the JIT's warm-up.
    const warmUp = await prepareCaptures(app, cookie, CAPTURE_WARM_UP + CAPTURE_SPARES);
    await loadEach(`${base}/api/capture-payment`, warmUp, {
      connections: LOAD_CONNECTIONS,
      amount: CAPTURE_WARM_UP,
      cookie,
    });
    const bodies = await prepareCaptures(app, cookie, CAPTURES + CAPTURE_SPARES);
    const capture = await loadEach(`${base}/api/capture-payment`, bodies, {
      connections: LOAD_CONNECTIONS,
      amount: CAPTURES,
      cookie,
    });
    report(
      `capture-payment (demo, ${count(CAPTURES)} intents, one each; autocannon requests[].setupRequest)`,
      capture,
    );

    report(
      'create-payment-intent (demo)',
      await loadFor(
        `${base}/api/create-payment-intent`,
        { amount: 1.2 },
        {
          connections: LOAD_CONNECTIONS,
          seconds: LOAD_SECONDS,
        },
      ),
    );

    const paid = await authorizedThroughApi(base, PLACES);
    const urls = Array.from({ length: 4 }, (_, i) => link(i));
    const batch = { urls, paymentIntentId: paid.paymentIntentId };
    await post(base, '/api/resolve-urls-batch', batch, paid.cookie);
    google.clearRequests();
    report(
      'resolve-urls-batch (4 cached links, paid)',
      await loadFor(`${base}/api/resolve-urls-batch`, batch, {
        connections: LOAD_CONNECTIONS,
        seconds: LOAD_SECONDS,
        cookie: paid.cookie,
      }),
    );
    if (google.requests.length > 0) {
      console.log(`  (warning: ${google.requests.length} upstream requests during the cached run)`);
    }
  } finally {
    await app.close();
  }
  return results;
}

/** The settings that keep an API's state in `redisUrl` when given, else in memory. */
function storeEnv(redisUrl: string | undefined): Record<string, string> {
  return redisUrl ? redisEnv(redisUrl, BENCH_PAYER_COOKIE_SECRET) : {};
}

/** Part 3: one sweep over 1,000 open PlacePort authorizations, all unused for two hours. */
async function sweepBench(store: StoreName, redisUrl: string | undefined): Promise<void> {
  const stripe = await startFakeStripe();
  const lastUsed = String(Math.floor(Date.now() / 1000) - 2 * 60 * 60);
  // resolved 0–9 in turn: 5–9 places reach the $0.50 minimum (captured), 0–4 do not (cancelled).
  stripe.seedIntents(SWEEP_INTENTS, {
    amount: 20 * 10,
    metadata: (index) => ({
      product: 'placeport',
      places: '20',
      payer: 'x',
      resolved: String(index % 10),
      last_used: lastUsed,
    }),
  });
  const { app } = await startApi({ ...stripeEnv(stripe), ...storeEnv(redisUrl) });
  try {
    const started = performance.now();
    const report = await app.settlement.sweep();
    const ms = performance.now() - started;
    console.log(
      `settlement sweep of ${count(SWEEP_INTENTS)} open authorizations (fake Stripe, ${store} store): ` +
        `${(ms / 1000).toFixed(2)} s, ${count(stripe.requests.length)} Stripe calls; examined ${report.examined}, ` +
        `captured ${report.captured}, cancelled ${report.cancelled}, waiting ${report.waiting}, failed ${report.failed}`,
    );
  } finally {
    await app.close();
    await stripe.close();
  }
}

/** Part 4: paid batches in Stripe mode, and the Stripe calls they cost (the first batch's too). */
async function stripeBatchBench(
  store: StoreName,
  google: FakeGoogle,
  redisUrl: string | undefined,
): Promise<void> {
  const stripe = await startFakeStripe();
  const { app, base } = await startApi({
    ...googleEnv(google),
    ...stripeEnv(stripe),
    ...storeEnv(redisUrl),
  });
  try {
    const created = await post(base, '/api/create-payment-intent', { amount: PLACES / 10 });
    const paymentIntentId = created.body.paymentIntentId as string;
    const cookie = created.payerCookie!;
    stripe.authorize(paymentIntentId);
    stripe.clearRequests();
    const batch = { urls: Array.from({ length: 4 }, (_, i) => link(i)), paymentIntentId };
    // The first batch looks the places up; the load repeats it, all from the cache.
    await post(base, '/api/resolve-urls-batch', batch, cookie);
    const result = await loadFor(`${base}/api/resolve-urls-batch`, batch, {
      connections: LOAD_CONNECTIONS,
      seconds: LOAD_SECONDS,
      cookie,
    });
    const calls = stripe.requests.length;
    const batches = result.total - result.non2xx + 1;
    console.log(
      describeLoad(
        `resolve-urls-batch (4 cached links, paid by card) [${store}, fake Stripe]`,
        result,
      ),
    );
    console.log(
      `  Stripe calls: ${count(calls)} for ${count(batches)} paid batches = ${(calls / batches).toFixed(4)} per batch`,
    );
  } finally {
    await app.close();
    await stripe.close();
  }
}

/** Outages measured in part 5. */
const OUTAGES = 5;
/** How often part 5 asks the money route again while it waits for the first 200. */
const RECOVERY_POLL_MS = 5;

/** Part 5: from Redis answering again to the first 200 on a money route, `OUTAGES` times. */
async function recoveryBench(): Promise<void> {
  const redis = await startRedis();
  const { app, base } = await startApi(redisEnv(redis.url, BENCH_PAYER_COOKIE_SECRET));
  const create = async () =>
    (
      await fetch(`${base}/api/create-payment-intent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1 }),
      })
    ).status;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const times: number[] = [];
  try {
    if ((await create()) !== 200) throw new Error('create-payment-intent failed before the outage');
    for (let outage = 0; outage < OUTAGES; outage += 1) {
      await redis.kill();
      while (app.state.available()) await pause(RECOVERY_POLL_MS);
      const during = await create();
      if (during !== 503)
        throw new Error(`create-payment-intent answered ${during} during the outage`);
      // An outage of about a second, so ioredis has backed off to its longest retry delay.
      await pause(1_000);
      await redis.restart();
      const back = performance.now();
      while ((await create()) !== 200) await pause(RECOVERY_POLL_MS);
      times.push(performance.now() - back);
    }
    const sorted = [...times].sort((x, y) => x - y);
    console.log(
      `first 200 on create-payment-intent after Redis answers again (${OUTAGES} outages of about 1 s): ` +
        `${times.map((ms) => `${Math.round(ms)} ms`).join(', ')}; median ${Math.round(sorted[Math.floor(OUTAGES / 2)]!)} ms, ` +
        `worst ${Math.round(sorted[OUTAGES - 1]!)} ms (reconnect delay at most ${RECONNECT_MAX_DELAY_MS} ms)`,
    );
  } finally {
    await app.close();
    await redis.stop();
  }
}

async function main(): Promise<void> {
  const [load1, load5] = loadavg();
  console.log(
    `PlacePort API benchmark: ${cpus().length} cores, load average ${load1!.toFixed(1)} / ${load5!.toFixed(1)} (1 / 5 min) at start; loopback only`,
  );
  ensureRedisServer({ log: (line) => console.log(line) });
  const google = await startFakeGoogle({ delayMs: UPSTREAM_DELAY_MS });
  const redis = await startRedis();
  try {
    await resolutionBench(google);

    console.log(
      `\n[2] Load: autocannon in a second process, ${LOAD_CONNECTIONS} connections; timed runs ${LOAD_SECONDS} s each`,
    );
    const memory = await loadBench('memory', google, undefined);
    const shared = await loadBench('redis', google, redis.url);
    const summary: Record<string, Record<string, number>> = {};
    for (const label of Object.keys(memory)) {
      const name = label.replace(/ \(.*$/, '');
      summary[name] = {
        'memory req/s': memory[label]!.requestsPerSecond,
        'memory p99 ms': memory[label]!.p99Ms,
        'redis req/s': shared[label]!.requestsPerSecond,
        'redis p99 ms': shared[label]!.p99Ms,
      };
    }
    console.table(summary);

    console.log(`\n[3] Settlement sweep`);
    await sweepBench('memory', undefined);
    await sweepBench('redis', redis.url);

    console.log(`\n[4] Paid batches in Stripe mode`);
    await stripeBatchBench('memory', google, undefined);
    await stripeBatchBench('redis', google, redis.url);

    console.log(`\n[5] Recovery after Redis returns`);
    await recoveryBench();
  } finally {
    await redis.stop();
    await google.close();
  }
}

await main();
