/**
 * Faults are answers (issue 16): a real redis-server that persists (AOF, fsynced on every write,
 * as production Redis must) is killed by its pid in the middle of a request, a capture and a
 * sweep, then started again on the same port. Requests go over real HTTP to instances built from
 * settings, with the fake Stripe behind a tap (which kills Redis when a chosen Stripe request
 * arrives) and the fake Google behind a tapped fetch. Every answer is kept: none may be a 500,
 * every request settles (no hang), and after the restart every payment is settled exactly once.
 * Nothing here waits on a timer of its own or asserts a duration.
 */
import {
  startRedis,
  type FakeGoogle,
  type FakeStripe,
  type RedisServerHandle,
} from '@placeport/testkit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/app.js';
import type { RedisStateStore } from '../src/state/index.js';
import { SETTLING_MARK_TTL_MS } from '../src/payments/service.js';
import { redisKeys } from '../src/state/redis-store.js';
import {
  recordUnhandledRejections,
  startStripeTap,
  tappedFetch,
  until,
  type StripeTap,
  type TappedRequest,
} from './faults.js';
import {
  CookieJars,
  listenFromSettings,
  placeLinks,
  sharedRedisEnv,
  startFakes,
  type Instance,
} from './support.js';

let google: FakeGoogle;
let stripe: FakeStripe;
let redis: RedisServerHandle;
let admin: Redis;
let tap: StripeTap;
let jars: CookieJars;
let rejections: ReturnType<typeof recordUnhandledRejections>;
/** Runs before each upstream request of the resolver. */
let beforeUpstream: () => void | Promise<void>;
const apps: FastifyInstance[] = [];
/** Every answer the tests received. */
let answers: Answer[];

beforeAll(async () => {
  ({ google, stripe } = await startFakes());
});

afterAll(async () => {
  await google?.close();
  await stripe?.close();
});

beforeEach(async () => {
  redis = await startRedis({ persistence: 'aof' });
  admin = adminOf(redis);
  tap = await startStripeTap(stripe.url);
  jars = new CookieJars();
  rejections = recordUnhandledRejections();
  beforeUpstream = () => undefined;
  answers = [];
});

/** Runs `step` before the next upstream request of the resolver, and only then. */
function beforeNextLookup(step: () => void | Promise<void>): void {
  beforeUpstream = () => {
    beforeUpstream = () => undefined;
    return step();
  };
}

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  admin.disconnect();
  await redis.stop();
  await tap.close();
  expect(rejections.stop()).toEqual([]);
  // A fault is an answer: 503 at worst, never a 500 (or a 502 from a store error).
  expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503)).toEqual([]);
});

/** A plain client beside the instances (reads what they wrote); quiet while Redis is away. */
function adminOf(server: RedisServerHandle): Redis {
  const client = new Redis(server.url);
  client.on('error', () => undefined);
  return client;
}

