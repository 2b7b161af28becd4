import type { FastifyInstance } from 'fastify';
import { startFakeGoogle, type FakeGoogle } from '@placeport/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { MemoryStateStore } from '../src/state/index.js';
import { PAYER_COOKIE, SECURE_PAYER_COOKIE } from '../src/http/payer.js';
import { IDEMPOTENCY_KEY_PERIOD_MS } from '../src/payments/service.js';
import {
  CookieJars,
  googleEnv,
  placeLinks,
  settingsFor,
  startStack,
  UNLIMITED,
  type Stack,
} from './support.js';

let stack: Stack | undefined;
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  for (const app of apps.splice(0)) await app.close();
});

const fake = () => stack!.stripe!;

/** A Stripe-mode intent for `places`, created and authorized by browser `me`. */
async function authorized(places: number, browser = 'me'): Promise<string> {
  const created = await stack!.post('/api/create-payment-intent', { amount: places / 10 }, browser);
  const id = created.body.paymentIntentId as string;
  fake().authorize(id);
  return id;
}

/**
 * The browser's capture of `id`: `converted` of `total` places, its amount at $0.10 a place (the
 * server checks that; what it charges is its own to decide).
 */
function captureClaim(id: string, converted: number, total: number) {
  return stack!.post('/api/capture-payment', {
    paymentIntentId: id,
    actualAmount: converted / 10,
    convertedCount: converted,
    totalCount: total,
  });
}

const captures = () =>
  fake()
    .mutations()
    .filter((request) => request.path.endsWith('/capture'));
const cancels = () =>
  fake()
    .mutations()
    .filter((request) => request.path.endsWith('/cancel'));

