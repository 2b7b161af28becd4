import { cidFromFtid } from '@placeport/converter/internal';
import { coordinatesForCid } from '@placeport/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYMENT_CALL_TIMEOUT_MS } from '@placeport/contract';
import {
  STRIPE_CALL_LIMIT_MS,
  STRIPE_NETWORK_RETRIES,
  STRIPE_TIMEOUT_MS,
} from '../src/payments/stripe-provider.js';
import { ftidFor, startStack, takeoutLink, type Stack } from './support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ stripe: true });
});
afterAll(() => stack.close());
beforeEach(() => stack.stripe!.clearRequests());

const fake = () => stack.stripe!;

async function authorizedIntent(amount: number): Promise<string> {
  const created = await stack.post('/api/create-payment-intent', { amount });
  expect(created.status).toBe(200);
  const id = created.body.paymentIntentId as string;
  fake().authorize(id);
  return id;
}

describe('payments through the stripe SDK and the fake Stripe API', () => {
  it('creates a manual-capture intent for the maximum, recording places and product', async () => {
    const created = await stack.post('/api/create-payment-intent', { amount: 1.2 });
    const intent = fake().paymentIntent(created.body.paymentIntentId as string);
    expect(created.body.clientSecret).toBe(intent?.client_secret);
    expect(intent).toMatchObject({
      amount: 120,
      currency: 'usd',
      capture_method: 'manual',
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      metadata: { places: '12', product: 'placeport', payer: expect.any(String) },
      status: 'requires_payment_method',
    });
    expect(fake().requests[0]?.headers.authorization).toBe(`Bearer ${fake().secretKey}`);
  });

  it('captures amount_to_capture for the converted places, with an idempotency key bound to the intent', async () => {
    const id = await authorizedIntent(1.2);
    fake().clearRequests();
    const captured = await stack.post('/api/capture-payment', {
      paymentIntentId: id,
      actualAmount: 0.8,
      convertedCount: 8,
      totalCount: 12,
    });
    expect(captured).toMatchObject({
      status: 200,
      body: { cancelled: false, amountCaptured: 0.8 },
    });
    expect(fake().paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 80 });
    const [read, capture] = fake().requests;
    expect(read).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${id}` });
    expect(capture).toMatchObject({
      method: 'POST',
      path: `/v1/payment_intents/${id}/capture`,
      body: { amount_to_capture: '80' },
      idempotencyKey: expect.stringMatching(new RegExp(`^placeport-capture-${id}-80-h\\d+$`)),
    });
  });

  it('cancels the authorization when nothing was converted', async () => {
    const id = await authorizedIntent(0.6);
    const response = await stack.post('/api/capture-payment', {
      paymentIntentId: id,
      actualAmount: 0,
      convertedCount: 0,
      totalCount: 6,
    });
    expect(response.body).toMatchObject({ cancelled: true, amountCaptured: 0 });
    expect(fake().paymentIntent(id)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
    });
    expect(fake().mutations().at(-1)?.idempotencyKey).toMatch(
      new RegExp(`^placeport-cancel-${id}-h\\d+$`),
    );
  });

  it('returns the first result for a repeated capture, with no second capture at Stripe', async () => {
    const id = await authorizedIntent(1.2);
    const claim = { paymentIntentId: id, actualAmount: 0.8, convertedCount: 8, totalCount: 12 };
    const [first, second] = await Promise.all([
      stack.post('/api/capture-payment', claim),
      stack.post('/api/capture-payment', claim),
    ]);
    expect(first.body).toEqual(second.body);
    expect(first.body).toMatchObject({ cancelled: false, amountCaptured: 0.8 });
    const third = await stack.post('/api/capture-payment', claim);
    expect(third.body).toEqual(first.body);
    expect(
      fake()
        .mutations()
        .filter((request) => request.path.endsWith('/capture')),
    ).toHaveLength(1);
  });

  it('two instances capturing one intent at once with different claims charge once; the later is told what was captured', async () => {
    const id = await authorizedIntent(2);
    // What each instance read before capturing: the intent still open.
    const open = await stack.app.payments.retrieve(id, () => {});
    expect(open.status).toBe('requires_capture');
    const first = await stack.app.payments.captureOrCancel(
      open,
      () => 20,
      () => {},
    );
    expect(first.receipt).toMatchObject({ cancelled: false, amountCaptured: 2 });
    // The other instance's capture of 12 places, from the same stale read: another amount, so
    // another key; Stripe refuses it as captured already, and the answer says what was charged
    // (it was a key reused with other parameters, 409 payment_conflict, when the key had no amount).
    await expect(
      stack.app.payments.captureOrCancel(
        open,
        () => 12,
        () => {},
      ),
    ).rejects.toMatchObject({ code: 'already_captured', fields: { amountCaptured: 2 } });
    const captures = fake()
      .mutations()
      .filter((request) => request.path.endsWith('/capture'));
    expect(captures.map((request) => request.idempotencyKey?.replace(/-h\d+$/, ''))).toEqual([
      `placeport-capture-${id}-200`,
      `placeport-capture-${id}-120`,
    ]);
    expect(fake().paymentIntent(id)).toMatchObject({ status: 'succeeded', amount_received: 200 });
  });

  it('maps Stripe outages to a clear 503 with Retry-After, without Stripe internals', async () => {
    fake().failNext(3, 500, {
      type: 'api_error',
      message: 'Internal Stripe failure #42 on shard x',
    });
    const response = await stack.post('/api/create-payment-intent', { amount: 1.2 });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(response.body).toEqual({
      error: {
        code: 'payment_provider_unavailable',
        message: 'The payment provider could not be reached. Please try again in a moment.',
      },
    });
  });

  it('gives up on a Stripe call before the page gives up on the server, so the page hears the 503', () => {
    // Three tries of 7 s and the SDK's pauses: 22.5 s, inside the page's 30 s with room for the
    // request's store calls (at 15 s a try it took 46 s, and the page said it had no answer).
    expect(STRIPE_CALL_LIMIT_MS).toBe((STRIPE_NETWORK_RETRIES + 1) * STRIPE_TIMEOUT_MS + 1_500);
    expect(STRIPE_CALL_LIMIT_MS).toBeLessThanOrEqual(PAYMENT_CALL_TIMEOUT_MS - 5_000);
  });

  it('answers a capture while Stripe is down with a 503 quoting the reference; a retry captures once', async () => {
    const created = await stack.post('/api/create-payment-intent', { amount: 1.2 });
    const id = created.body.paymentIntentId as string;
    fake().authorize(id);
    const claim = { paymentIntentId: id, actualAmount: 0.8, convertedCount: 8, totalCount: 12 };
    // The SDK tries three times (two network retries): every one fails.
    fake().failNext(3, 500, { type: 'api_error', message: 'Stripe is down' });
    const down = await stack.post('/api/capture-payment', claim);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    const error = down.body.error as { code: string; message: string };
    expect(error.code).toBe('payment_provider_unavailable');
    expect(error.message).toContain(id);
    expect(error.message).not.toContain('Stripe is down');
    expect(fake().paymentIntent(id)?.status).toBe('requires_capture');

    const again = await stack.post('/api/capture-payment', claim);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ amountCaptured: 0.8, reference: id });
    const captures = fake()
      .mutations()
      .filter((request) => request.path === `/v1/payment_intents/${id}/capture`);
    expect(captures.filter((request) => request.status === 200 && !request.replayed)).toHaveLength(
      1,
    );
  });

  it('a 500 Stripe saved under the capture key holds the retries for the hour at most, then one captures', async () => {
    let now = Date.UTC(2026, 10, 28, 9, 10);
    const own = await startStack({ stripe: true, config: { now: () => now } });
    try {
      const created = await own.post('/api/create-payment-intent', { amount: 1.2 });
      const id = created.body.paymentIntentId as string;
      own.stripe!.authorize(id);
      const claim = { paymentIntentId: id, actualAmount: 0.8, convertedCount: 8, totalCount: 12 };
      // An error inside Stripe's endpoint, which Stripe replays under the key for 24 hours.
      own.stripe!.failNext(
        1,
        500,
        { type: 'api_error', message: 'boom' },
        { savedUnderKey: true, pathEndsWith: '/capture' },
      );
      expect((await own.post('/api/capture-payment', claim)).status).toBe(503);
      // Within the hour the same request gets the saved 500, and nothing is captured.
      now += 20 * 60_000;
      expect((await own.post('/api/capture-payment', claim)).status).toBe(503);
      expect(own.stripe!.paymentIntent(id)?.status).toBe('requires_capture');
      // In the next hour it is a request of its own: captured, once.
      now += 40 * 60_000;
      const settled = await own.post('/api/capture-payment', claim);
      expect(settled).toMatchObject({ status: 200, body: { amountCaptured: 0.8, reference: id } });
      const captured = own
        .stripe!.mutations()
        .filter((request) => request.path.endsWith('/capture') && request.status === 200);
      expect(captured).toHaveLength(1);
      expect(own.stripe!.paymentIntent(id)).toMatchObject({ amount_received: 80 });
    } finally {
      await own.close();
    }
  });

  it('answers an unknown intent with a clear 404, reading it once and changing nothing', async () => {
    fake().clearRequests();
    const missing = await stack.post('/api/capture-payment', {
      paymentIntentId: 'pi_doesNotExist',
      actualAmount: 0.5,
      convertedCount: 5,
      totalCount: 12,
    });
    expect(missing).toMatchObject({
      status: 404,
      body: {
        error: {
          code: 'payment_not_found',
          message: 'No payment with this reference was made in this browser.',
        },
      },
    });
    // The store has no payer for it: the intent itself is asked (it does not exist).
    expect(fake().requests.map((request) => `${request.method} ${request.status}`)).toEqual([
      'GET 404',
    ]);
  });

  it('lets a paid batch resolve up to its place count, to the exact generated coordinates', async () => {
    const id = await authorizedIntent(0.5);
    const links = Array.from({ length: 5 }, (_, i) => takeoutLink(ftidFor(300 + i)));
    const { status, body } = await stack.post('/api/resolve-urls-batch', {
      urls: links,
      paymentIntentId: id,
    });
    expect(status).toBe(200);
    const results = body.results as Record<string, string>;
    links.forEach((link, i) => {
      const point = coordinatesForCid(cidFromFtid(ftidFor(300 + i))!);
      expect(results[link]).toContain(`query=${point.lat},${point.lng}`);
    });
  });

  it('refuses resolution for an intent that is not authorized', async () => {
    const created = await stack.post('/api/create-payment-intent', { amount: 0.5 });
    const response = await stack.post('/api/resolve-urls-batch', {
      urls: Array.from({ length: 5 }, (_, i) => takeoutLink(ftidFor(400 + i))),
      paymentIntentId: created.body.paymentIntentId,
    });
    expect(response.status).toBe(402);
    expect((response.body.error as { code: string }).code).toBe('payment_not_authorized');
  });
});
