/**
 * `GET /api/payments/:id`: what became of a payment, for its payer coming back after a reload or
 * a closed tab (issue 16, "Every money outcome is shown"). Stripe mode through the fake Stripe;
 * the app's clock is injected, so the settle time is a sum, never a measured time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { placeLinks, startStack, type Stack } from './support.js';

const SETTLE_AFTER_MINUTES = 45;
const MINUTE_MS = 60_000;

let stack: Stack | undefined;
/** The app's clock (ms), moved by the tests. */
let clock = 0;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(): Promise<Stack> {
  clock = Math.floor(Date.now() / 1000) * 1000;
  stack = await startStack({
    stripe: true,
    env: { SETTLE_AFTER_MINUTES: String(SETTLE_AFTER_MINUTES) },
    config: { now: () => clock },
  });
  return stack;
}

const fake = () => stack!.stripe!;

/** A Stripe-mode intent for `places`, created by browser `me` and authorized when asked. */
async function intent(places: number, authorize = true): Promise<string> {
  const created = await stack!.post('/api/create-payment-intent', { amount: places / 10 });
  const id = created.body.paymentIntentId as string;
  if (authorize) fake().authorize(id);
  return id;
}

const capture = (id: string, converted: number, total: number) =>
  stack!.post('/api/capture-payment', {
    paymentIntentId: id,
    actualAmount: converted / 10,
    convertedCount: converted,
    totalCount: total,
  });

const NOT_YOURS = {
  error: {
    code: 'payment_not_found',
    message: 'No payment with this reference was made in this browser.',
  },
};

describe('GET /api/payments/:id, for the payer', () => {
  it('shows an open hold: the server count and when it settles (last use + SETTLE_AFTER_MINUTES)', async () => {
    await start();
    const id = await intent(20);
    expect(
      (await stack!.post('/api/resolve-urls-batch', { urls: placeLinks(4), paymentIntentId: id }))
        .status,
    ).toBe(200);
    clock += 7 * MINUTE_MS;
    const lastUse = clock;
    await stack!.post('/api/resolve-urls-batch', { urls: placeLinks(2, 4), paymentIntentId: id });
    clock += 3 * MINUTE_MS;
    const mutations = fake().mutations().length;
    const answer = await stack!.get(`/api/payments/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'open',
      amountAuthorized: 2,
      amountCaptured: 0,
      amountReleased: 0,
      reference: id,
      placesAuthorized: 20,
      placesResolved: 6,
      settlesAt: new Date(lastUse + SETTLE_AFTER_MINUTES * MINUTE_MS).toISOString(),
    });
    // A read changes nothing at Stripe.
    expect(fake().mutations()).toHaveLength(mutations);
    expect(fake().paymentIntent(id)?.status).toBe('requires_capture');
  });

  it('shows what a capture charged and released, and the server count', async () => {
    await start();
    const id = await intent(20);
    await stack!.post('/api/resolve-urls-batch', { urls: placeLinks(6), paymentIntentId: id });
    expect((await capture(id, 8, 20)).status).toBe(200);
    expect((await stack!.get(`/api/payments/${id}`)).body).toEqual({
      status: 'captured',
      amountAuthorized: 2,
      amountCaptured: 0.8,
      amountReleased: 1.2,
      reference: id,
      placesAuthorized: 20,
      placesResolved: 6,
      settlesAt: null,
    });
  });

  it('shows a cancelled hold as released in full', async () => {
    await start();
    const id = await intent(12);
    expect((await capture(id, 0, 12)).body).toMatchObject({ cancelled: true });
    expect((await stack!.get(`/api/payments/${id}`)).body).toEqual({
      status: 'cancelled',
      amountAuthorized: 1.2,
      amountCaptured: 0,
      amountReleased: 1.2,
      reference: id,
      placesAuthorized: 12,
      placesResolved: 0,
      settlesAt: null,
    });
  });

  it('shows a payment whose card was never accepted as not authorized', async () => {
    await start();
    const id = await intent(12, false);
    expect((await stack!.get(`/api/payments/${id}`)).body).toEqual({
      status: 'not_authorized',
      amountAuthorized: 1.2,
      amountCaptured: 0,
      amountReleased: 0,
      reference: id,
      placesAuthorized: 12,
      placesResolved: 0,
      settlesAt: null,
    });
  });
});

describe('GET /api/payments/:id refuses', () => {
  it("another browser's payment, a browser without a cookie and an unknown id alike (404)", async () => {
    await start();
    const id = await intent(12);
    await stack!.post('/api/create-payment-intent', { amount: 1 }, 'other');
    fake().clearRequests();
    for (const [path, browser] of [
      [`/api/payments/${id}`, 'other'],
      [`/api/payments/${id}`, 'cookieless'],
    ] as const) {
      const refused = await stack!.get(path, browser);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual(NOT_YOURS);
    }
    expect(fake().requests).toHaveLength(0);
    const unknown = await stack!.get('/api/payments/pi_doesNotExist');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_YOURS);
  });

  it('a malformed id (400)', async () => {
    await start();
    await intent(12);
    const refused = await stack!.get('/api/payments/not-a-payment');
    expect(refused.status).toBe(400);
    expect((refused.body.error as { code: string }).code).toBe('invalid_request');
  });

  it('an intent made for something else, even one naming this payer (400)', async () => {
    await start();
    const mine = await intent(12);
    const foreign = fake().createIntent({
      amount: '130',
      currency: 'usd',
      capture_method: 'manual',
      'metadata[product]': 'placeport',
      'metadata[places]': '12',
      'metadata[payer]': fake().paymentIntent(mine)!.metadata.payer!,
    });
    fake().authorize(foreign.id);
    const refused = await stack!.get(`/api/payments/${foreign.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        code: 'not_a_placeport_payment',
        message: 'This payment was not made for a PlacePort conversion.',
      },
    });
  });

  it('while Stripe is down: 503 with Retry-After, without Stripe internals', async () => {
    await start();
    const id = await intent(12);
    // The SDK tries three times (two network retries): every one fails.
    fake().failNext(3, 500, { type: 'api_error', message: 'Stripe is down' });
    const down = await stack!.get(`/api/payments/${id}`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(down.body).toEqual({
      error: {
        code: 'payment_provider_unavailable',
        message: 'The payment provider could not be reached. Please try again in a moment.',
      },
    });
    expect((await stack!.get(`/api/payments/${id}`)).body).toMatchObject({ status: 'open' });
  });
});