interface Answer {
  path: string;
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

/** One instance as server.ts builds it from settings, on the Redis, the tap and the fakes. */
function instance(config: Partial<AppConfig> = {}): Promise<Instance> {
  return listenFromSettings(
    apps,
    sharedRedisEnv(redis.url, { google, stripe }, { stripeApiBase: tap.url }),
    { fetch: tappedFetch(() => beforeUpstream()), ...config },
  );
}

/** A request as `browser` (its cookies kept); the answer is recorded. */
async function send(on: Instance, path: string, body?: unknown, browser = 'me'): Promise<Answer> {
  const cookie = jars.header(browser);
  const response = await fetch(`${on.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  jars.keep(browser, response.headers.getSetCookie());
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {};
  const answer = {
    path,
    status: response.status,
    body: json as Record<string, unknown>,
    retryAfter: response.headers.get('retry-after'),
  };
  answers.push(answer);
  return answer;
}

const health = (on: Instance) => send(on, '/api/health');
const errorOf = (answer: Answer) => answer.body.error as { code: string; message: string };

async function authorizedIntent(on: Instance, places: number): Promise<string> {
  const created = await send(on, '/api/create-payment-intent', { amount: places / 10 });
  expect(created.status).toBe(200);
  const id = created.body.paymentIntentId as string;
  stripe.authorize(id);
  return id;
}

function resolve(on: Instance, urls: string[], paymentIntentId?: string) {
  return send(on, '/api/resolve-urls-batch', {
    urls,
    ...(paymentIntentId ? { paymentIntentId } : {}),
  });
}

function capture(on: Instance, id: string, converted: number, total: number, browser = 'me') {
  const claim = {
    paymentIntentId: id,
    actualAmount: converted / 10,
    convertedCount: converted,
    totalCount: total,
  };
  return send(on, '/api/capture-payment', claim, browser);
}

/** The captures and cancellations Stripe carried out for `id` (not replays of one). */
function settlementsOf(id: string) {
  return stripe
    .mutations()
    .filter(
      (request) =>
        (request.path === `/v1/payment_intents/${id}/capture` ||
          request.path === `/v1/payment_intents/${id}/cancel`) &&
        request.status === 200 &&
        !request.replayed,
    );
}

/** Kills Redis once and waits until the instance's health says so. */
async function killRedis(on?: Instance): Promise<void> {
  await redis.kill();
  if (on) await until(async () => (await health(on)).body.store === 'unavailable');
}

/** Kills Redis once, when the tap sees the first Stripe request that `matches` (before it passes). */
function killRedisWhen(matches: (request: TappedRequest) => boolean): void {
  tap.before = async (request) => {
    if (!matches(request)) return;
    tap.before = () => undefined;
    await killRedis();
  };
}

/** Starts Redis again and waits until the instance uses it. */
async function restartRedis(on: Instance): Promise<void> {
  await redis.restart();
  await until(async () => (await health(on)).body.status === 'ok');
}

/** 503 `store_unavailable` with `Retry-After`: the answer of a route that needs shared state. */
function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status, answer.path).toBe(503);
  expect(errorOf(answer).code).toBe('store_unavailable');
  expect(answer.retryAfter).toMatch(/^\d+$/);
}

describe('Redis stopped', () => {
  it('pages, settings and health answer; money routes answer 503; all returns by itself', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    expect(Object.keys((await resolve(a, placeLinks(6), id)).body.results as object)).toHaveLength(
      6,
    );

    await killRedis(a);
    expect((await health(a)).body).toEqual({ ok: true, status: 'degraded', store: 'unavailable' });
    const page = await send(a, '/');
    expect(page.status).toBe(200);
    expect((await send(a, '/api/config')).status).toBe(200);
    expect((await send(a, '/no/such/page')).status).toBe(404);

    expectStoreUnavailable(await send(a, '/api/create-payment-intent', { amount: 1 }));
    expectStoreUnavailable(await resolve(a, placeLinks(2)));
    expectStoreUnavailable(await resolve(a, placeLinks(2, 6), id));
    // Refused by its rate limit, which cannot count it: closed, before the body is even read.
    expectStoreUnavailable(await capture(a, id, 6, 20));
    expectStoreUnavailable(await send(a, `/api/payments/${id}`));
    expect(stripe.paymentIntent(id)?.status).toBe('requires_capture');

    await restartRedis(a);
    expect((await health(a)).body).toEqual({ ok: true, status: 'ok', store: 'redis' });
    expect((await send(a, `/api/payments/${id}`)).body).toMatchObject({
      status: 'open',
      placesResolved: 6,
    });
    // Nothing was lost: the server's count of 6 is charged, once.
    const captured = await capture(a, id, 0, 20);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 0.6, reference: id });
    expect(settlementsOf(id)).toHaveLength(1);
    expect((await send(a, '/api/create-payment-intent', { amount: 1 })).status).toBe(200);
  });

  it('during a resolve: 503, then the same batch again resolves for free and is charged once', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    const links = placeLinks(5);
    beforeNextLookup(killRedis);
    expectStoreUnavailable(await resolve(a, links, id));

    await restartRedis(a);
    const again = await resolve(a, links, id);
    expect(again.status).toBe(200);
    expect(Object.keys(again.body.results as object)).toHaveLength(5);
    // Counted once against the allowance (the retry of counted links is free).
    expect(await admin.scard(redisKeys.links(id))).toBe(5);
    const captured = await capture(a, id, 0, 20);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 0.5 });
    expect(settlementsOf(id)).toHaveLength(1);
  });

  it('during a capture, before Stripe captured: 503 with the reference, then one capture', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    await resolve(a, placeLinks(7), id);
    // The capture's re-read of the intent: before any money moves.
    killRedisWhen(({ method, path }) => method === 'GET' && path === `/v1/payment_intents/${id}`);
    const refused = await capture(a, id, 7, 20);
    expectStoreUnavailable(refused);
    expect(errorOf(refused).message).toContain(id);
    expect(settlementsOf(id)).toHaveLength(0);

    await restartRedis(a);
    const captured = await capture(a, id, 7, 20);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ amountCaptured: 0.7, reference: id });
    expect(settlementsOf(id)).toHaveLength(1);
  });

  it('during a capture, as Stripe captures: the receipt, and a repeat returns it without a second charge', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    await resolve(a, placeLinks(7), id);
    killRedisWhen(
      ({ method, path }) => method === 'POST' && path === `/v1/payment_intents/${id}/capture`,
    );
    // The money moved: the answer is the receipt, even though the store could not record it.
    const captured = await capture(a, id, 7, 20);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 0.7, reference: id });

    await until(async () => (await health(a)).body.store === 'unavailable');
    expectStoreUnavailable(await capture(a, id, 7, 20));
    await restartRedis(a);
    const repeated = await capture(a, id, 7, 20);
    expect(repeated.status).toBe(200);
    expect(repeated.body).toEqual(captured.body);
    expect(settlementsOf(id)).toHaveLength(1);
  });
});

describe('Redis hung', () => {
  it('health, settings and pages answer without waiting on it; money routes 503; all returns by itself', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    redis.pause();
    // Connections stay open and nothing answers: only a command timing out tells it is hung.
    await until(async () => (await health(a)).body.store === 'unavailable');

    // From then on nothing waits on Redis: money routes answer 503 while it is still frozen…
    expectStoreUnavailable(await send(a, `/api/payments/${id}`));
    expectStoreUnavailable(await resolve(a, placeLinks(3), id));
    // …and health, settings and pages answer as usual.
    expect((await health(a)).body).toEqual({ ok: true, status: 'degraded', store: 'unavailable' });
    expect((await send(a, '/api/config')).status).toBe(200);
    expect((await send(a, '/')).status).toBe(200);

    redis.resume();
    await until(async () => (await health(a)).body.store === 'redis');
    expect((await send(a, `/api/payments/${id}`)).body).toMatchObject({ status: 'open' });
  });
});

describe('Redis frozen as a capture marks its payment settling', () => {
  it('the mark, written when Redis wakes after the capture answered 503, stops lookups for minutes, not days', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    expect((await resolve(a, placeLinks(3), id)).status).toBe(200);
    // Frozen as the capture re-reads the intent: its next command, the settling mark, times out.
    tap.before = async ({ method, path }) => {
      if (method !== 'GET' || path !== `/v1/payment_intents/${id}`) return;
      tap.before = () => undefined;
      redis.pause();
    };
    const refused = await capture(a, id, 3, 20);
    expectStoreUnavailable(refused);
    redis.resume();
    await until(async () => (await health(a)).body.store === 'redis');
    // The timed-out write ran once Redis woke: the payment is still open at Stripe, but marked.
    const key = redisKeys.verdict(id);
    expect(JSON.parse((await admin.get(key))!)).toEqual({ status: 'settling', places: 20 });
    expect(stripe.paymentIntent(id)?.status).toBe('requires_capture');
    const left = await admin.pttl(key);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(SETTLING_MARK_TTL_MS);
    expect((await resolve(a, placeLinks(2, 3), id)).status).toBe(402);

    // Once the mark is gone, the next lookup asks Stripe, which says the payment is open.
    await admin.pexpire(key, 1);
    await until(async () => (await admin.exists(key)) === 0);
    const batch = await resolve(a, placeLinks(2, 3), id);
    expect(batch.status).toBe(200);
    expect(await admin.scard(redisKeys.resolved(id))).toBe(5);
    const captured = await capture(a, id, 5, 20);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 0.5 });
  });
});

describe('Redis failing between the steps of a paid batch', () => {
  /**
   * Takes one command away from every client of this test's Redis (they all log in as the
   * `default` user), as a Redis dying between two calls of a batch would; `allow` gives it back.
   */
  const deny = (command: string) => admin.call('ACL', 'SETUSER', 'default', `-${command}`);
  const allow = (command: string) => admin.call('ACL', 'SETUSER', 'default', `+${command}`);
  const resolvedCount = (id: string) => admin.scard(redisKeys.resolved(id));
  /** An instance and a payment of 20 places that has resolved 3. */
  const paidWithThree = async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    return { a, id, first: await resolve(a, placeLinks(3), id) };
  };

  it('a batch whose places were counted answers with them, though its use could not be recorded', async () => {
    const { a, id, first } = await paidWithThree();
    expect(first.status).toBe(200);
    // SADD (the count) still works; HSET (the time of use) fails.
    await deny('hset');
    try {
      const batch = await resolve(a, placeLinks(4, 3), id);
      expect(batch.status).toBe(200);
      expect(Object.keys(batch.body.results as object)).toEqual(placeLinks(4, 3));
    } finally {
      await allow('hset');
    }
    // Capture charges these 7: the client got every one of them.
    expect(await resolvedCount(id)).toBe(7);
  });

  it('a batch whose places could not be counted answers 503 and counts none; sent again it is counted', async () => {
    const { a, id } = await paidWithThree();
    const links = placeLinks(4, 3);
    // The links are counted against the allowance before the lookup; adding the places fails.
    beforeNextLookup(async () => {
      await deny('sadd');
    });
    try {
      expectStoreUnavailable(await resolve(a, links, id));
    } finally {
      await allow('sadd');
    }
    expect(await resolvedCount(id)).toBe(3);
    const again = await resolve(a, links, id);
    expect(again.status).toBe(200);
    expect(await resolvedCount(id)).toBe(7);
  });

  it('a batch whose payment started settling while it was looked up is refused and adds nothing', async () => {
    const { a, id } = await paidWithThree();
    beforeNextLookup(async () => {
      // What a capture on another instance does first; it reads the count after this.
      const settling = JSON.stringify({ status: 'settling', places: 20 });
      await admin.set(redisKeys.verdict(id), settling, 'PX', 60_000);
    });
    const refused = await resolve(a, placeLinks(4), id);
    expect(refused.status).toBe(402);
    expect(errorOf(refused).code).toBe('payment_not_authorized');
    expect(refused.body.results).toBeUndefined();
    expect(await resolvedCount(id)).toBe(3);
  });

  it('a counted batch whose kept verdict was lost answers, though Stripe cannot be asked again', async () => {
    const { a, id } = await paidWithThree();
    beforeNextLookup(async () => {
      await admin.del(redisKeys.verdict(id));
      // Every try of the check that follows the count (the SDK retries twice).
      stripe.failNext(3, 500, { type: 'api_error', message: 'Stripe is down' });
    });
    const failedBefore = stripe.requests.filter((request) => request.status === 500).length;
    const batch = await resolve(a, placeLinks(4, 3), id);
    expect(batch.status).toBe(200);
    expect(Object.keys(batch.body.results as object)).toHaveLength(4);
    expect(await resolvedCount(id)).toBe(7);
    // The check was tried and failed every time (none of the failures is left for later tests).
    expect(stripe.requests.filter((request) => request.status === 500)).toHaveLength(
      failedBefore + 3,
    );
  });

  it('a counted batch whose kept verdict was lost is refused when Stripe says the payment was cancelled', async () => {
    const { a, id } = await paidWithThree();
    beforeNextLookup(async () => {
      await admin.del(redisKeys.verdict(id));
      // Cancelled elsewhere (the Dashboard, say): its places will never be charged.
      const cancelled = await fetch(`${stripe.url}/v1/payment_intents/${id}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stripe.secretKey}` },
      });
      expect(cancelled.status).toBe(200);
    });
    const refused = await resolve(a, placeLinks(4), id);
    expect(refused.status).toBe(402);
    expect(errorOf(refused).code).toBe('payment_not_authorized');
  });
});

describe('Redis refusing writes', () => {
  it('out of memory: health says so, writes answer 503, and it is healthy again once a write succeeds', async () => {
    const lines: string[] = [];
    const logger = { level: 'info', stream: { write: (line: string) => lines.push(line) } };
    const a = await instance({ logger });
    const id = await authorizedIntent(a, 20);
    expect((await resolve(a, placeLinks(3), id)).status).toBe(200);
    // Under noeviction every write is now refused (OOM); reads still answer.
    await admin.config('SET', 'maxmemory', '1');
    expectStoreUnavailable(await resolve(a, placeLinks(2, 3), id));
    expect((await health(a)).body).toEqual({ ok: true, status: 'degraded', store: 'unavailable' });
    expectStoreUnavailable(await resolve(a, placeLinks(2, 3), id));
    expect((await send(a, '/api/config')).status).toBe(200);

    await admin.config('SET', 'maxmemory', '0');
    // A request lets one probe write through; once it succeeds the store is healthy again.
    await until(async () => {
      await resolve(a, placeLinks(2, 3), id);
      return (await health(a)).body.status === 'ok';
    });
    expect((await resolve(a, placeLinks(2, 3), id)).status).toBe(200);
    const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(
      messages.filter((msg) => msg.startsWith('shared state (Redis) unavailable')),
    ).toHaveLength(1);
    expect(messages.filter((msg) => msg === 'shared state (Redis) is back')).toHaveLength(1);
  });
});

describe('Redis restarted without persistence', () => {
  /** Replaces this file's Redis with one that persists nothing, as a misconfigured one would. */
  async function forgetfulRedis(): Promise<void> {
    await redis.stop();
    redis = await startRedis();
    admin.disconnect();
    admin = adminOf(redis);
  }

  it("forgets every key, yet the payer's capture succeeds: the intent's metadata names them", async () => {
    await forgetfulRedis();
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    expect((await resolve(a, placeLinks(7), id)).status).toBe(200);
    await send(a, '/api/create-payment-intent', { amount: 1 }, 'stranger');

    await killRedis(a);
    await restartRedis(a);
    expect(await admin.dbsize()).toBeLessThan(5);
    expect(await admin.get(redisKeys.payer(id))).toBeNull();

    // Another browser with a valid cookie is still refused: the intent names its payer.
    expect((await capture(a, id, 7, 20, 'stranger')).status).toBe(404);
    expect(await admin.get(redisKeys.payer(id))).toBeNull();
    const captured = await capture(a, id, 7, 20);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 0.7, reference: id });
    expect(await admin.get(redisKeys.payer(id))).toBe(stripe.paymentIntent(id)!.metadata.payer);
    expect(settlementsOf(id)).toHaveLength(1);
  });

  it('still counts the places the intent says were resolved against the allowance', async () => {
    await forgetfulRedis();
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    expect((await resolve(a, placeLinks(15), id)).status).toBe(200);
    // What the intent heard of them (the usage report, once a minute while lookups go on).
    stripe.paymentIntent(id)!.metadata.resolved = '15';

    await killRedis(a);
    await restartRedis(a);
    expect(await admin.dbsize()).toBeLessThan(5);
    // 5 of its 20 places are left, not 20 again (money audit: 70 lookups on a 40-place payment).
    const over = await resolve(a, placeLinks(6, 15), id);
    expect(over.status).toBe(403);
    expect(errorOf(over).code).toBe('link_allowance_used');
    expect((await resolve(a, placeLinks(5, 15), id)).status).toBe(200);
    expect(errorOf(await resolve(a, placeLinks(1, 20), id)).code).toBe('link_allowance_used');
    const captured = await capture(a, id, 20, 20);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 2 });
    expect(settlementsOf(id)).toHaveLength(1);
  });

  it('is reported loudly at start, as is a Redis that may evict', async () => {
    const lines: string[] = [];
    const logger = { level: 'error', stream: { write: (line: string) => lines.push(line) } };
    await instance({ logger });
    // This file's Redis persists (AOF) and never evicts (the default policy): nothing to say.
    expect(lines.filter((line) => line.includes('unsafe for payments'))).toEqual([]);

    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await admin.config('SET', 'appendonly', 'no');
    await instance({ logger });
    const problems = lines
      .filter((line) => line.includes('unsafe for payments'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('maxmemory-policy is allkeys-lru');
    expect(problems[1]).toContain('Redis does not persist');

    // RDB snapshots alone: a crash goes back to the last one, a capture made since included.
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'save', '3600 1');
    lines.length = 0;
    await instance({ logger });
    const snapshots = lines
      .filter((line) => line.includes('unsafe for payments'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(snapshots).toEqual([expect.stringContaining('RDB snapshots alone lose every write')]);
  });
});

/** `count` abandoned PlacePort authorizations of 20 places, last used two hours ago. */
function seedAbandoned(count: number, resolved: (index: number) => number): string[] {
  const lastUsed = String(Math.floor(Date.now() / 1000) - 2 * 60 * 60);
  return stripe
    .seedIntents(count, {
      amount: 200,
      metadata: (index) => ({
        product: 'placeport',
        places: '20',
        payer: 'x',
        resolved: String(resolved(index)),
        last_used: lastUsed,
      }),
    })
    .map((intent) => intent.id);
}

/** Every intent is settled (captured or cancelled), each by exactly one Stripe call. */
function expectSettledOnce(ids: string[]): void {
  for (const id of ids) {
    expect(stripe.paymentIntent(id)?.status, id).not.toBe('requires_capture');
    expect(settlementsOf(id), id).toHaveLength(1);
  }
}

describe('the settlement sweep and Redis faults', () => {
  it('Redis stopped mid-sweep: the sweep stops, the process stays up, the next round settles the rest once', async () => {
    const ids = seedAbandoned(6, (index) => [5, 0, 6, 1, 7, 2][index]!);
    let settled = 0;
    tap.before = async ({ method, path }) => {
      if (method === 'POST' && /\/(capture|cancel)$/.test(path) && ++settled === 2) {
        await killRedis();
      }
    };
    const a = await instance();
    const first = await a.app.settlement.sweep();
    expect(first).toMatchObject({ ran: true, stopped: true, failed: 1 });
    expect(first.captured + first.cancelled).toBe(2);
    expect((await health(a)).body.status).toBe('degraded');

    tap.before = () => undefined;
    await restartRedis(a);
    // The lease this instance could not release is its own: it takes it again at once.
    const second = await a.app.settlement.sweep();
    expect(second).toMatchObject({ ran: true, stopped: false, failed: 0 });
    expect(second.captured + second.cancelled).toBe(4);
    expectSettledOnce(ids);
  });

  it('two instances on one Redis, one killed mid-sweep: the other settles every abandoned authorization once', async () => {
    const ids = seedAbandoned(8, (index) => (index % 2 === 0 ? 5 + index : 0));
    const leaseMs = 1_000;
    let settledByA = 0;
    let killA = () => {};
    // A dies (its Redis connection cut, as a killed process's is) right after its second settlement.
    const stream = {
      write(line: string) {
        if (!/settlement: (captured|authorization cancelled)/.test(line)) return;
        if (++settledByA === 2) killA();
      },
    };
    const a = await instance({
      settlement: { auto: false, leaseMs },
      logger: { level: 'info', stream },
    });
    killA = () => (a.app.state as RedisStateStore).client.disconnect();
    const b = await instance({ settlement: { auto: false, leaseMs } });

    const byA = await a.app.settlement.sweep();
    expect(byA).toMatchObject({ ran: true, stopped: true });
    expect(byA.captured + byA.cancelled).toBe(2);
    await a.app.close();

    // A's lease outlives it: B waits its turn, then sweeps.
    let byB = await b.app.settlement.sweep();
    while (!byB.ran) {
      await new Promise((resolve) => setTimeout(resolve, leaseMs / 4));
      byB = await b.app.settlement.sweep();
    }
    expect(byB).toMatchObject({ stopped: false, failed: 0 });
    expect(byB.captured + byB.cancelled).toBe(6);
    expectSettledOnce(ids);
  });
});

describe("the sweep's lease", () => {
  const LEASE = redisKeys.lease('settlement');
  /** Long enough that a stalled machine cannot let it lapse between two renewals. */
  const leaseMs = 3_000;

  /** Holds the first capture at the tap until `release()`; `arrived` resolves when it is held. */
  function holdFirstCapture() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    tap.before = async ({ method, path }) => {
      if (method !== 'POST' || !path.endsWith('/capture')) return;
      tap.before = () => undefined;
      arrived();
      await released;
    };
    return { held, release };
  }

  it('is renewed while a long sweep runs, and given back at its end', async () => {
    const ids = seedAbandoned(3, () => 6);
    const capture = holdFirstCapture();
    const a = await instance({ settlement: { auto: false, leaseMs } });
    const b = await instance({ settlement: { auto: false, leaseMs } });
    const sweeping = a.app.settlement.sweep();
    await capture.held;
    // Watch the lease's time go up again and again: renewed, more than one lease time over.
    let renewals = 0;
    let last = await admin.pttl(LEASE);
    await until(async () => {
      const left = await admin.pttl(LEASE);
      if (left > last) renewals += 1;
      last = left;
      return renewals > 3;
    });
    expect((await b.app.settlement.sweep()).ran).toBe(false);

    capture.release();
    expect(await sweeping).toMatchObject({ ran: true, stopped: false, captured: 3 });
    expect(await admin.exists(LEASE)).toBe(0);
    expectSettledOnce(ids);
  });

  it('stops the sweep before its next authorization when another instance holds it', async () => {
    const ids = seedAbandoned(4, () => 6);
    const capture = holdFirstCapture();
    const lines: string[] = [];
    const a = await instance({
      settlement: { auto: false, leaseMs },
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    const sweeping = a.app.settlement.sweep();
    await capture.held;
    // Its lease lapsed while it hung, say, and another instance took it.
    await admin.set(LEASE, 'another-instance', 'PX', 60_000);
    await until(() => lines.some((line) => line.includes('another instance holds the lease')));

    capture.release();
    // The capture under way completes (once); nothing more is settled, and the lease stays theirs.
    expect(await sweeping).toMatchObject({ ran: true, stopped: true, captured: 1, failed: 0 });
    expect(await admin.get(LEASE)).toBe('another-instance');
    expect(ids.filter((id) => settlementsOf(id).length === 1)).toHaveLength(1);
    expect(
      ids.filter((id) => stripe.paymentIntent(id)?.status === 'requires_capture'),
    ).toHaveLength(3);
  });
});

describe('usage writes with Redis', () => {
  it('keeps no payments to write at shutdown: their counts are in Redis, which outlives the process', async () => {
    const a = await instance();
    const id = await authorizedIntent(a, 20);
    expect((await resolve(a, placeLinks(3), id)).status).toBe(200);
    stripe.clearRequests();
    // A payment another instance settles would never have left the list (soak audit).
    await a.app.payments.usage.flush(() => undefined, 5_000);
    expect(stripe.mutations()).toEqual([]);
  });
});