describe('only the payer acts on a payment', () => {
  it('sets an HttpOnly, SameSite=Strict payer cookie on /api over http', async () => {
    stack = await startStack({ stripe: true, env: { TRUST_PROXY: '1' } });
    const plain = await stack.post('/api/create-payment-intent', { amount: 1.2 });
    const cookie = plain.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${PAYER_COOKIE}=`))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/api/);
    expect(cookie).not.toMatch(/; Secure/);
    // The intent records only a hash of the payer, never the cookie's value.
    const value = cookie.split(';')[0]!.split('=')[1]!;
    const recorded = fake().paymentIntent(plain.body.paymentIntentId as string)!.metadata.payer!;
    expect(recorded).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(value).not.toContain(recorded);
  });

  it('over https sets a __Host- cookie (Secure, Path=/) and reads only that name', async () => {
    stack = await startStack({ stripe: true, env: { TRUST_PROXY: '1' } });
    const https = { 'x-forwarded-proto': 'https' };
    const created = await stack.post('/api/create-payment-intent', { amount: 1.2 }, 'tls', https);
    const [cookie] = created.headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^${SECURE_PAYER_COOKIE}=`));
    expect(cookie).toMatch(/; Path=\/;/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).not.toMatch(/; Domain=/i);
    const id = created.body.paymentIntentId as string;
    fake().authorize(id);
    const claim = { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 12 };
    // The same signed value under the plain name proves nothing over https (a planted cookie).
    const value = cookie!.split(';')[0]!.slice(SECURE_PAYER_COOKIE.length + 1);
    const planted = await stack.post('/api/capture-payment', claim, 'planted', {
      ...https,
      cookie: `${PAYER_COOKIE}=${value}`,
    });
    expect(planted.status).toBe(404);
    // Nor does the __Host- cookie over plain http.
    expect((await stack.post('/api/capture-payment', claim, 'tls')).status).toBe(404);
    const captured = await stack.post('/api/capture-payment', claim, 'tls', https);
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ amountCaptured: 0.5, reference: id });
  });

  it('refuses a stranger who knows the id: capture, resolve and demo authorize, with no Stripe call', async () => {
    stack = await startStack({ stripe: true });
    const id = await authorized(10);
    fake().clearRequests();
    const claim = { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 10 };
    for (const [path, body] of [
      ['/api/capture-payment', claim],
      ['/api/resolve-urls-batch', { urls: placeLinks(4), paymentIntentId: id }],
    ] as const) {
      const refused = await stack.post(path, body, 'stranger');
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({
        error: {
          code: 'payment_not_found',
          message: 'No payment with this reference was made in this browser.',
        },
      });
    }
    expect(fake().requests).toHaveLength(0);
    expect(fake().paymentIntent(id)?.status).toBe('requires_capture');
  });

  it("refuses another payer's cookie and a forged one alike", async () => {
    stack = await startStack({ stripe: true });
    const mine = await authorized(10, 'me');
    await authorized(10, 'other');
    fake().clearRequests();
    const claim = { paymentIntentId: mine, actualAmount: 0.5, convertedCount: 5, totalCount: 10 };
    expect((await stack.post('/api/capture-payment', claim, 'other')).status).toBe(404);
    const forged = stack.cookies('me').replace(/\.[^.;]+$/, '.forgedsignature');
    const withForged = await stack.post('/api/capture-payment', claim, 'nobody', {
      cookie: forged,
    });
    expect(withForged.status).toBe(404);
    expect(fake().requests).toHaveLength(0);
    expect((await stack.post('/api/capture-payment', claim, 'me')).status).toBe(200);
  });

  it('refuses a made-up id: no Stripe call without a payer cookie, a bounded number of reads with one', async () => {
    stack = await startStack({ stripe: true, config: { rateLimits: { payerChecksPerMinute: 3 } } });
    await authorized(10);
    fake().clearRequests();
    const capture = (id: string, browser: string) =>
      stack!.post(
        '/api/capture-payment',
        { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 10 },
        browser,
      );
    expect((await capture('pi_forged123', 'cookieless')).status).toBe(404);
    expect(fake().requests).toHaveLength(0);
    // With a valid cookie the intent itself is asked whose it is (the store may have lost it),
    // a few times a minute per client at most, and nothing changes at Stripe.
    for (let i = 0; i < 6; i += 1) {
      expect((await capture(`pi_3PzQxYZabcdefghijklm${i}`, 'me')).status).toBe(404);
    }
    expect(fake().requests.map((request) => request.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('bounds the Stripe reads one client causes, even through its own unauthorized intent', async () => {
    stack = await startStack({
      stripe: true,
      config: { rateLimits: { ...UNLIMITED, providerReadsPerMinute: 4 } },
    });
    const created = await stack.post('/api/create-payment-intent', { amount: 1 });
    const id = created.body.paymentIntentId as string;
    fake().clearRequests();
    const batch = () =>
      stack!.post('/api/resolve-urls-batch', { urls: placeLinks(1), paymentIntentId: id });
    // Never authorized: each batch reads the intent again (no verdict is kept before it is)…
    for (let i = 0; i < 3; i += 1) expect((await batch()).status).toBe(402);
    expect((await stack.get(`/api/payments/${id}`)).status).toBe(200);
    expect(fake().requests).toHaveLength(4);
    // …until this client's reads for the minute are spent: refused with no read.
    const refused = await batch();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'rate_limited' } });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await stack.get(`/api/payments/${id}`)).status).toBe(429);
    const claim = { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 10 };
    expect((await stack.post('/api/capture-payment', claim)).status).toBe(429);
    expect(fake().requests).toHaveLength(4);
    // Another client is not held back by it.
    const other = await startStack({
      stripe: true,
      config: { rateLimits: { ...UNLIMITED, providerReadsPerMinute: 4 } },
    });
    try {
      expect((await other.get(`/api/payments/${id}`, 'me')).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('spends one read on a paid run: its later batches use the verdict the store keeps, and its capture is never refused by the budget', async () => {
    stack = await startStack({
      stripe: true,
      config: { rateLimits: { ...UNLIMITED, providerReadsPerMinute: 2 } },
    });
    const id = await authorized(30);
    const other = await authorized(10);
    fake().clearRequests();
    for (let i = 0; i < 6; i += 1) {
      const batch = await stack.post('/api/resolve-urls-batch', {
        urls: placeLinks(5, i * 5),
        paymentIntentId: id,
      });
      expect(batch.status).toBe(200);
    }
    expect(fake().requests).toHaveLength(1);
    // Another payment's status read spends what is left (one address, several people)…
    expect((await stack.get(`/api/payments/${other}`)).status).toBe(200);
    expect((await stack.get(`/api/payments/${other}`)).status).toBe(429);
    // …and the run's capture still settles: its authorization is known, the money must move.
    const claim = { paymentIntentId: id, actualAmount: 3, convertedCount: 30, totalCount: 30 };
    expect((await stack.post('/api/capture-payment', claim)).status).toBe(200);
  });

  it('rotates PAYER_COOKIE_SECRET: the first secret signs, every listed one verifies', async () => {
    const [previous, current] = ['p'.repeat(32), 'c'.repeat(32)];
    const state = new MemoryStateStore();
    stack = await startStack({
      stripe: true,
      env: { PAYER_COOKIE_SECRET: previous },
      config: { state },
    });
    const before = await authorized(10);
    const signedWithPrevious = stack.cookies('me');
    const instance = async (secrets: string) => {
      const app = await buildApp({
        settings: settingsFor({
          PAYER_COOKIE_SECRET: secrets,
          STRIPE_SECRET_KEY: fake().secretKey,
          STRIPE_PUBLISHABLE_KEY: fake().publishableKey,
          STRIPE_API_BASE: fake().url,
        }),
        state,
        rateLimits: UNLIMITED,
      });
      apps.push(app);
      return app;
    };
    const post = (app: FastifyInstance, url: string, payload: object, cookie: string) =>
      app.inject({ method: 'POST', url, payload, headers: { cookie } });
    const rotated = await instance(`${current},${previous}`);
    const onlyCurrent = await instance(current);
    const claim = (id: string) => ({
      paymentIntentId: id,
      actualAmount: 0.5,
      convertedCount: 5,
      totalCount: 10,
    });
    // A cookie signed with the retired secret no longer verifies where only the new one is listed…
    expect(
      (await post(onlyCurrent, '/api/capture-payment', claim(before), signedWithPrevious))
        .statusCode,
    ).toBe(404);
    // …but does while the retired secret is still listed, and new cookies use the first secret.
    const created = await post(
      rotated,
      '/api/create-payment-intent',
      { amount: 1 },
      signedWithPrevious,
    );
    expect(created.statusCode).toBe(200);
    const resigned = created.cookies.find((cookie) => cookie.name === PAYER_COOKIE)!;
    const after = created.json().paymentIntentId as string;
    fake().authorize(after);
    const resignedCookie = `${PAYER_COOKIE}=${resigned.value}`;
    // The same browser (the same payer id), now under the current secret: both payments are its.
    expect(
      (await post(onlyCurrent, '/api/capture-payment', claim(after), resignedCookie)).statusCode,
    ).toBe(200);
    expect(
      (await post(rotated, '/api/capture-payment', claim(before), signedWithPrevious)).statusCode,
    ).toBe(200);
  });
});

describe("the server's count is the floor of the charge", () => {
  it('a claim of 0 after 1,000 server lookups captures 1,000 × 10 cents', async () => {
    stack = await startStack({ stripe: true });
    const id = await authorized(1_000);
    const resolved = await stack.post('/api/resolve-urls-batch', {
      urls: placeLinks(1_000),
      paymentIntentId: id,
    });
    expect(Object.keys(resolved.body.results as object)).toHaveLength(1_000);
    // The count is in the store; the intent hears of it only at capture (or a minute later).
    expect(fake().paymentIntent(id)?.metadata.resolved).toBeUndefined();
    const captured = await captureClaim(id, 0, 1_000);
    expect(captured.body).toEqual({
      cancelled: false,
      amountCaptured: 100,
      amountAuthorized: 100,
      amountReleased: 0,
      reference: id,
    });
    expect(captures().map((request) => request.body.amount_to_capture)).toEqual(['10000']);
    expect(fake().paymentIntent(id)?.metadata.resolved).toBe('1000');
  });

  it('counts only what it looked up: links that carry their pin are answered, never charged', async () => {
    stack = await startStack({ stripe: true });
    const id = await authorized(10);
    const pinned = Array.from(
      { length: 10 },
      (_, i) => `https://www.google.com/maps/place/P${i}/data=!3d${i + 1}.5!4d${i + 1}.25`,
    );
    const answered = await stack.post('/api/resolve-urls-batch', {
      urls: [...pinned, ...placeLinks(2)],
      paymentIntentId: id,
    });
    expect(Object.keys(answered.body.results as object)).toHaveLength(12);
    const captured = await captureClaim(id, 0, 10);
    // The 2 looked up are the floor: under the $0.50 minimum, so the hold is released.
    expect(captured.body).toMatchObject({ cancelled: true, amountCaptured: 0 });
    expect(fake().paymentIntent(id)?.metadata.resolved).toBe('2');
  });

  it('logs a claim below its count once, as news (info), never as a provider refusal', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    stack = await startStack({ stripe: true, config: { logger: { level: 'info', stream } } });
    const id = await authorized(10);
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(8), paymentIntentId: id });
    const claim = { paymentIntentId: id, actualAmount: 0.5, convertedCount: 5, totalCount: 10 };
    for (let i = 0; i < 3; i += 1)
      expect((await stack.post('/api/capture-payment', claim)).status).toBe(200);
    expect(captures()).toHaveLength(1);
    const logged = lines.map(
      (line) => JSON.parse(line) as { level: number; msg: string; payment?: string },
    );
    expect(logged.filter((line) => line.msg.startsWith('capture claimed'))).toEqual([
      expect.objectContaining({
        level: 30,
        payment: id,
        msg: 'capture claimed 5 places; the server resolved 8: charging 8',
      }),
    ]);
    expect(logged.some((line) => line.msg === 'payment provider refused')).toBe(false);
  });

  it('a batch still being looked up when its payment settles is refused, never answered unpaid', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const lookingUp = new Promise<void>((resolve) => (arrived = resolve));
    // Google answers only once the test lets it: the batch is mid-lookup while the capture runs.
    const gated: typeof fetch = async (input, init) => {
      arrived();
      await gate;
      return fetch(input, init);
    };
    stack = await startStack({ stripe: true, config: { fetch: gated } });
    const id = await authorized(10);
    const batch = stack.post('/api/resolve-urls-batch', {
      urls: placeLinks(10),
      paymentIntentId: id,
    });
    await lookingUp;
    const captured = await captureClaim(id, 0, 10);
    // Nothing was resolved when the count was read: the hold is released.
    expect(captured.body).toMatchObject({ cancelled: true, amountCaptured: 0 });
    release();
    const answer = await batch;
    expect(answer.status).toBe(402);
    expect(answer.body.error).toMatchObject({ code: 'payment_not_authorized' });
    expect(answer.body.results).toBeUndefined();
  });

  it('charges the claim when it is higher, capped at the authorized count', async () => {
    stack = await startStack({ stripe: true });
    const id = await authorized(20);
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(6), paymentIntentId: id });
    const captured = await captureClaim(id, 12, 20);
    expect(captured.body).toMatchObject({ amountCaptured: 1.2, amountReleased: 0.8 });
  });
});

