import { describe, expect, it } from 'vitest';
import { PlaceCache } from './cache.js';

const place = (lat: number) => ({ coordinates: { lat, lng: 10 }, placeId: undefined });

describe('PlaceCache', () => {
  it('keeps entries until the TTL and drops them at it', () => {
    let now = 1_000;
    const cache = new PlaceCache(500, 10, () => now);
    cache.set('cid:1', place(1));
    now = 1_499;
    expect(cache.get('cid:1')).toEqual(place(1));
    now = 1_500;
    expect(cache.get('cid:1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, evicting the least recently used', () => {
    const cache = new PlaceCache(60_000, 3);
    cache.set('a', place(1));
    cache.set('b', place(2));
    cache.set('c', place(3));
    expect(cache.size).toBe(3);
    cache.get('a');
    cache.set('d', place(4));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(place(1));
    expect(cache.get('d')).toEqual(place(4));
  });

  it('stores only coordinates and a place id', () => {
    const cache = new PlaceCache(60_000, 3);
    cache.set('cid:1', { coordinates: { lat: 1, lng: 2 }, placeId: 'ChIJabc' });
    expect(Object.keys(cache.get('cid:1') ?? {}).sort()).toEqual(['coordinates', 'placeId']);
  });
});
