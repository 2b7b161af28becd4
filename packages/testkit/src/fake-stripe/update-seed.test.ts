import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTHORIZATION_LIFETIME_SECONDS, METADATA_MAX_KEYS, type FakeStripe } from './index.js';
import { createManualIntent, startFakeStripeWithClient } from '../../test/stripe-client.js';

let fake: FakeStripe;
let stripe: Stripe;

beforeEach(async () => {
  ({ fake, stripe } = await startFakeStripeWithClient());
});
afterEach(() => fake.close());

/** A manual-capture intent of 120 cents, with the API's metadata unless told other. */
function createManual(metadata?: Record<string, string>) {
  return createManualIntent(stripe, 120, metadata);
}

/** `count` metadata keys `k0`… with short values. */
function keys(count: number, prefix = 'k'): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, String(i)]));
}

describe('POST /v1/payment_intents/:id through the stripe SDK', () => {
  it('merges metadata, unsets a key sent empty (or null), and sets or unsets description', async () => {
    const intent = await createManual();
    const merged = await stripe.paymentIntents.update(intent.id, {
      metadata: { settled_by: 'sweep-1', places: '14' },
      description: 'PlacePort: 14 places',
    });
    expect(merged.metadata).toEqual({ places: '14', product: 'placeport', settled_by: 'sweep-1' });
    expect(merged.description).toBe('PlacePort: 14 places');
    expect(fake.requests.at(-1)?.body).toEqual({
      metadata: { settled_by: 'sweep-1', places: '14' },
      description: 'PlacePort: 14 places',
    });

    const unset = await stripe.paymentIntents.update(intent.id, {
      metadata: { places: '', settled_by: null },
    });
    expect(unset.metadata).toEqual({ product: 'placeport' });
    expect(unset.description).toBe('PlacePort: 14 places');
    expect(fake.requests.at(-1)?.body).toEqual({ metadata: { places: '', settled_by: '' } });

    const cleared = await stripe.paymentIntents.update(intent.id, {
      metadata: '',
      description: '',
    });
    expect(cleared).toMatchObject({ metadata: {}, description: null });
    expect((await stripe.paymentIntents.retrieve(intent.id)).metadata).toEqual({});
  });

  it('updates metadata in every status, as Stripe allows, but amount only before confirmation', async () => {
    const [open, captured, cancelled] = [
      ...fake.seedIntents(1),
      ...fake.seedIntents(1, { status: 'succeeded' }),
      ...fake.seedIntents(1, { status: 'canceled' }),
    ];
    for (const intent of [open!, captured!, cancelled!]) {
      const updated = await stripe.paymentIntents.update(intent.id, {
        metadata: { settled: 'yes' },
      });
      expect(updated).toMatchObject({ status: intent.status, metadata: { settled: 'yes' } });
    }
    for (const intent of [open!, captured!, cancelled!]) {
      await expect(stripe.paymentIntents.update(intent.id, { amount: 700 })).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'payment_intent_unexpected_state',
        param: 'amount',
      });
    }
    const unconfirmed = await createManual();
    await expect(
      stripe.paymentIntents.update(unconfirmed.id, { amount: 700 }),
    ).resolves.toMatchObject({
      amount: 700,
    });
    await expect(
      stripe.paymentIntents.update(unconfirmed.id, { amount: 49 }),
    ).rejects.toMatchObject({
      code: 'amount_too_small',
    });
  });

  it('answers resource_missing for unknown ids and refuses parameters it does not support', async () => {
    await expect(
      stripe.paymentIntents.update('pi_doesnotexist', { metadata: { a: '1' } }),
    ).rejects.toMatchObject({ code: 'resource_missing', statusCode: 404 });
    const intent = await createManual();
    await expect(
      stripe.paymentIntents.update(intent.id, { receipt_email: 'someone@example.com' }),
    ).rejects.toMatchObject({ code: 'parameter_unknown', param: 'receipt_email' });
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

    // An error is replayed too, even once the request would now succeed.
    const tooMany = { metadata: keys(METADATA_MAX_KEYS) };
    const errorKey = { idempotencyKey: `too-many-${intent.id}` };
    await expect(stripe.paymentIntents.update(intent.id, tooMany, errorKey)).rejects.toMatchObject({
      param: 'metadata',
    });
    await stripe.paymentIntents.update(intent.id, { metadata: '' });
    await expect(stripe.paymentIntents.update(intent.id, tooMany, errorKey)).rejects.toMatchObject({
      param: 'metadata',
    });
    expect(fake.requests.at(-1)?.replayed).toBe(true);
    expect(fake.paymentIntent(intent.id)?.metadata).toEqual({});
  });
});

