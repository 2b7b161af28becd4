/**
 * Stripe calls are bounded by the run, not by its batches: a payment is checked with Stripe once
 * and the verdict kept in the state store until its status can change; the resolved count and the
 * time of use live in the store and reach the intent's metadata at capture, in the settlement
 * sweep, and at most once a minute of the app's clock while lookups go on. Counted through the
 * fake Stripe's request log; time is the app's injected clock, moved by the tests, never waited
 * for.
 */
import {
  startRedis,
  type FakeGoogle,
  type FakeStripe,
  type RecordedStripeRequest,
  type RedisServerHandle,
} from '@placeport/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_LIFETIME_MS } from '../src/payments/service.js';
import { USAGE_REPORT_INTERVAL_MS } from '../src/payments/usage.js';
import { MemoryStateStore } from '../src/state/index.js';
import {
  CookieJars,
  ftidFor,
  listenFromSettings,
  redisEnv,
  startFakes,
  startStack,
  stripeEnv,
  takeoutLink,
  type Instance,
  type Stack,
} from './support.js';

/** A clock that moves only when told; the app's and the memory store's. */
function manualClock() {
  let now = Date.now();
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Distinct place links without coordinates: each is looked up on the fake Google. */
function lookups(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => takeoutLink(ftidFor(from + i)));
}

/** `GET pi`, `POST pi`, `POST pi/capture`…: what a request did to the intent `id`. */
function kindOf(request: RecordedStripeRequest, id: string): string {
  return `${request.method} ${request.path.replace(`/v1/payment_intents/${id}`, 'pi')}`;
}

/** The usage writes (metadata updates) the fake Stripe received for `id`. */
function usageWrites(stripe: FakeStripe, id: string): RecordedStripeRequest[] {
  return stripe.requests.filter((request) => kindOf(request, id) === 'POST pi');
}

/** The `metadata[resolved]` a usage write sent. */
function writtenCount(request: RecordedStripeRequest): string | undefined {
  return (request.body.metadata as Record<string, string> | undefined)?.resolved;
}

/** POSTs JSON to an API at `url` as one browser: its payer cookie kept between requests. */
function poster(url: string) {
  const jars = new CookieJars();
  return async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jars.header() },
      body: JSON.stringify(body),
    });
    jars.keep('me', response.headers.getSetCookie());
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** A Stripe-mode stack on a clock the test moves, the memory store on the same clock. */
async function stripeStack() {
  const clock = manualClock();
  stack = await startStack({
    stripe: true,
    config: { now: clock.now, state: new MemoryStateStore({ clock }) },
  });
  return { stack, stripe: stack.stripe!, clock };
}

async function authorizedIntent(on: Stack, places: number): Promise<string> {
  const created = await on.post('/api/create-payment-intent', { amount: places / 10 });
  expect(created.status).toBe(200);
  const id = created.body.paymentIntentId as string;
  on.stripe!.authorize(id);
  return id;
}

const errorCode = (answer: { body: Record<string, unknown> }) =>
  (answer.body.error as { code?: string } | undefined)?.code;

