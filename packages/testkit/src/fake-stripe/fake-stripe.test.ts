import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStripe } from './index.js';
import {
  createManualIntent,
  startFakeStripeWithClient,
  stripeClient,
} from '../../test/stripe-client.js';

let fake: FakeStripe;
let stripe: Stripe;

beforeAll(async () => {
  ({ fake, stripe } = await startFakeStripeWithClient());
});
afterAll(() => fake.close());
beforeEach(() => fake.clearRequests());

function createManual(amount?: number): Promise<Stripe.PaymentIntent> {
  return createManualIntent(stripe, amount);
}

describe('fake Stripe through the stripe SDK', () => {
  it('runs the manual-capture state machine and records form bodies', async () => {
    const created = await createManual();
    expect(created.status).toBe('requires_payment_method');
    expect(created.metadata).toEqual({ places: '12', product: 'placeport' });
    expect(fake.requests[0]?.body).toMatchObject({
      amount: '120',
      capture_method: 'manual',
      automatic_payment_methods: { enabled: 'true', allow_redirects: 'never' },
    });
    fake.authorize(created.id);
    const retrieved = await stripe.paymentIntents.retrieve(created.id);
    expect(retrieved.status).toBe('requires_capture');
    expect(retrieved.amount_capturable).toBe(120);
    const captured = await stripe.paymentIntents.capture(created.id, { amount_to_capture: 80 });
    expect(captured.status).toBe('succeeded');
    expect(captured.amount_received).toBe(80);
  });

  it('makes manual-capture intents only, as the API asks for', async () => {
    await expect(
      stripe.paymentIntents.create({ amount: 100, currency: 'usd' }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'capture_method' });
  });

  it('refuses amounts under $0.50 with amount_too_small', async () => {
    await expect(createManual(40)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'amount_too_small',
    });
    await expect(createManual(50)).resolves.toMatchObject({ amount: 50 });
  });

  it('refuses capture above amount_capturable, twice-capture and capture after cancel', async () => {
    const intent = await createManual(100);
    await expect(stripe.paymentIntents.capture(intent.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
    fake.authorize(intent.id);
    await expect(
      stripe.paymentIntents.capture(intent.id, { amount_to_capture: 101 }),
    ).rejects.toMatchObject({ code: 'amount_too_large' });
    await stripe.paymentIntents.capture(intent.id, { amount_to_capture: 100 });
    await expect(stripe.paymentIntents.capture(intent.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
    await expect(stripe.paymentIntents.cancel(intent.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });

    const other = await createManual(100);
    fake.authorize(other.id);
    const cancelled = await stripe.paymentIntents.cancel(other.id, {
      cancellation_reason: 'abandoned',
    });
    expect(cancelled.status).toBe('canceled');
    await expect(stripe.paymentIntents.capture(other.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
  });

  it('answers resource_missing with 404 for unknown ids', async () => {
    await expect(stripe.paymentIntents.retrieve('pi_doesnotexist')).rejects.toMatchObject({
      code: 'resource_missing',
      statusCode: 404,
    });
  });

  it('rejects wrong secret keys with an authentication error', async () => {
    const wrong = stripeClient(fake, 'sk_test_wrong');
    await expect(wrong.paymentIntents.retrieve('pi_x')).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
    });
  });

  it('replays the first response for a repeated idempotency key, and refuses other parameters', async () => {
    const intent = await createManual(200);
    fake.authorize(intent.id);
    const first = await stripe.paymentIntents.capture(
      intent.id,
      { amount_to_capture: 150 },
      { idempotencyKey: `capture-${intent.id}` },
    );
    const again = await stripe.paymentIntents.capture(
      intent.id,
      { amount_to_capture: 150 },
      { idempotencyKey: `capture-${intent.id}` },
    );
    expect(again).toMatchObject({ id: first.id, status: 'succeeded', amount_received: 150 });
    expect(fake.requests.at(-1)?.replayed).toBe(true);
    await expect(
      stripe.paymentIntents.capture(
        intent.id,
        { amount_to_capture: 100 },
        { idempotencyKey: `capture-${intent.id}` },
      ),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('cancels authorizations older than seven days', async () => {
    const intent = await createManual(100);
    fake.authorize(intent.id);
    fake.advanceClock(7 * 24 * 60 * 60 * 1000);
    const expired = await stripe.paymentIntents.retrieve(intent.id);
    expect(expired).toMatchObject({ status: 'canceled', cancellation_reason: 'automatic' });
  });

  it('fails injected requests without changing state', async () => {
    const intent = await createManual(100);
    fake.authorize(intent.id);
    fake.failNext(1, 500, { type: 'api_error', message: 'boom' });
    await expect(stripe.paymentIntents.capture(intent.id)).rejects.toMatchObject({
      type: 'StripeAPIError',
    });
    expect(fake.paymentIntent(intent.id)?.status).toBe('requires_capture');
  });

  it('replays a failure saved under its idempotency key, as Stripe does for an error inside an endpoint', async () => {
    const intent = await createManual(100);
    fake.authorize(intent.id);
    fake.failNext(1, 500, { type: 'api_error', message: 'boom' }, { savedUnderKey: true });
    const capture = (key: string) =>
      stripe.paymentIntents.capture(intent.id, {}, { idempotencyKey: key, maxNetworkRetries: 0 });
    await expect(capture('k1')).rejects.toMatchObject({ type: 'StripeAPIError' });
    // The same key again: the saved 500, and still nothing captured.
    await expect(capture('k1')).rejects.toMatchObject({ type: 'StripeAPIError' });
    expect(fake.paymentIntent(intent.id)?.status).toBe('requires_capture');
    expect(fake.requests.at(-1)).toMatchObject({ replayed: true, status: 500 });
    // Another key is another request: it captures.
    expect((await capture('k2')).status).toBe('succeeded');
  });
});

describe('fake Stripe from a browser', () => {
  it('confirms with the publishable key and client secret, answering CORS *', async () => {
    const intent = await createManual(300);
    const preflight = await fetch(`${fake.url}/v1/payment_intents/${intent.id}/confirm`, {
      method: 'OPTIONS',
      headers: { 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const body = new URLSearchParams({
      key: fake.publishableKey,
      client_secret: intent.client_secret ?? '',
      payment_method: 'pm_card_visa',
    });
    const confirmed = await fetch(`${fake.url}/v1/payment_intents/${intent.id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(confirmed.headers.get('access-control-allow-origin')).toBe('*');
    expect(await confirmed.json()).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 300,
    });
  });

  it('declines pm_card_chargeDeclined and refuses a wrong client secret', async () => {
    const intent = await createManual(300);
    const confirm = (clientSecret: string, method: string) =>
      fetch(`${fake.url}/v1/payment_intents/${intent.id}/confirm`, {
        method: 'POST',
        body: new URLSearchParams({
          key: fake.publishableKey,
          client_secret: clientSecret,
          payment_method: method,
        }),
      });
    const declined = await confirm(intent.client_secret ?? '', 'pm_card_chargeDeclined');
    expect(declined.status).toBe(402);
    expect(await declined.json()).toMatchObject({ error: { code: 'card_declined' } });
    const wrong = await confirm(`${intent.id}_secret_wrong`, 'pm_card_visa');
    expect(wrong.status).toBe(401);
    expect(fake.paymentIntent(intent.id)?.status).toBe('requires_payment_method');
  });
});
