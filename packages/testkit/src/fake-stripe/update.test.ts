import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStripe } from './index.js';
import { createManualIntent, startFakeStripeWithClient } from '../../test/stripe-client.js';

let fake: FakeStripe;
let stripe: Stripe;

beforeEach(async () => {
  ({ fake, stripe } = await startFakeStripeWithClient());
});
afterEach(() => fake.close());

/** A manual-capture intent of 120 cents, with the API's metadata. */
function createManual() {
  return createManualIntent(stripe, 120);
}

describe('POST /v1/payment_intents/:id through the stripe SDK', () => {
  it('merges metadata and unsets a key sent empty (or null)', async () => {
    const intent = await createManual();
    const merged = await stripe.paymentIntents.update(intent.id, {
      metadata: { settled_by: 'sweep-1', places: '14' },
    });
    expect(merged.metadata).toEqual({ places: '14', product: 'placeport', settled_by: 'sweep-1' });
    expect(fake.requests.at(-1)?.body).toEqual({
      metadata: { settled_by: 'sweep-1', places: '14' },
    });

    const unset = await stripe.paymentIntents.update(intent.id, {
      metadata: { places: '', settled_by: null },
    });
    expect(unset.metadata).toEqual({ product: 'placeport' });
    expect(fake.requests.at(-1)?.body).toEqual({ metadata: { places: '', settled_by: '' } });
    expect((await stripe.paymentIntents.retrieve(intent.id)).metadata).toEqual({
      product: 'placeport',
    });
  });

  it('updates metadata in every status, as Stripe allows', async () => {
    const [unpaid, open, captured, cancelled] = await Promise.all(
      Array.from({ length: 4 }, () => createManual()),
    );
    for (const intent of [open!, captured!, cancelled!]) fake.authorize(intent.id);
    await stripe.paymentIntents.capture(captured!.id);
    await stripe.paymentIntents.cancel(cancelled!.id);
    for (const intent of [unpaid!, open!, captured!, cancelled!]) {
      const updated = await stripe.paymentIntents.update(intent.id, {
        metadata: { settled: 'yes' },
      });
      expect(updated).toMatchObject({
        status: fake.paymentIntent(intent.id)?.status,
        metadata: { settled: 'yes' },
      });
    }
    expect(
      new Set([unpaid, open, captured, cancelled].map((i) => fake.paymentIntent(i!.id)?.status)),
    ).toEqual(new Set(['requires_payment_method', 'requires_capture', 'succeeded', 'canceled']));
  });

  it('answers resource_missing for unknown ids and refuses what it does not update', async () => {
    await expect(
      stripe.paymentIntents.update('pi_doesnotexist', { metadata: { a: '1' } }),
    ).rejects.toMatchObject({ code: 'resource_missing', statusCode: 404 });
    const intent = await createManual();
    for (const params of [{ receipt_email: 'someone@example.com' }, { amount: 700 }]) {
      await expect(
        stripe.paymentIntents.update(intent.id, { ...params, metadata: { a: '1' } }),
      ).rejects.toMatchObject({ code: 'parameter_unknown', param: Object.keys(params)[0] });
    }
    await expect(stripe.paymentIntents.update(intent.id, { metadata: '' })).rejects.toMatchObject({
      param: 'metadata',
    });
    const nested = await fetch(`${fake.url}/v1/payment_intents/${intent.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}` },
      body: 'metadata[a][b]=c',
    });
    expect(nested.status).toBe(400);
    expect(await nested.json()).toMatchObject({
      error: { type: 'invalid_request_error', param: 'metadata' },
    });
    expect(fake.paymentIntent(intent.id)?.metadata).toEqual({ places: '12', product: 'placeport' });
  });

  it('replays an idempotent update and refuses the key with other parameters', async () => {
    const intent = await createManual();
    const options = { idempotencyKey: `settle-note-${intent.id}` };
    const first = await stripe.paymentIntents.update(
      intent.id,
      { metadata: { settled: 'first' } },
      options,
    );
    await stripe.paymentIntents.update(intent.id, { metadata: { settled: 'later' } });
    const replay = await stripe.paymentIntents.update(
      intent.id,
      { metadata: { settled: 'first' } },
      options,
    );
    expect(replay).toEqual(first);
    expect(fake.requests.at(-1)).toMatchObject({
      replayed: true,
      idempotencyKey: options.idempotencyKey,
    });
    expect(fake.paymentIntent(intent.id)?.metadata.settled).toBe('later'); // not applied again
    await expect(
      stripe.paymentIntents.update(intent.id, { metadata: { settled: 'other' } }, options),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('replays an error for its key, even once the request would now succeed', async () => {
    const intent = await createManual();
    const key = { idempotencyKey: `capture-${intent.id}` };
    await expect(stripe.paymentIntents.capture(intent.id, {}, key)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
    fake.authorize(intent.id);
    await expect(stripe.paymentIntents.capture(intent.id, {}, key)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
    expect(fake.requests.at(-1)?.replayed).toBe(true);
    expect(fake.paymentIntent(intent.id)?.status).toBe('requires_capture');
  });

  it('redacts metadata from what the publishable key (the browser) reads', async () => {
    const intent = await createManual();
    const query = new URLSearchParams({
      key: fake.publishableKey,
      client_secret: intent.client_secret ?? '',
    });
    const read = await fetch(`${fake.url}/v1/payment_intents/${intent.id}?${query}`);
    expect(await read.json()).toMatchObject({ id: intent.id, metadata: {} });
    expect((await stripe.paymentIntents.retrieve(intent.id)).metadata).toEqual({
      places: '12',
      product: 'placeport',
    });
  });
});
