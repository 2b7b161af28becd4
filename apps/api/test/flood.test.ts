/**
 * No payer is forgotten while their authorization is open (issue 16): a flood of payments from
 * many clients must not push a customer's payer binding out of the memory store, and a binding the
 * store lost anyway (pushed out before the server knew of the authorization) comes back from the
 * intent's own metadata. Requests go through `app.inject` behind a trusted proxy, each flood
 * client an IPv6 /64 of its own within its payment caps; nothing is timed.
 */
import { startFakeStripe, type FakeStripe } from '@placeport/testkit';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type AppConfig } from '../src/app.js';
import { MemoryStateStore } from '../src/state/index.js';
import { MEMORY_LIMITS } from '../src/state/memory-store.js';
import { CookieJars, settingsFor, stripeEnv, UNLIMITED } from './support.js';

const apps: FastifyInstance[] = [];
let stripe: FakeStripe | undefined;
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await stripe?.close();
  stripe = undefined;
});

/** Distinct links that already carry their pin: they resolve without any upstream request. */
function pinned(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) => `https://www.google.com/maps/place/P${i}/data=!3d${i + 1}.5!4d${i + 1}.25`,
  );
}

/** An app behind one trusted proxy; `send` speaks as a browser from a client address. */
async function behindProxy(env: Record<string, string>, config: Partial<AppConfig> = {}) {
  const app = await buildApp({ settings: settingsFor({ TRUST_PROXY: '1', ...env }), ...config });
  apps.push(app);
  const jars = new CookieJars();
  const send = async (from: string, url: string, payload: object, browser?: string) => {
    const options: InjectOptions = {
      method: 'POST',
      url,
      payload,
      headers: {
        'x-forwarded-for': from,
        ...(browser ? { cookie: jars.header(browser) } : {}),
      },
    };
    const response = await app.inject(options);
    if (browser) {
      const set = response.headers['set-cookie'];
      jars.keep(browser, set === undefined ? [] : Array.isArray(set) ? set : [set]);
    }
    return response;
  };
  return { app, send };
}

const VICTIM = '198.51.100.23';

type Send = Awaited<ReturnType<typeof behindProxy>>['send'];

/** The victim's paid batch of 7 places. */
function victimResolves(send: Send, id: string) {
  const batch = { urls: pinned(7), paymentIntentId: id };
  return send(VICTIM, '/api/resolve-urls-batch', batch, 'victim');
}

/**
 * `total` payments started by `clients` IPv6 /64s (each within its hourly cap of 20), in rounds
 * of concurrent requests; each must be created.
 */
async function flood(
  send: (from: string, url: string, payload: object) => Promise<{ statusCode: number }>,
  total: number,
  clients: number,
): Promise<void> {
  const from = (i: number) =>
    `2001:db8:${(i % clients).toString(16)}:1::${Math.floor(i / clients) + 1}`;
  for (let start = 0; start < total; start += 250) {
    const round = Array.from({ length: Math.min(250, total - start) }, (_, i) =>
      send(from(start + i), '/api/create-payment-intent', { amount: 1 }),
    );
    const statuses = (await Promise.all(round)).map((response) => response.statusCode);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }
}

describe('a flood of payments', () => {
  it("10,000 intents from 500 /64s: the victim's resolve and capture still succeed (demo)", async () => {
    const state = new MemoryStateStore();
    const { send } = await behindProxy({ DEMO_PAYMENTS: 'on' }, { state });
    const created = await send(VICTIM, '/api/create-payment-intent', { amount: 2 }, 'victim');
    const id = created.json().paymentIntentId as string;
    const authorized = await send(VICTIM, '/api/demo/authorize', { paymentIntentId: id }, 'victim');
    expect(authorized.statusCode).toBe(200);
    const payer = await state.payerOf(id);

    await flood(send, MEMORY_LIMITS.payments, 500);
    // The open authorization's binding was never pushed out (no fallback needed).
    expect(await state.payerOf(id)).toBe(payer);

    const resolved = await victimResolves(send, id);
    expect(resolved.statusCode).toBe(200);
    expect(Object.keys(resolved.json().results)).toHaveLength(7);
    const captured = await send(
      VICTIM,
      '/api/capture-payment',
      { paymentIntentId: id, actualAmount: 0.7, convertedCount: 7, totalCount: 20 },
      'victim',
    );
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({ cancelled: false, amountCaptured: 0.7, reference: id });
  });

  it("a binding pushed out before the server knew of the authorization comes back from the intent's metadata (Stripe)", async () => {
    stripe = await startFakeStripe();
    const state = new MemoryStateStore({ limits: { payments: 100 } });
    const { send } = await behindProxy(stripeEnv(stripe), {
      state,
      rateLimits: { ...UNLIMITED, payerChecksPerMinute: 10 },
    });
    const created = await send(VICTIM, '/api/create-payment-intent', { amount: 2 }, 'victim');
    const id = created.json().paymentIntentId as string;
    // The card is authorized in the browser, with Stripe: the server has not heard of it yet.
    stripe.authorize(id);
    await flood(send, 300, 50);
    expect(await state.payerOf(id)).toBeUndefined();

    // A stranger with a valid cookie of its own learns nothing, and restores nothing.
    await send('203.0.113.9', '/api/create-payment-intent', { amount: 1 }, 'stranger');
    const claim = { paymentIntentId: id, actualAmount: 0.7, convertedCount: 7, totalCount: 20 };
    const refused = await send('203.0.113.9', '/api/capture-payment', claim, 'stranger');
    expect(refused.statusCode).toBe(404);
    expect(await state.payerOf(id)).toBeUndefined();

    const resolved = await victimResolves(send, id);
    expect(resolved.statusCode).toBe(200);
    expect(await state.payerOf(id)).toBe(stripe.paymentIntent(id)!.metadata.payer);
    // Restored as an open authorization: a second flood no longer pushes it out.
    await flood(send, 300, 50);
    const captured = await send(VICTIM, '/api/capture-payment', claim, 'victim');
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({ amountCaptured: 0.7, reference: id });
  });

  it('bounds memory by refusing new payments (503 store_full) while all it may keep are open', async () => {
    const state = new MemoryStateStore({ limits: { payments: 2 } });
    const { send } = await behindProxy({ DEMO_PAYMENTS: 'on' }, { state, rateLimits: UNLIMITED });
    const open: string[] = [];
    for (const browser of ['a', 'b']) {
      const created = await send(VICTIM, '/api/create-payment-intent', { amount: 1 }, browser);
      const id = created.json().paymentIntentId as string;
      await send(VICTIM, '/api/demo/authorize', { paymentIntentId: id }, browser);
      open.push(id);
    }
    const refused = await send(VICTIM, '/api/create-payment-intent', { amount: 1 }, 'c');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.code).toBe('store_full');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Both open payments still work; once one settles, new payments are taken again.
    const captured = await send(
      VICTIM,
      '/api/capture-payment',
      { paymentIntentId: open[0], actualAmount: 0, convertedCount: 0, totalCount: 10 },
      'a',
    );
    expect(captured.json()).toMatchObject({ cancelled: true, reference: open[0] });
    expect((await send(VICTIM, '/api/create-payment-intent', { amount: 1 }, 'c')).statusCode).toBe(
      200,
    );
  });
});
