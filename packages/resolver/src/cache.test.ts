import { describe, expect, it } from 'vitest';
import { MemoryPlaceCache } from './cache.js';

const place = (lat: number) => ({ coordinates: { lat, lng: 10 }, placeId: undefined });

describe('MemoryPlaceCache', () => {
  it('keeps entries until the TTL and drops them at it', async () => {
    let now = 1_000;
    const cache = new MemoryPlaceCache(500, 10, { now: () => now });
    await cache.set('cid:1', place(1));
    now = 1_499;
    expect(await cache.get('cid:1')).toEqual(place(1));
    now = 1_500;
    expect(await cache.get('cid:1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, evicting the least recently used', async () => {
    const cache = new MemoryPlaceCache(60_000, 3);
    await cache.set('a', place(1));
    await cache.set('b', place(2));
    await cache.set('c', place(3));
    expect(cache.size).toBe(3);
    await cache.get('a');
    await cache.set('d', place(4));
    expect(cache.size).toBe(3);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toEqual(place(1));
    expect(await cache.get('d')).toEqual(place(4));
  });

  it('saves and restores live entries with their expiry, dropping expired ones', async () => {
    let now = 0;
    const cache = new MemoryPlaceCache(100, 10, { now: () => now });
    await cache.set('cid:1', place(1));
    now = 50;
    await cache.set('cid:2', place(2));
    now = 120;
    const saved = cache.entriesWithExpiry();
    expect(saved).toEqual([['cid:2', place(2), 150]]);
    const copy = new MemoryPlaceCache(100, 10, { now: () => now });
    for (const [key, value, expiresAt] of saved) copy.restore(key, value, expiresAt);
    copy.restore('cid:3', place(3), 100);
    expect(copy.peek('cid:2')).toEqual(place(2));
    expect(copy.peek('cid:3')).toBeUndefined();
  });
});
