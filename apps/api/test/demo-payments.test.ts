/**
 * product.md, Money, "Demo payments": on loopback (the README's start command) a demo intent
 * covers any number of places, so a person's whole export converts; where other machines can reach
 * the server, demo payments run only with `DEMO_PAYMENTS=on`, and then a demo intent covers at
 * most 1,000 places. (That the server refuses to start otherwise is in config.test.ts and
 * server.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_PAYMENT_PLACES as MAX_PLACES,
  MAX_URLS_PER_CALL,
  REACHABLE_DEMO_MAX_PLACES,
} from '@placeport/contract';
import { ftidFor, startStack, takeoutLink, UNLIMITED, type Stack } from './support.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** Lookups made on the fake Google: past the old 1,000-place cap, in batches of the per-call most. */
const LOOKUPS = 2_500;

describe('demo payments on loopback', () => {
  it(`cover any number of places: a ${MAX_PLACES.toLocaleString('en-US')}-place intent is created, looks places up and captures`, async () => {
    stack = await startStack({ config: { rateLimits: UNLIMITED } });
    expect(stack.app.settings.demoPayments).toBe('loopback');
    const created = await stack.post('/api/create-payment-intent', { amount: MAX_PLACES / 10 });
    expect(created.status).toBe(200);
    const paymentIntentId = created.body.paymentIntentId as string;
    expect((await stack.post('/api/demo/authorize', { paymentIntentId })).status).toBe(200);

    for (let from = 0; from < LOOKUPS; from += MAX_URLS_PER_CALL) {
      const size = Math.min(MAX_URLS_PER_CALL, LOOKUPS - from);
      const urls = Array.from({ length: size }, (_, i) => takeoutLink(ftidFor(from + i)));
      const batch = await stack.post('/api/resolve-urls-batch', { urls, paymentIntentId });
      expect(batch.status).toBe(200);
      expect(Object.keys(batch.body.results as object)).toHaveLength(size);
    }
    expect(stack.google.requests.length).toBeGreaterThanOrEqual(LOOKUPS);

    // The browser converted every place (most carried their coordinates): all are charged.
    const captured = await stack.post('/api/capture-payment', {
      paymentIntentId,
      actualAmount: MAX_PLACES / 10,
      convertedCount: MAX_PLACES,
      totalCount: MAX_PLACES,
    });
    expect(captured.status).toBe(200);
    expect(captured.body).toEqual({
      cancelled: false,
      amountCaptured: MAX_PLACES / 10,
      amountAuthorized: MAX_PLACES / 10,
      amountReleased: 0,
      reference: paymentIntentId,
    });
    expect(await stack.app.demoPayments!.retrieve(paymentIntentId)).toMatchObject({
      status: 'succeeded',
      amountReceived: MAX_PLACES * 10,
      resolved: LOOKUPS,
    });
  });
});

describe.each([
  ['on a HOST other machines can reach', { HOST: '0.0.0.0' }],
  ['behind a trusted proxy on loopback', { HOST: '127.0.0.1', TRUST_PROXY: '1' }],
])('demo payments with DEMO_PAYMENTS=on %s', (_where, env) => {
  /** The stack listens on 127.0.0.1 whatever HOST says: only the settings differ. */
  async function reachableDemo(): Promise<Stack> {
    stack = await startStack({
      env: { ...env, DEMO_PAYMENTS: 'on' },
      config: { rateLimits: UNLIMITED },
    });
    expect(stack.app.settings.demoPayments).toBe('reachable');
    return stack;
  }

  it(`cover ${REACHABLE_DEMO_MAX_PLACES.toLocaleString('en-US')} places, the cap itself included`, async () => {
    const { post, app } = await reachableDemo();
    const created = await post('/api/create-payment-intent', {
      amount: REACHABLE_DEMO_MAX_PLACES / 10,
    });
    expect(created.status).toBe(200);
    const paymentIntentId = created.body.paymentIntentId as string;
    expect((await post('/api/demo/authorize', { paymentIntentId })).status).toBe(200);
    expect(await app.demoPayments!.retrieve(paymentIntentId)).toMatchObject({
      status: 'requires_capture',
      places: REACHABLE_DEMO_MAX_PLACES,
    });
  });

  it('refuse an intent past the cap with a message that names it', async () => {
    const { post } = await reachableDemo();
    for (const places of [REACHABLE_DEMO_MAX_PLACES + 1, MAX_PLACES]) {
      const refused = await post('/api/create-payment-intent', { amount: places / 10 });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({
        code: 'demo_limit',
        message: 'Demo payments on this server cover at most 1,000 places; choose fewer lists.',
        limit: 1000,
      });
    }
  });
});
