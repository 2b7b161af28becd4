import { describe, expect, it } from 'vitest';
import { createStateStore } from './index.js';
import { MemoryStateStore } from './memory-store.js';
import { CONTRACT_START, describeStateStoreContract } from '../../test/store-contract.js';
import { PAYMENT_STATE_TTL_MS, StoreUnavailableError } from './store.js';

/** A clock that moves only when told. */
function manualClock(start = CONTRACT_START) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describeStateStoreContract('memory', async () => {
  const clock = manualClock();
  return {
    store: new MemoryStateStore({ clock }),
    time: { kind: 'clock', advance: clock.advance },
  };
});

describe('MemoryStateStore bounds', () => {
  const place = (lat: number) => ({ coordinates: { lat, lng: 0.5 }, placeId: undefined });

  it('drops the least recently used place past its cap', async () => {
    const cache = new MemoryStateStore({ limits: { places: 2 } }).placeCache();
    await cache.set('a', place(1));
    await cache.set('b', place(2));
    await cache.get('a');
    await cache.set('c', place(3));
    expect(await cache.get('a')).toEqual(place(1));
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('c')).toEqual(place(3));
  });

  it('forgets the oldest payment past its cap (it starts afresh, never refused more)', async () => {
    const store = new MemoryStateStore({ limits: { payments: 2 } });
    await store.reserveLinks('pi_1', ['a'], 1);
    await store.reserveLinks('pi_2', ['a'], 1);
    await store.reserveLinks('pi_3', ['a'], 1);
    expect(await store.reserveLinks('pi_2', ['b'], 1)).toEqual({ ok: false, remaining: 0 });
    expect(await store.reserveLinks('pi_1', ['b'], 1)).toEqual({ ok: true, newlyCounted: 1 });
  });

  it("caps the keys of all payments' sets together, the oldest payment's going first", async () => {
    const store = new MemoryStateStore({ limits: { paymentKeys: 10 } });
    const keys = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    expect(await store.reserveLinks('pi_1', keys('a', 6), 100)).toEqual({
      ok: true,
      newlyCounted: 6,
    });
    expect(await store.reserveLinks('pi_2', keys('b', 4), 100)).toEqual({
      ok: true,
      newlyCounted: 4,
    });
    // At the cap both are kept: pi_1's links are known.
    expect(await store.reserveLinks('pi_1', keys('a', 6), 100)).toEqual({
      ok: true,
      newlyCounted: 0,
    });
    // Past it, the oldest payment's set goes (it starts afresh, never refused more).
    expect(await store.reserveLinks('pi_3', keys('c', 1), 100)).toEqual({
      ok: true,
      newlyCounted: 1,
    });
    expect(await store.reserveLinks('pi_2', keys('b', 4), 100)).toEqual({
      ok: true,
      newlyCounted: 0,
    });
    expect(await store.reserveLinks('pi_1', keys('a', 6), 100)).toEqual({
      ok: true,
      newlyCounted: 6,
    });
    // A payment bigger than the cap alone is kept whole while it is the newest.
    expect(await store.addResolved('pi_4', keys('d', 12))).toMatchObject({ count: 12 });
    expect(await store.resolvedCount('pi_4')).toBe(12);
    expect(await store.addResolved('pi_5', keys('e', 1))).toMatchObject({ count: 1 });
    expect(await store.resolvedCount('pi_4')).toBe(0);
  });

  it('never drops the payer binding of an open authorization; refuses new payments while all are open', async () => {
    const clock = manualClock();
    const store = new MemoryStateStore({ clock, limits: { payments: 2 } });
    await store.bindPayer('pi_open', 'victim');
    await store.recordAuthorization('pi_open', CONTRACT_START);
    // A flood of payments nobody authorized: they push each other out, never the open one.
    for (let i = 0; i < 50; i += 1) expect(await store.bindPayer(`pi_flood${i}`, 'x')).toBe(true);
    expect(await store.payerOf('pi_open')).toBe('victim');
    expect(await store.payerOf('pi_flood0')).toBeUndefined();
    expect(await store.payerOf('pi_flood49')).toBe('x');
    // Bound by refusing: with as many open authorizations as the cap, no new payment.
    await store.recordAuthorization('pi_flood49', CONTRACT_START);
    const refused = store.bindPayer('pi_new', 'y');
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toMatchObject({ reason: 'full' });
    // Settled, a binding goes back among the others, and new payments are taken again.
    await store.replaceVerdict('pi_open', { status: 'succeeded', places: 5 }, 60_000);
    expect(await store.payerOf('pi_open')).toBe('victim');
    expect(await store.bindPayer('pi_new', 'y')).toBe(true);
    // An open authorization's binding still expires with the payment's state (8 days).
    clock.advance(PAYMENT_STATE_TTL_MS);
    expect(await store.payerOf('pi_flood49')).toBeUndefined();
    expect(await store.bindPayer('pi_later', 'z')).toBe(true);
  });

  it('caps free-budget clients, counters and leases', async () => {
    const store = new MemoryStateStore({ limits: { freeClients: 1, counters: 1, leases: 1 } });
    await store.takeFreeLinks('c1', 20, 20, CONTRACT_START);
    await store.takeFreeLinks('c2', 20, 20, CONTRACT_START);
    expect(await store.takeFreeLinks('c1', 1, 20, CONTRACT_START)).toEqual({
      ok: true,
      remaining: 19,
    });
    await store.hit('k1', 60_000, 1);
    await store.hit('k2', 60_000, 1);
    expect((await store.hit('k1', 60_000, 1)).count).toBe(1);
    expect(await store.tryLease('l1', 'a', 60_000)).toBe(true);
    expect(await store.tryLease('l2', 'a', 60_000)).toBe(true);
    expect(await store.tryLease('l1', 'b', 60_000)).toBe(true);
  });

  it('drops expired entries before live ones when full', async () => {
    const clock = manualClock();
    const store = new MemoryStateStore({ clock, limits: { counters: 2 } });
    await store.hit('short', 1_000, 5);
    await store.hit('long', 60_000, 5);
    clock.advance(1_000);
    await store.hit('new', 60_000, 5);
    expect((await store.hit('long', 60_000, 5)).count).toBe(2);
  });

  it('keeps cached coordinates safe from changes to the objects passed in or out', async () => {
    const cache = new MemoryStateStore().placeCache();
    const value = { coordinates: { lat: 10, lng: 20 }, placeId: 'ChIJ_x' };
    await cache.set('k', value);
    (value.coordinates as { lat: number }).lat = 11;
    const read = await cache.get('k');
    (read!.coordinates as { lat: number }).lat = 12;
    expect(await cache.get('k')).toEqual({ coordinates: { lat: 10, lng: 20 }, placeId: 'ChIJ_x' });
  });
});

describe('createStateStore', () => {
  it('keeps the state in the process when no Redis URL is given', async () => {
    const clock = manualClock();
    const store = await createStateStore({ clock });
    expect(store).toBeInstanceOf(MemoryStateStore);
    await store.hit('k', 1_000, 1);
    clock.advance(1_000);
    expect((await store.hit('k', 1_000, 1)).count).toBe(1);
    await store.close();
  });
});
