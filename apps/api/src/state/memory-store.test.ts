import { describe, expect, it } from 'vitest';
import { createStateStore } from './index.js';
import { MemoryStateStore } from './memory-store.js';
import { CONTRACT_START, describeStateStoreContract } from './store.contract.js';

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