describe('no hold is left behind: the settlement sweep', () => {
  it('captures the server count of an unused authorization, and cancels one with nothing resolved', async () => {
    let now = Date.now();
    stack = await startStack({ stripe: true, config: { now: () => now } });
    const used = await authorized(20);
    const unused = await authorized(20);
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(7), paymentIntentId: used });
    const early = await stack.app.settlement.sweep();
    expect(early).toMatchObject({ ran: true, waiting: 2, captured: 0, cancelled: 0 });
    now += 31 * 60_000;
    const report = await stack.app.settlement.sweep();
    expect(report).toMatchObject({ ran: true, captured: 1, cancelled: 1, failed: 0 });
    expect(fake().paymentIntent(used)).toMatchObject({ status: 'succeeded', amount_received: 70 });
    expect(fake().paymentIntent(unused)).toMatchObject({ status: 'canceled' });
    const hour = `h${Math.floor(now / IDEMPOTENCY_KEY_PERIOD_MS)}`;
    expect(captures().map((request) => request.idempotencyKey)).toEqual([
      `placeport-capture-${used}-70-${hour}`,
    ]);
    expect(cancels().map((request) => request.idempotencyKey)).toEqual([
      `placeport-cancel-${unused}-${hour}`,
    ]);
    // The browser's late capture gets the settled result, not a second charge.
    const late = await captureClaim(used, 7, 20);
    expect(late.body).toMatchObject({ cancelled: false, amountCaptured: 0.7 });
    expect(captures()).toHaveLength(1);
  });

  it('cancels when the server count is under the $0.50 minimum', async () => {
    let now = Date.now();
    stack = await startStack({ stripe: true, config: { now: () => now } });
    const id = await authorized(20);
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(4), paymentIntentId: id });
    now += 31 * 60_000;
    expect(await stack.app.settlement.sweep()).toMatchObject({ captured: 0, cancelled: 1 });
    expect(fake().paymentIntent(id)?.status).toBe('canceled');
  });

  it('logs a Stripe outage and settles in the next round', async () => {
    let now = Date.now();
    stack = await startStack({ stripe: true, config: { now: () => now } });
    const id = await authorized(20);
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(6), paymentIntentId: id });
    now += 31 * 60_000;
    // The search and the SDK's two retries fail: nothing is listed, nothing is settled.
    fake().failNext(3, 500, { type: 'api_error', message: 'Stripe is down' });
    expect(await stack.app.settlement.sweep()).toMatchObject({ ran: true, examined: 0 });
    expect(fake().paymentIntent(id)?.status).toBe('requires_capture');
    expect(await stack.app.settlement.sweep()).toMatchObject({ captured: 1, failed: 0 });
    expect(fake().paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 60 });
  });

  it('two sweepers at once settle each authorization once', async () => {
    let now = Date.now();
    stack = await startStack({ stripe: true, config: { now: () => now } });
    const id = await authorized(20);
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(9), paymentIntentId: id });
    const second = await buildApp({
      settings: stack.app.settings,
      state: stack.app.state,
      now: () => now,
      rateLimits: UNLIMITED,
    });
    apps.push(second);
    now += 31 * 60_000;
    const reports = await Promise.all([stack.app.settlement.sweep(), second.settlement.sweep()]);
    expect(reports.filter((report) => report.ran)).toHaveLength(1);
    expect(captures()).toHaveLength(1);
    expect(fake().paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 90 });
  });

  it('runs by itself at start and on its timer', async () => {
    stack = await startStack({ stripe: true });
    const id = await authorized(20);
    // The page's first batch: the server now knows when the payment was authorized (and used).
    await stack.post('/api/resolve-urls-batch', { urls: placeLinks(2), paymentIntentId: id });
    // A second instance on the same Stripe account and state, whose clock is 2 minutes ahead.
    const sweeper = await buildApp({
      settings: settingsFor({
        SETTLE_AFTER_MINUTES: '1',
        STRIPE_SECRET_KEY: fake().secretKey,
        STRIPE_PUBLISHABLE_KEY: fake().publishableKey,
        STRIPE_API_BASE: fake().url,
      }),
      state: stack.app.state,
      now: () => Date.now() + 2 * 60_000,
      settlement: { auto: true, intervalMs: 50 },
    });
    apps.push(sweeper);
    await expect.poll(() => fake().paymentIntent(id)?.status, { timeout: 60_000 }).toBe('canceled');
  });

  /**
   * A Stripe-mode stack on a clock the test moves, and an intent whose payment form stayed open
   * 45 minutes (past SETTLE_AFTER_MINUTES) before the person authorized it.
   */
  async function authorizedAfterFormLeftOpen() {
    const clock = { now: Date.now() };
    stack = await startStack({ stripe: true, config: { now: () => clock.now } });
    const created = await stack.post('/api/create-payment-intent', { amount: 2 });
    const id = created.body.paymentIntentId as string;
    clock.now += 45 * 60_000;
    fake().authorize(id);
    return { id, advance: (ms: number) => (clock.now += ms), sweep: stack.app.settlement.sweep };
  }

  it('measures idle time from the authorization, not the creation: a form left open is not cancelled', async () => {
    const { id, advance, sweep } = await authorizedAfterFormLeftOpen();
    // The page closed at once (no batch): the sweep's first sighting starts the idle time.
    expect(await sweep()).toMatchObject({ waiting: 1, cancelled: 0 });
    advance(29 * 60_000);
    expect(await sweep()).toMatchObject({ waiting: 1, cancelled: 0 });
    expect(fake().paymentIntent(id)?.status).toBe('requires_capture');
    advance(60_000);
    expect(await sweep()).toMatchObject({ waiting: 0, cancelled: 1 });
    expect(fake().paymentIntent(id)?.status).toBe('canceled');
  });

  it('measures idle time from the first batch after a late authorization, then from the last batch', async () => {
    const { id, advance, sweep } = await authorizedAfterFormLeftOpen();
    await stack!.post('/api/resolve-urls-batch', { urls: placeLinks(3), paymentIntentId: id });
    advance(20 * 60_000);
    await stack!.post('/api/resolve-urls-batch', { urls: placeLinks(3, 3), paymentIntentId: id });
    advance(29 * 60_000);
    expect(await sweep()).toMatchObject({ waiting: 1, captured: 0 });
    advance(60_000);
    expect(await sweep()).toMatchObject({ captured: 1 });
    expect(fake().paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 60 });
  });

  it('settles demo authorizations the same way', async () => {
    let now = Date.now();
    const jars = new CookieJars();
    const google = await startFakeGoogle();
    const app = await buildApp({
      settings: settingsFor(googleEnv(google)),
      now: () => now,
      rateLimits: UNLIMITED,
    });
    apps.push(app);
    app.addHook('onClose', () => google.close());
    const send = async (url: string, payload: unknown) => {
      const response = await app.inject({
        method: 'POST',
        url,
        payload: payload as object,
        headers: { cookie: jars.header() },
      });
      const set = response.headers['set-cookie'];
      jars.keep('me', set === undefined ? [] : Array.isArray(set) ? set : [set]);
      return response.json();
    };
    const { paymentIntentId } = await send('/api/create-payment-intent', { amount: 2 });
    await send('/api/demo/authorize', { paymentIntentId });
    await send('/api/resolve-urls-batch', { urls: placeLinks(8), paymentIntentId });
    now += 31 * 60_000;
    expect(await app.settlement.sweep()).toMatchObject({ captured: 1 });
    expect(await app.payments.retrieve(paymentIntentId, () => {})).toMatchObject({
      status: 'succeeded',
      amountReceived: 80,
    });

    // A demo form left open past the idle limit, then authorized: the idle time starts there.
    const late = await send('/api/create-payment-intent', { amount: 2 });
    now += 45 * 60_000;
    expect(await send('/api/demo/authorize', { paymentIntentId: late.paymentIntentId })).toEqual({
      status: 'requires_capture',
    });
    now += 29 * 60_000;
    expect(await app.settlement.sweep()).toMatchObject({ waiting: 1, cancelled: 0 });
    now += 60_000;
    expect(await app.settlement.sweep()).toMatchObject({ waiting: 0, cancelled: 1 });
  });
});