describe("Stripe's metadata limits", () => {
  const refusal = { type: 'StripeInvalidRequestError', param: 'metadata', statusCode: 400 };

  it('allows 50 keys and refuses 51, on create and on an update that merges to 51', async () => {
    const full = await createManual(keys(50));
    expect(Object.keys(full.metadata)).toHaveLength(50);
    await expect(createManual(keys(51))).rejects.toMatchObject({
      ...refusal,
      message: "Metadata can have up to 50 keys, but you've set 51.",
    });
    await expect(
      stripe.paymentIntents.update(full.id, { metadata: { one_more: 'x' } }),
    ).rejects.toMatchObject(refusal);
    expect(Object.keys(fake.paymentIntent(full.id)!.metadata)).toHaveLength(50);
    // Unsetting one key in the same request makes room for another.
    const swapped = await stripe.paymentIntents.update(full.id, {
      metadata: { k0: '', one_more: 'x' },
    });
    expect(Object.keys(swapped.metadata)).toHaveLength(50);
    expect(swapped.metadata).toMatchObject({ one_more: 'x' });
    expect(swapped.metadata).not.toHaveProperty('k0');
  });

  it('allows keys of 40 and values of 500 characters, and refuses longer ones unchanged', async () => {
    const intent = await createManual({ ['k'.repeat(40)]: 'v'.repeat(500) });
    expect(intent.metadata['k'.repeat(40)]).toHaveLength(500);
    await expect(createManual({ ['k'.repeat(41)]: 'v' })).rejects.toMatchObject({
      ...refusal,
      message: expect.stringMatching(/^Invalid key: .* 41 characters/),
    });
    await expect(
      stripe.paymentIntents.update(intent.id, { metadata: { ok: 'yes', long: 'v'.repeat(501) } }),
    ).rejects.toMatchObject({
      ...refusal,
      message: expect.stringMatching(/^Invalid val: .* 501 characters/),
    });
    expect(fake.paymentIntent(intent.id)?.metadata).not.toHaveProperty('ok'); // nothing applied
    // Characters, not UTF-16 units: 500 emoji fit, 40 CJK characters fit in a key.
    const wide = await stripe.paymentIntents.update(intent.id, {
      metadata: { ['地'.repeat(40)]: '🍜'.repeat(500) },
    });
    expect(wide.metadata['地'.repeat(40)]).toBe('🍜'.repeat(500));
  });

  it('refuses nested metadata values sent raw', async () => {
    const intent = await createManual();
    const response = await fetch(`${fake.url}/v1/payment_intents/${intent.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.secretKey}` },
      body: 'metadata[a][b]=c',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', param: 'metadata' },
    });
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

describe('seedIntents', () => {
  it('creates 1,000 open authorizations that list and search find, without requests', async () => {
    const seeded = fake.seedIntents(1000, {
      amount: (index) => 500 + (index % 20) * 10,
      metadata: (index) => ({ product: 'placeport', places: String(50 + (index % 20)) }),
      createdSecondsAgo: 45 * 60,
    });
    expect(fake.requests).toHaveLength(0);
    expect(new Set(seeded.map((intent) => intent.id)).size).toBe(1000);
    for (const intent of seeded) {
      expect(intent).toMatchObject({
        status: 'requires_capture',
        capture_method: 'manual',
        amount_capturable: intent.amount,
        amount_received: 0,
        payment_method: 'pm_card_visa',
      });
      expect(intent.amount).toBe(Number(intent.metadata.places) * 10);
    }
    const cutoff = Math.floor(Date.now() / 1000) - 30 * 60;
    const found = await stripe.paymentIntents
      .search({
        query: `status:'requires_capture' AND metadata['product']:'placeport' AND created<${cutoff}`,
        limit: 100,
      })
      .autoPagingToArray({ limit: 2000 });
    expect(found).toHaveLength(1000);
    const listed = await stripe.paymentIntents
      .list({ created: { lt: cutoff }, limit: 100 })
      .autoPagingToArray({ limit: 2000 });
    expect(new Set(listed.map((intent) => intent.id))).toEqual(
      new Set(seeded.map((intent) => intent.id)),
    );
    // The SDK captures them as it would real ones.
    await expect(
      stripe.paymentIntents.capture(seeded[7]!.id, { amount_to_capture: 500 }),
    ).resolves.toMatchObject({ status: 'succeeded', amount_received: 500 });
  });

  it('seeds succeeded and canceled intents, and expires old authorizations (with advanceClock)', async () => {
    const [succeeded] = fake.seedIntents(1, { status: 'succeeded', amount: 900 });
    const [cancelled] = fake.seedIntents(1, {
      status: 'canceled',
      cancellationReason: 'duplicate',
    });
    const [unpaid] = fake.seedIntents(1, { status: 'requires_payment_method' });
    expect(succeeded).toMatchObject({ amount_received: 900, amount_capturable: 0 });
    expect(cancelled).toMatchObject({ cancellation_reason: 'duplicate', amount_capturable: 0 });
    expect(unpaid).toMatchObject({ payment_method: null, amount_capturable: 0 });

    const [stale] = fake.seedIntents(1, { createdSecondsAgo: AUTHORIZATION_LIFETIME_SECONDS + 60 });
    expect(await stripe.paymentIntents.retrieve(stale!.id)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'automatic',
    });

    const [fresh] = fake.seedIntents(1);
    fake.advanceClock(AUTHORIZATION_LIFETIME_SECONDS * 1000);
    const { data } = await stripe.paymentIntents.search({ query: "status:'canceled'" });
    expect(data.map((intent) => intent.id)).toContain(fresh!.id);
    expect(fake.paymentIntent(fresh!.id)).toMatchObject({ cancellation_reason: 'automatic' });
  });

  it('refuses seeds Stripe would refuse', () => {
    expect(() => fake.seedIntents(1, { amount: 40 })).toThrow(/minimum/);
    expect(() => fake.seedIntents(1, { metadata: keys(51) })).toThrow(/up to 50 keys/);
    expect(() => fake.seedIntents(-1)).toThrow(RangeError);
    expect(fake.paymentIntents()).toHaveLength(0);
  });
});
