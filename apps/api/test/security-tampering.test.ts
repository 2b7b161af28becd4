import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support.js';

let stack: Stack;
const fake = () => stack.stripe!;

beforeAll(async () => {
  stack = await startStack({ stripe: true });
});
afterAll(() => stack.close());

/** A fresh $1.20 (12 places) intent, authorized in the "browser". */
async function authorized(): Promise<string> {
  const created = await stack.post('/api/create-payment-intent', { amount: 1.2 });
  const id = created.body.paymentIntentId as string;
  fake().authorize(id);
  return id;
}

/** Sends a request and proves it changed nothing at Stripe: no POST reached it, no intent moved. */
async function refusedWithoutSideEffect(
  path: string,
  body: unknown,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  const before = fake().mutations().length;
  const statuses = fake()
    .paymentIntents()
    .map((intent) => `${intent.id}:${intent.status}:${intent.amount_received}`);
  const response = await stack.post(path, body);
  expect(response.status).toBe(status);
  const error = response.body.error as { code: string; message: string; limit?: number };
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(10);
  expect(fake().mutations()).toHaveLength(before);
  expect(
    fake()
      .paymentIntents()
      .map((intent) => `${intent.id}:${intent.status}:${intent.amount_received}`),
  ).toEqual(statuses);
  return error;
}

type Claim = {
  paymentIntentId: string;
  actualAmount: unknown;
  convertedCount: unknown;
  totalCount: unknown;
};

describe('tampering with capture claims: refused with a clear error and no Stripe side effect', () => {
  const claim = (id: string, patch: Partial<Claim>): Claim => ({
    paymentIntentId: id,
    actualAmount: 0.8,
    convertedCount: 8,
    totalCount: 12,
    ...patch,
  });

  it.each<[string, Partial<Claim>, number, string]>([
    ['amount one cent over', { actualAmount: 0.81 }, 400, 'amount_mismatch'],
    ['amount one cent under', { actualAmount: 0.79 }, 400, 'amount_mismatch'],
    ['amount for more places than converted', { actualAmount: 1.2 }, 400, 'amount_mismatch'],
    ['fraction of a cent', { actualAmount: 0.8000001 }, 400, 'invalid_amount'],
    ['negative amount', { actualAmount: -0.8, convertedCount: 8 }, 400, 'amount_mismatch'],
    ['negative count', { actualAmount: -0.8, convertedCount: -8 }, 400, 'invalid_request'],
    [
      'huge amount',
      { actualAmount: 1e12, convertedCount: 1e13, totalCount: 1e13 },
      400,
      'count_mismatch',
    ],
    ['absurd amount', { actualAmount: 1e308 }, 400, 'invalid_amount'],
    [
      'converted more than total',
      { actualAmount: 1.3, convertedCount: 13, totalCount: 12 },
      400,
      'invalid_counts',
    ],
    ['total that is not the paid count', { totalCount: 20 }, 400, 'count_mismatch'],
    ['fractional count', { actualAmount: 0.85, convertedCount: 8.5 }, 400, 'invalid_request'],
    ['amount as text', { actualAmount: '0.80' }, 400, 'invalid_request'],
    ['count as text', { convertedCount: '8' }, 400, 'invalid_request'],
  ])('%s', async (_name, patch, status, code) => {
    const id = await authorized();
    await refusedWithoutSideEffect('/api/capture-payment', claim(id, patch), status, code);
    expect(fake().paymentIntent(id)?.status).toBe('requires_capture');
  });

  it('an extra field (e.g. a price of our choosing)', async () => {
    const id = await authorized();
    await refusedWithoutSideEffect(
      '/api/capture-payment',
      { ...claim(id, {}), pricePerPlace: 0.01 },
      400,
      'invalid_request',
    );
  });

  it('a wrong intent id', async () => {
    await refusedWithoutSideEffect(
      '/api/capture-payment',
      claim('pi_notOurs123', {}),
      404,
      'payment_not_found',
    );
  });

  it('a malformed intent id', async () => {
    await refusedWithoutSideEffect(
      '/api/capture-payment',
      claim('../v1/charges', {}),
      400,
      'invalid_request',
    );
  });

  // Refused before Stripe is asked: no browser of PlacePort's ever made it.
  it('an intent another product created on the same account', async () => {
    const foreign = fake().createIntent({
      amount: '120',
      currency: 'usd',
      capture_method: 'manual',
    });
    fake().authorize(foreign.id);
    await refusedWithoutSideEffect(
      '/api/capture-payment',
      claim(foreign.id, {}),
      404,
      'payment_not_found',
    );
  });

  it('an intent that was never authorized', async () => {
    const created = await stack.post('/api/create-payment-intent', { amount: 1.2 });
    await refusedWithoutSideEffect(
      '/api/capture-payment',
      claim(created.body.paymentIntentId as string, {}),
      409,
      'payment_not_authorized',
    );
  });

  it('a replayed capture with other numbers', async () => {
    const id = await authorized();
    const first = await stack.post('/api/capture-payment', claim(id, {}));
    expect(first.body).toMatchObject({ cancelled: false, amountCaptured: 0.8 });
    const refused = await refusedWithoutSideEffect(
      '/api/capture-payment',
      claim(id, { actualAmount: 1.2, convertedCount: 12 }),
      409,
      'already_captured',
    );
    expect(refused).toEqual({
      code: 'already_captured',
      message: 'This payment was already captured ($0.80); it cannot be captured again.',
      amountCaptured: 0.8,
    });
    const same = await stack.post('/api/capture-payment', claim(id, {}));
    expect(same.body).toEqual(first.body);
    expect(fake().paymentIntent(id)?.amount_received).toBe(80);
  });

  it('a capture of a cancelled intent', async () => {
    const id = await authorized();
    const cancelled = await stack.post(
      '/api/capture-payment',
      claim(id, { actualAmount: 0, convertedCount: 0 }),
    );
    expect(cancelled.body).toMatchObject({ cancelled: true, amountCaptured: 0 });
    await refusedWithoutSideEffect('/api/capture-payment', claim(id, {}), 409, 'payment_cancelled');
  });

  it('a capture after Stripe expired the authorization (7 days)', async () => {
    const id = await authorized();
    fake().advanceClock(7 * 24 * 60 * 60 * 1000);
    await refusedWithoutSideEffect('/api/capture-payment', claim(id, {}), 409, 'payment_cancelled');
    fake().advanceClock(-7 * 24 * 60 * 60 * 1000);
  });
});

describe('tampering with intent creation: refused before Stripe is called', () => {
  it.each<[string, unknown, string]>([
    ['a cent off a whole place', { amount: 1.21 }, 'invalid_amount'],
    ['a half place', { amount: 0.85 }, 'invalid_amount'],
    ['zero', { amount: 0 }, 'invalid_amount'],
    ['negative', { amount: -1.2 }, 'invalid_amount'],
    ['under the minimum', { amount: 0.4 }, 'below_minimum_charge'],
    ['over the maximum', { amount: 10_000.1 }, 'too_many_places'],
    ['absurd', { amount: 1e308 }, 'invalid_amount'],
    ['text', { amount: '1.20' }, 'invalid_request'],
    ['a chosen place count', { amount: 1.2, places: 1 }, 'invalid_request'],
  ])('%s', async (_name, body, code) => {
    const before = fake().requests.length;
    const response = await stack.post('/api/create-payment-intent', body);
    expect(response.status).toBe(400);
    expect((response.body.error as { code: string }).code).toBe(code);
    expect(fake().requests).toHaveLength(before);
  });
});
