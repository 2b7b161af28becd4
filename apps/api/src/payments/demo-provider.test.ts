import { StoreUnavailableError } from '../state/store.js';
import { REACHABLE_DEMO_MAX_PLACES } from '@placeport/contract';
import { describe, expect, it } from 'vitest';
import { createDemoProvider, DEMO_MAX_INTENTS } from './demo-provider.js';
import { PaymentFailure } from './provider.js';

function failureKind(action: () => unknown): Promise<string | undefined> {
  return Promise.resolve()
    .then(action)
    .then(
      () => undefined,
      (error: unknown) => (error instanceof PaymentFailure ? error.kind : 'other'),
    );
}

describe('demo payments', () => {
  it('follows requires_payment_method → requires_capture → succeeded, recording places', async () => {
    const demo = createDemoProvider();
    const created = await demo.create({ amountCents: 120, places: 12, payer: 'h' });
    expect(created.clientSecret).toMatch(new RegExp(`^${created.id}_secret_`));
    expect(await demo.retrieve(created.id)).toMatchObject({
      status: 'requires_payment_method',
      places: 12,
      product: 'placeport',
    });
    expect(demo.authorize(created.id)).toMatchObject({
      status: 'requires_capture',
      amountCapturable: 120,
    });
    const captured = await demo.capture(created.id, 80, 'k1');
    expect(captured).toMatchObject({
      status: 'succeeded',
      amountReceived: 80,
      amountCapturable: 0,
    });
  });

  it('replays a capture for the same key and refuses the key with another amount', async () => {
    const demo = createDemoProvider();
    const { id } = await demo.create({ amountCents: 120, places: 12, payer: 'h' });
    demo.authorize(id);
    await demo.capture(id, 80, 'key');
    expect(await demo.capture(id, 80, 'key')).toMatchObject({ amountReceived: 80 });
    expect(await failureKind(() => demo.capture(id, 90, 'key'))).toBe('conflict');
    expect(await failureKind(() => demo.capture(id, 80, 'other-key'))).toBe('unexpected_state');
  });

  it('applies Stripe rules: capturable ceiling, minimum, cancel states, unknown ids', async () => {
    const demo = createDemoProvider();
    const { id } = await demo.create({ amountCents: 120, places: 12, payer: 'h' });
    expect(await failureKind(() => demo.capture(id, 80, 'a'))).toBe('unexpected_state');
    demo.authorize(id);
    expect(await failureKind(() => demo.capture(id, 130, 'b'))).toBe('invalid_request');
    expect(await failureKind(() => demo.capture(id, 40, 'c'))).toBe('amount_too_small');
    expect(await demo.cancel(id, 'd')).toMatchObject({ status: 'canceled' });
    expect(await failureKind(() => demo.cancel(id, 'e'))).toBe('unexpected_state');
    expect(await failureKind(() => demo.retrieve('pi_unknown'))).toBe('not_found');
    expect(await failureKind(() => demo.create({ amountCents: 40, places: 4, payer: 'h' }))).toBe(
      'amount_too_small',
    );
  });

  it('authorizes again an intent it already authorized (a lost answer), never a settled one', async () => {
    const demo = createDemoProvider();
    const { id } = await demo.create({ amountCents: 120, places: 12, payer: 'h' });
    demo.authorize(id);
    expect(demo.authorize(id)).toMatchObject({ status: 'requires_capture', amountCapturable: 120 });
    await demo.capture(id, 80, 'k');
    expect(await failureKind(() => demo.authorize(id))).toBe('unexpected_state');
    const cancelled = await demo.create({ amountCents: 120, places: 12, payer: 'h' });
    await demo.cancel(cancelled.id, 'c');
    expect(await failureKind(() => demo.authorize(cancelled.id))).toBe('unexpected_state');
  });

  it(`keeps at most ${DEMO_MAX_INTENTS} intents, forgetting the oldest that holds no authorization`, async () => {
    const demo = createDemoProvider();
    const held = await demo.create({ amountCents: 50, places: 5, payer: 'h' });
    demo.authorize(held.id);
    const first = await demo.create({ amountCents: 50, places: 5, payer: 'h' });
    for (let i = 2; i < DEMO_MAX_INTENTS; i += 1) {
      await demo.create({ amountCents: 50, places: 5, payer: 'h' });
    }
    expect(await demo.retrieve(first.id)).toMatchObject({ id: first.id });
    await demo.create({ amountCents: 50, places: 5, payer: 'h' });
    // 10,000 new intents never evict an authorization: the sweep settles it instead.
    expect(await failureKind(() => demo.retrieve(first.id))).toBe('not_found');
    expect(await demo.retrieve(held.id)).toMatchObject({ status: 'requires_capture' });
  });

  it('refuses new intents when every kept one is an open authorization', async () => {
    const demo = createDemoProvider();
    for (let i = 0; i < DEMO_MAX_INTENTS; i += 1) {
      demo.authorize((await demo.create({ amountCents: 50, places: 5, payer: 'h' })).id);
    }
    // As the memory store says when it is full (503 store_full, try again in a few minutes), not
    // as if a payment provider could not be reached.
    const refused = demo.create({ amountCents: 50, places: 5, payer: 'h' });
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toMatchObject({ reason: 'full' });
  });

  it('covers any number of places unless given a cap', async () => {
    const places = 100_000;
    const open = createDemoProvider();
    expect(open.maxPlaces).toBeUndefined();
    const { id } = await open.create({ amountCents: places * 10, places, payer: 'h' });
    expect(await open.retrieve(id)).toMatchObject({ places, amount: places * 10 });
  });

  it(`covers at most the cap it is given (${REACHABLE_DEMO_MAX_PLACES} where others can reach it)`, async () => {
    const cap = REACHABLE_DEMO_MAX_PLACES;
    const demo = createDemoProvider({ maxPlaces: cap });
    expect(demo.maxPlaces).toBe(cap);
    await expect(
      demo.create({ amountCents: cap * 10, places: cap, payer: 'h' }),
    ).resolves.toMatchObject({ id: expect.stringMatching(/^pi_demo/) });
    expect(
      await failureKind(() =>
        demo.create({ amountCents: (cap + 1) * 10, places: cap + 1, payer: 'h' }),
      ),
    ).toBe('invalid_request');
  });

  it('records usage and lists open authorizations only', async () => {
    const demo = createDemoProvider({ now: () => 1_700_000_000_000 });
    const open = await demo.create({ amountCents: 100, places: 10, payer: 'h' });
    demo.authorize(open.id);
    await demo.create({ amountCents: 100, places: 10, payer: 'h' });
    await demo.recordUsage(open.id, { resolved: 7, lastUsed: 1_700_000_100 });
    const listed = [];
    for await (const intent of demo.openAuthorizations()) listed.push(intent);
    expect(listed).toEqual([
      expect.objectContaining({
        id: open.id,
        resolved: 7,
        lastUsed: 1_700_000_100,
        created: 1_700_000_000,
        payer: 'h',
      }),
    ]);
  });
});