describe('Stripe calls of a paid run', () => {
  it('100 resolve batches make at most 5 Stripe calls besides create and capture', async () => {
    const { stack, stripe, clock } = await stripeStack();
    const id = await authorizedIntent(stack, 1_000);
    stripe.clearRequests();
    // A run of 100 seconds: 100 batches of 10 lookups, one a second.
    for (let batch = 0; batch < 100; batch += 1) {
      const answer = await stack.post('/api/resolve-urls-batch', {
        urls: lookups(10, batch * 10),
        paymentIntentId: id,
      });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.results as object)).toHaveLength(10);
      clock.advance(1_000);
    }
    const captured = await stack.post('/api/capture-payment', {
      paymentIntentId: id,
      actualAmount: 0,
      convertedCount: 0,
      totalCount: 1_000,
    });
    // The server's count, kept in the store, is what is charged.
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 100 });

    const calls = stripe.requests.map((request) => kindOf(request, id));
    expect(calls.filter((call) => call !== 'POST pi/capture').length).toBeLessThanOrEqual(5);
    // One check; one usage write a minute into the run; at capture the re-read, the usage the
    // intent had not heard of yet, and the capture.
    expect(calls).toEqual(['GET pi', 'POST pi', 'GET pi', 'POST pi', 'POST pi/capture']);
    expect(usageWrites(stripe, id).map((request) => request.body.metadata)).toEqual([
      { resolved: '610', last_used: String(Math.floor((clock.now() - 40_000) / 1000)) },
      { resolved: '1000', last_used: String(Math.floor((clock.now() - 1_000) / 1000)) },
    ]);
    expect(stripe.paymentIntent(id)).toMatchObject({
      status: 'succeeded',
      amount_received: 10_000,
    });
  });

  it('writes the usage at most once a minute of the app clock, counted from the first lookup', async () => {
    const { stack, stripe, clock } = await stripeStack();
    const id = await authorizedIntent(stack, 100);
    const resolve = async (from: number) => {
      const answer = await stack.post('/api/resolve-urls-batch', {
        urls: lookups(5, from),
        paymentIntentId: id,
      });
      expect(answer.status).toBe(200);
    };
    const start = clock.now();
    await resolve(0);
    clock.advance(USAGE_REPORT_INTERVAL_MS - 1);
    await resolve(5);
    expect(usageWrites(stripe, id)).toHaveLength(0);
    clock.advance(1);
    await resolve(10);
    expect(usageWrites(stripe, id).map((request) => request.body.metadata)).toEqual([
      { resolved: '15', last_used: String(Math.floor((start + USAGE_REPORT_INTERVAL_MS) / 1000)) },
    ]);
    clock.advance(USAGE_REPORT_INTERVAL_MS - 1);
    await resolve(15);
    expect(usageWrites(stripe, id)).toHaveLength(1);
    clock.advance(1);
    await resolve(20);
    expect(usageWrites(stripe, id).map(writtenCount)).toEqual(['15', '25']);
  });

  it('writes the usage of an authorization still in use in the sweep, once, and leaves it open', async () => {
    const { stack, stripe } = await stripeStack();
    const id = await authorizedIntent(stack, 100);
    await stack.post('/api/resolve-urls-batch', { urls: lookups(7), paymentIntentId: id });
    expect(usageWrites(stripe, id)).toHaveLength(0);
    expect(await stack.app.settlement.sweep()).toMatchObject({ waiting: 1, captured: 0 });
    expect(usageWrites(stripe, id).map(writtenCount)).toEqual(['7']);
    // The intent is up to date now: the next sweep writes nothing.
    await stack.app.settlement.sweep();
    expect(usageWrites(stripe, id)).toHaveLength(1);
    expect(stripe.paymentIntent(id)?.status).toBe('requires_capture');
  });

  it('checks once for the first batches of a run sent at once', async () => {
    const { stack, stripe } = await stripeStack();
    const id = await authorizedIntent(stack, 100);
    stripe.clearRequests();
    const batches = await Promise.all(
      [0, 10, 20, 30, 40].map((from) =>
        stack.post('/api/resolve-urls-batch', { urls: lookups(10, from), paymentIntentId: id }),
      ),
    );
    expect(batches.map((batch) => batch.status)).toEqual([200, 200, 200, 200, 200]);
    expect(stripe.requests.map((request) => kindOf(request, id))).toEqual(['GET pi']);
  });

  it('asks Stripe again until the payment is authorized, then no more', async () => {
    const { stack, stripe } = await stripeStack();
    const created = await stack.post('/api/create-payment-intent', { amount: 1 });
    const id = created.body.paymentIntentId as string;
    stripe.clearRequests();
    const resolve = (from: number) =>
      stack.post('/api/resolve-urls-batch', { urls: lookups(2, from), paymentIntentId: id });
    expect(errorCode(await resolve(0))).toBe('payment_not_authorized');
    expect(errorCode(await resolve(0))).toBe('payment_not_authorized');
    expect(stripe.requests.map((request) => kindOf(request, id))).toEqual(['GET pi', 'GET pi']);
    stripe.authorize(id);
    expect((await resolve(0)).status).toBe(200);
    expect((await resolve(2)).status).toBe(200);
    expect(stripe.requests).toHaveLength(3);
  });

  it('refuses lookups after capture without asking Stripe', async () => {
    const { stack, stripe } = await stripeStack();
    const id = await authorizedIntent(stack, 10);
    await stack.post('/api/resolve-urls-batch', { urls: lookups(5), paymentIntentId: id });
    const claim = { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 10 };
    expect((await stack.post('/api/capture-payment', claim)).status).toBe(200);
    stripe.clearRequests();
    const after = await stack.post('/api/resolve-urls-batch', {
      urls: lookups(1, 5),
      paymentIntentId: id,
    });
    expect(after.status).toBe(402);
    expect(errorCode(after)).toBe('payment_not_authorized');
    // A repeated capture re-reads the intent and answers the first result.
    expect((await stack.post('/api/capture-payment', claim)).body).toMatchObject({
      amountCaptured: 0.5,
    });
    expect(stripe.requests.map((request) => kindOf(request, id))).toEqual(['GET pi']);
  });

  it('learns of a cancellation made elsewhere at the next usage write, and refuses the batches after it', async () => {
    const { stack, stripe, clock } = await stripeStack();
    const id = await authorizedIntent(stack, 100);
    const resolve = (from: number) =>
      stack.post('/api/resolve-urls-batch', { urls: lookups(2, from), paymentIntentId: id });
    expect((await resolve(0)).status).toBe(200);
    // Cancelled in the Dashboard, say: not through this server.
    const cancelled = await fetch(`${stripe.url}/v1/payment_intents/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}` },
    });
    expect(cancelled.status).toBe(200);
    stripe.clearRequests();
    clock.advance(USAGE_REPORT_INTERVAL_MS);
    // The kept verdict lets this batch start and count its places, so it is answered; its usage
    // write answers the intent as it is now, cancelled, and the next batch is refused.
    expect((await resolve(2)).status).toBe(200);
    expect(errorCode(await resolve(4))).toBe('payment_not_authorized');
    expect(stripe.requests.map((request) => kindOf(request, id))).toEqual(['POST pi']);
  });

  it("keeps an authorization no longer than Stripe's 7 days", async () => {
    const { stack, stripe, clock } = await stripeStack();
    const id = await authorizedIntent(stack, 100);
    expect(
      (await stack.post('/api/resolve-urls-batch', { urls: lookups(2), paymentIntentId: id }))
        .status,
    ).toBe(200);
    stripe.advanceClock(AUTHORIZATION_LIFETIME_MS);
    clock.advance(AUTHORIZATION_LIFETIME_MS);
    stripe.clearRequests();
    const expired = await stack.post('/api/resolve-urls-batch', {
      urls: lookups(2, 2),
      paymentIntentId: id,
    });
    expect(errorCode(expired)).toBe('payment_not_authorized');
    expect(stripe.requests.map((request) => kindOf(request, id))).toEqual(['GET pi']);
    expect(stripe.paymentIntent(id)?.status).toBe('canceled');
  });
});

