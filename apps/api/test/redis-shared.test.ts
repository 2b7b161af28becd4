/**
 * architecture.md, Scale: several API instances behind a load balancer share one Redis
 * (`REDIS_URL`) for payment allowances, the server's resolved count, free budgets, the resolution
 * cache, rate-limit counters and payer bindings. Here two real instances (two `buildApp` apps, each
 * opening its own Redis connection from its settings, both listening on loopback) are driven over
 * real HTTP, with cookies kept per browser, against one redis-server, one fake Stripe and one fake
 * Google. Each check would pass on one instance alone and fails if the two kept their own state.
 */
import {
  ftidForCid,
  startRedis,
  type FakeGoogle,
  type FakeStripe,
  type RedisServerHandle,
} from '@placeport/testkit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/app.js';
import { RedisStateStore } from '../src/state/index.js';
import { redisKeys } from '../src/state/redis-store.js';
import {
  CookieJars,
  listenFromSettings,
  placeLinks,
  sharedRedisEnv,
  startFakes,
  takeoutLink,
  UNLIMITED,
  type Instance,
} from './support.js';

/** The same secret on both instances, so a payer cookie set by one is valid on the other. */
const PAYER_COOKIE_SECRET = 'two-instances-share-this-payer-cookie-secret';

let redis: RedisServerHandle;
/** A plain client beside the instances: empties the server between tests, reads what they wrote. */
let admin: Redis;
let google: FakeGoogle;
let stripe: FakeStripe;
let jars: CookieJars;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
  ({ google, stripe } = await startFakes());
});

afterAll(async () => {
  await admin?.quit();
  await redis?.stop();
  await google?.close();
  await stripe?.close();
});