describe('free lookups are a small daily budget', () => {
  // Only links that need a lookup spend the budget: these tests send place links the fake Google knows.
  let google: FakeGoogle;
  beforeAll(async () => {
    google = await startFakeGoogle();
  });
  afterAll(() => google.close());

  async function freeApp(env: Record<string, string>, state = new MemoryStateStore()) {
    const app = await buildApp({
      settings: settingsFor({
        FREE_LINKS_PER_DAY: '6',
        MAPS_UPSTREAM_ORIGIN: google.url,
        ...env,
      }),
      state,
      rateLimits: UNLIMITED,
    });
    apps.push(app);
    return (urls: string[], headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') =>
      app
        .inject({
          method: 'POST',
          url: '/api/resolve-urls-batch',
          payload: { urls },
          headers,
          remoteAddress,
        })
        .then((response) => response.statusCode);
  }

  it('is spent across requests, counted over the raw list, and refused past it', async () => {
    const resolve = await freeApp({});
    expect(await resolve(placeLinks(4))).toBe(200);
    expect(await resolve([placeLinks(1)[0]!, placeLinks(1)[0]!])).toBe(200);
    expect(await resolve(placeLinks(1))).toBe(402);
    // Another address has its own budget; an IPv6 address shares its /64.
    expect(await resolve(placeLinks(4), {}, '203.0.113.8')).toBe(200);
    expect(await resolve(placeLinks(4), {}, '2001:db8:1:2::1')).toBe(200);
    expect(await resolve(placeLinks(4), {}, '2001:db8:1:2::ffff')).toBe(402);
  });

  it('is one budget across two API instances sharing their state', async () => {
    const state = new MemoryStateStore();
    const first = await freeApp({}, state);
    const second = await freeApp({}, state);
    expect(await first(placeLinks(4))).toBe(200);
    expect(await second(placeLinks(3))).toBe(402);
    expect(await second(placeLinks(2))).toBe(200);
    expect(await first(placeLinks(1))).toBe(402);
  });

  it('is one budget per client behind a proxy: ports, brackets and junk in forwarded entries', async () => {
    const resolve = await freeApp({ TRUST_PROXY: '1', DEMO_PAYMENTS: 'on' });
    const from = (entry: string) => ({ 'x-forwarded-for': entry });
    // Some proxies append the client's port: still one client, one budget.
    expect(await resolve(placeLinks(4), from('203.0.113.5:1111'))).toBe(200);
    expect(await resolve(placeLinks(3, 4), from('203.0.113.5:2222'))).toBe(402);
    expect(await resolve(placeLinks(2, 4), from('203.0.113.5'))).toBe(200);
    // A bracketed IPv6 address with a port stays in its /64.
    expect(await resolve(placeLinks(4), from('[2001:db8:1:2::1]:3333'))).toBe(200);
    expect(await resolve(placeLinks(3, 4), from('2001:db8:1:2::ffff'))).toBe(402);
    expect(await resolve(placeLinks(4), from('[2001:db8:1:3::1]:3333'))).toBe(200);
    // Whatever cannot be read as an address shares one budget.
    expect(await resolve(placeLinks(4), from('unknown'))).toBe(200);
    expect(await resolve(placeLinks(3, 4), from('_hidden'))).toBe(402);
    expect(await resolve(placeLinks(3, 4), from('999.1.1.1:80'))).toBe(402);
  });

  it.each([
    ['no TRUST_PROXY: X-Forwarded-For is ignored', {}],
    // Demo payments behind a proxy need DEMO_PAYMENTS=on (these tests are about the free tier).
    [
      'TRUST_PROXY=1: only the hop our proxy added counts',
      { TRUST_PROXY: '1', DEMO_PAYMENTS: 'on' },
    ],
    ['TRUST_PROXY as an address list', { TRUST_PROXY: '203.0.113.7', DEMO_PAYMENTS: 'on' }],
  ])('a spoofed X-Forwarded-For buys no new budget (%s)', async (_name, env) => {
    const resolve = await freeApp(env);
    let allowed = 0;
    for (let i = 0; i < 12; i += 1) {
      // The client writes any address it likes; the proxy (203.0.113.7) appends the real one.
      const spoofed = { 'x-forwarded-for': `10.0.${i}.1, 198.51.100.20` };
      if ((await resolve(placeLinks(1, i), spoofed)) === 200) allowed += 1;
    }
    expect(allowed).toBe(6);
  });
});