describe('the settlement sweep after an API restart, with the Redis store', () => {
  let redis: RedisServerHandle;
  let google: FakeGoogle;
  let stripe: FakeStripe;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    ({ google, stripe } = await startFakes());
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await redis?.stop();
    await google?.close();
    await stripe?.close();
  });

  /** One API process as server.ts would build it from these settings, on the test's clock. */
  function instance(now: () => number): Promise<Instance> {
    return listenFromSettings(
      apps,
      { ...redisEnv(redis.url), MAPS_UPSTREAM_ORIGIN: google.url, ...stripeEnv(stripe) },
      { now },
    );
  }

  it('settles an abandoned authorization for the count the store kept, never written to Stripe before', async () => {
    const clock = manualClock();
    const first = await instance(clock.now);
    const post = poster(first.url);
    const created = await post('/api/create-payment-intent', { amount: 5 });
    const id = created.body.paymentIntentId as string;
    stripe.authorize(id);
    for (const from of [0, 10, 20]) {
      const batch = await post('/api/resolve-urls-batch', {
        urls: lookups(10, 5_000 + from),
        paymentIntentId: id,
      });
      expect(Object.keys(batch.body.results as object)).toHaveLength(10);
    }
    // The run was short: the intent never heard of its 30 places. Then the page and the API go.
    expect(stripe.paymentIntent(id)?.metadata.resolved).toBeUndefined();
    await first.app.close();

    clock.advance(2 * 60 * 60_000);
    const second = await instance(clock.now);
    const report = await second.app.settlement.sweep();
    expect(report).toMatchObject({ ran: true, captured: 1, failed: 0 });
    expect(stripe.paymentIntent(id)).toMatchObject({
      status: 'succeeded',
      amount_received: 300,
      metadata: { resolved: '30' },
    });
  });
});

describe('a graceful restart with the memory store (operations audit)', () => {
  let google: FakeGoogle;
  let stripe: FakeStripe;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    ({ google, stripe } = await startFakes());
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await google?.close();
    await stripe?.close();
  });

  it('writes the places counted for a payment to its intent before the store goes, so the next process charges them', async () => {
    const clock = manualClock();
    const env = { MAPS_UPSTREAM_ORIGIN: google.url, ...stripeEnv(stripe) };
    const first = await listenFromSettings(apps, env, { now: clock.now });
    const post = poster(first.url);
    const created = await post('/api/create-payment-intent', { amount: 1 });
    const id = created.body.paymentIntentId as string;
    stripe.authorize(id);
    for (const from of [0, 4]) {
      const batch = await post('/api/resolve-urls-batch', {
        urls: lookups(from === 0 ? 4 : 6, 7_000 + from),
        paymentIntentId: id,
      });
      expect(Object.keys(batch.body.results as object)).toHaveLength(from === 0 ? 4 : 6);
    }
    // A run shorter than the report interval: the intent has not heard of its 10 places.
    expect(stripe.paymentIntent(id)?.metadata.resolved).toBeUndefined();
    // A deploy: the process is stopped gracefully, and its memory store goes with it.
    await first.app.close();
    expect(stripe.paymentIntent(id)?.metadata.resolved).toBe('10');

    clock.advance(2 * 60 * 60_000);
    const second = await listenFromSettings(apps, env, { now: clock.now });
    const report = await second.app.settlement.sweep();
    expect(report).toMatchObject({ ran: true, captured: 1, failed: 0 });
    // 10 places looked up, $1.00 charged (the sweep cancelled the hold, $0, before).
    expect(stripe.paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 100 });
  });
});