beforeEach(async () => {
  // Every request comes from 127.0.0.1: rate-limit counters and free budgets start afresh.
  await admin.flushdb();
  google.clearRequests();
  stripe.clearRequests();
  jars = new CookieJars();
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Two instances configured only through settings, as two processes would be: the same `REDIS_URL`
 * (so each builds its own connection through `createStateStore`), the same payer-cookie secret,
 * one fake Stripe and one fake Google.
 */
async function twoInstances(
  env: Record<string, string> = {},
  config: Partial<AppConfig> = {},
): Promise<[Instance, Instance]> {
  const start = () =>
    listenFromSettings(
      apps,
      {
        ...sharedRedisEnv(
          redis.url,
          { google, stripe },
          { payerCookieSecret: PAYER_COOKIE_SECRET },
        ),
        ...env,
      },
      config,
    );
  return [await start(), await start()];
}

/** POSTs JSON to one instance as `browser`, sending and keeping that browser's cookies. */
async function post(on: Instance, path: string, body: unknown, browser = 'me'): Promise<Answer> {
  const cookie = jars.header(browser);
  const response = await fetch(`${on.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  jars.keep(browser, response.headers.getSetCookie());
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function get(on: Instance, path: string): Promise<Answer> {
  const response = await fetch(`${on.url}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A Stripe-mode intent for `places`, created on `on` by `browser` and authorized by its card. */
async function authorizedIntent(on: Instance, places: number, browser = 'me'): Promise<string> {
  const created = await post(on, '/api/create-payment-intent', { amount: places / 10 }, browser);
  expect(created.status).toBe(200);
  const id = created.body.paymentIntentId as string;
  stripe.authorize(id);
  return id;
}

function resolve(on: Instance, urls: string[], paymentIntentId?: string, browser = 'me') {
  return post(
    on,
    '/api/resolve-urls-batch',
    paymentIntentId === undefined ? { urls } : { urls, paymentIntentId },
    browser,
  );
}

const errorCode = (answer: Answer) => (answer.body.error as { code?: string } | undefined)?.code;
const resolvedCount = (answer: Answer) => Object.keys(answer.body.results as object).length;
const captures = () => stripe.mutations().filter((request) => request.path.endsWith('/capture'));

describe('two API instances sharing one Redis', () => {
  it('each instance opens its own connection to the one Redis server', async () => {
    const [a, b] = await twoInstances();
    expect(a.app.state).toBeInstanceOf(RedisStateStore);
    expect(b.app.state).toBeInstanceOf(RedisStateStore);
    const clientA = (a.app.state as RedisStateStore).client;
    const clientB = (b.app.state as RedisStateStore).client;
    expect(clientA).not.toBe(clientB);
    expect([clientA.options.port, clientB.options.port]).toEqual([redis.port, redis.port]);
    // The admin connection and one per instance.
    const clients = String(await admin.client('LIST'))
      .trim()
      .split('\n');
    expect(clients.length).toBeGreaterThanOrEqual(3);
  });

  it("one payment's link allowance: 6 links on A and 4 on B use it up; repeats are free anywhere", async () => {
    const [a, b] = await twoInstances();
    const id = await authorizedIntent(a, 10);
    // Links that need a lookup: only those count against a payment's allowance.
    const links = placeLinks(11);
    for (const link of links.slice(0, 6)) {
      const answer = await resolve(a, [link], id);
      expect(answer.status).toBe(200);
      expect(resolvedCount(answer)).toBe(1);
    }
    for (const link of links.slice(6, 10)) {
      const answer = await resolve(b, [link], id);
      expect(answer.status).toBe(200);
      expect(resolvedCount(answer)).toBe(1);
    }
    expect(await admin.scard(redisKeys.links(id))).toBe(10);

    // An 11th distinct link is refused on either instance.
    for (const on of [a, b]) {
      const refused = await resolve(on, [links[10]!], id);
      expect(refused.status).toBe(403);
      expect(errorCode(refused)).toBe('link_allowance_used');
    }
    // Links counted on one instance cost nothing when sent again to the other.
    const againOnB = await resolve(b, links.slice(0, 6), id);
    expect(againOnB.status).toBe(200);
    expect(resolvedCount(againOnB)).toBe(6);
    const againOnA = await resolve(a, links.slice(6, 10), id);
    expect(againOnA.status).toBe(200);
    expect(resolvedCount(againOnA)).toBe(4);
    expect(await admin.scard(redisKeys.links(id))).toBe(10);
    expect((await resolve(a, [links[10]!], id)).status).toBe(403);
  });

  it("the server's count: a capture claiming 0 on B charges the places resolved on A and B", async () => {
    const [a, b] = await twoInstances();
    const id = await authorizedIntent(a, 10);
    expect(resolvedCount(await resolve(a, placeLinks(6), id))).toBe(6);
    expect(resolvedCount(await resolve(b, placeLinks(4, 6), id))).toBe(4);
    const captured = await post(b, '/api/capture-payment', {
      paymentIntentId: id,
      actualAmount: 0,
      convertedCount: 0,
      totalCount: 10,
    });
    expect(captured.status).toBe(200);
    expect(captured.body).toEqual({
      cancelled: false,
      amountCaptured: 1,
      amountAuthorized: 1,
      amountReleased: 0,
      reference: id,
    });
    expect(captures().map((request) => request.body.amount_to_capture)).toEqual(['100']);
    expect(stripe.paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 100 });
  });

  it('one free budget: 4 free links via A leave 2 for B', async () => {
    const [a, b] = await twoInstances({ FREE_LINKS_PER_DAY: '6' });
    expect((await resolve(a, placeLinks(4))).status).toBe(200);
    const refused = await resolve(b, placeLinks(3, 4));
    expect(refused.status).toBe(402);
    expect(errorCode(refused)).toBe('free_budget_used');
    expect((await resolve(b, placeLinks(2, 4))).status).toBe(200);
    expect((await resolve(a, placeLinks(1, 6))).status).toBe(402);
  });

  it('one resolution cache: a place looked up through A is answered on B without asking Google', async () => {
    const [a, b] = await twoInstances();
    const link = takeoutLink(ftidForCid(424_242n), 'Shared Cache Cafe');
    const first = await resolve(a, [link]);
    expect(first.status).toBe(200);
    const answer = (first.body.results as Record<string, string>)[link];
    expect(answer).toMatch(/query=-?\d/);
    const upstream = google.requests.length;
    expect(upstream).toBeGreaterThan(0);

    const second = await resolve(b, [link]);
    expect(second.status).toBe(200);
    expect((second.body.results as Record<string, string>)[link]).toBe(answer);
    expect(google.requests).toHaveLength(upstream);
  });

  it('one rate-limit count: 3 requests to A and 3 to B, the 6th is refused', async () => {
    const [a, b] = await twoInstances({}, { rateLimits: { ...UNLIMITED, globalPerMinute: 5 } });
    const statuses: number[] = [];
    for (const on of [a, a, a, b, b]) statuses.push((await get(on, '/api/health')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const sixth = await get(b, '/api/health');
    expect(sixth.status).toBe(429);
    expect(errorCode(sixth)).toBe('rate_limited');
    expect((await get(a, '/api/health')).status).toBe(429);
  });

  it('the payer binding: an intent made on A is captured through B by its browser, refused to a stranger', async () => {
    const [a, b] = await twoInstances();
    const id = await authorizedIntent(a, 10, 'me');
    // The stranger holds a valid cookie of its own, set by B.
    await authorizedIntent(b, 10, 'stranger');
    stripe.clearRequests();
    const claim = { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 10 };

    const refused = await post(b, '/api/capture-payment', claim, 'stranger');
    expect(refused.status).toBe(404);
    expect(errorCode(refused)).toBe('payment_not_found');
    expect(stripe.requests).toHaveLength(0);
    expect(stripe.paymentIntent(id)?.status).toBe('requires_capture');

    const captured = await post(b, '/api/capture-payment', claim, 'me');
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ cancelled: false, amountCaptured: 0.5, reference: id });
    expect(stripe.paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 50 });
  });
});
