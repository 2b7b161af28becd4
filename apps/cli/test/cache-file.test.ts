import { MemoryPlaceCache } from '@placeport/resolver';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CACHE_LOCK_STALE_MS,
  CACHE_LOCK_WAIT_MS,
  loadCacheFile,
  saveCacheFile,
} from '../src/cache-file.js';
import { defaultCacheFile, readEnvironment } from '../src/config.js';
import { tempFolder } from './support.js';

const DAY = 24 * 60 * 60 * 1000;
const noEnv = { xdgCacheHome: undefined, localAppData: undefined };

describe('defaultCacheFile', () => {
  it('follows each platform: XDG_CACHE_HOME first, then ~/.cache, ~/Library/Caches, %LOCALAPPDATA%', () => {
    expect(
      defaultCacheFile({
        env: { ...noEnv, xdgCacheHome: '/tmp/xdg' },
        platform: 'darwin',
        homedir: '/Users/ann',
      }),
    ).toBe(path.join('/tmp/xdg', 'placeport', 'places-v1.json'));
    expect(defaultCacheFile({ env: noEnv, platform: 'linux', homedir: '/home/ann' })).toBe(
      '/home/ann/.cache/placeport/places-v1.json',
    );
    expect(defaultCacheFile({ env: noEnv, platform: 'freebsd', homedir: '/home/ann' })).toBe(
      '/home/ann/.cache/placeport/places-v1.json',
    );
    expect(defaultCacheFile({ env: noEnv, platform: 'darwin', homedir: '/Users/ann' })).toBe(
      '/Users/ann/Library/Caches/placeport/places-v1.json',
    );
    expect(
      defaultCacheFile({
        env: { ...noEnv, localAppData: 'C:\\Users\\ann\\AppData\\Local' },
        platform: 'win32',
        homedir: 'C:\\Users\\ann',
      }),
    ).toBe('C:\\Users\\ann\\AppData\\Local\\placeport\\Cache\\places-v1.json');
    expect(defaultCacheFile({ env: noEnv, platform: 'win32', homedir: 'C:\\Users\\ann' })).toBe(
      'C:\\Users\\ann\\AppData\\Local\\placeport\\Cache\\places-v1.json',
    );
  });

  it('takes a test-only pause before retry rounds, a whole number of milliseconds up to 60,000', () => {
    expect(readEnvironment({ PLACEPORT_RETRY_DELAY_MS: '60000' }).retryDelayMs).toBe(60_000);
    expect(readEnvironment({}).retryDelayMs).toBeUndefined();
    for (const bad of ['60001', '-1', '1.5', 'soon']) {
      expect(() => readEnvironment({ PLACEPORT_RETRY_DELAY_MS: bad })).toThrow(
        'PLACEPORT_RETRY_DELAY_MS must be a whole number of milliseconds from 0 to 60000',
      );
    }
  });

  it('takes a test-only time between saves of the cache file, from 1 to 60,000 ms', () => {
    expect(readEnvironment({ PLACEPORT_CACHE_SAVE_MS: '1' }).cacheSaveMs).toBe(1);
    expect(readEnvironment({ PLACEPORT_CACHE_SAVE_MS: '60000' }).cacheSaveMs).toBe(60_000);
    expect(readEnvironment({}).cacheSaveMs).toBeUndefined();
    for (const bad of ['0', '60001', '-1', 'soon']) {
      expect(() => readEnvironment({ PLACEPORT_CACHE_SAVE_MS: bad })).toThrow(
        'PLACEPORT_CACHE_SAVE_MS must be a whole number of milliseconds from 1 to 60000',
      );
    }
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    expect(readEnvironment({ XDG_CACHE_HOME: 'relative/cache' }).xdgCacheHome).toBeUndefined();
    expect(readEnvironment({ XDG_CACHE_HOME: '/abs/cache' }).xdgCacheHome).toBe('/abs/cache');
  });
});

describe('the cache file', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('cache-file'));
  });

  afterAll(async () => {
    await remove();
  });

  it('round-trips every live entry with its expiry, into a new folder, leaving no temporary file', async () => {
    const file = path.join(dir, 'new', 'folder', 'places-v1.json');
    const cache = new MemoryPlaceCache();
    await cache.set('cid:16519582940102929223', {
      coordinates: { lat: 37.9715, lng: 23.7257 },
      placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU',
    });
    await cache.set('pid:ChIJN1t_tDeuEmsRUsoyG83frY4', {
      coordinates: { lat: -33.8670522, lng: 151.1957362 },
      placeId: undefined,
    });
    expect(await saveCacheFile(file, cache)).toBe(2);
    expect(await readdir(path.dirname(file))).toEqual(['places-v1.json']);

    const restored = new MemoryPlaceCache();
    expect(await loadCacheFile(file, restored)).toEqual({ kind: 'loaded', entries: 2 });
    expect(restored.entriesWithExpiry()).toEqual(cache.entriesWithExpiry());
    const text = await readFile(file, 'utf8');
    expect(text).not.toMatch(/https?:|google/i);
  });

  it('keeps what another run saved meanwhile: two runs at once lose none of each other’s places', async () => {
    const file = path.join(dir, 'two-runs', 'places-v1.json');
    const athens = {
      coordinates: { lat: 37.9715, lng: 23.7257 },
      placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU',
    };
    const sydney = { coordinates: { lat: -33.8670522, lng: 151.1957362 }, placeId: undefined };
    const lisbon = { coordinates: { lat: 38.7223, lng: -9.1393 }, placeId: undefined };
    // Both runs started from the same (empty) file; each found places of its own, one in common.
    const first = new MemoryPlaceCache();
    await first.set('cid:1', athens);
    await first.set('cid:3', lisbon);
    const second = new MemoryPlaceCache();
    await second.set('cid:2', sydney);
    await second.set('cid:3', { ...lisbon, placeId: 'ChIJ-lisbon' });
    expect(await saveCacheFile(file, first)).toBe(2);
    // The second saves last: it keeps the first's place, and its own answer for the shared one.
    expect(await saveCacheFile(file, second)).toBe(3);

    const restored = new MemoryPlaceCache();
    expect(await loadCacheFile(file, restored)).toEqual({ kind: 'loaded', entries: 3 });
    expect(await restored.get('cid:1')).toEqual(athens);
    expect(await restored.get('cid:2')).toEqual(sydney);
    expect((await restored.get('cid:3'))?.placeId).toBe('ChIJ-lisbon');
  });

  /** A cache of `count` places of its own, keyed `cid:<prefix><n>`. */
  async function cacheOf(prefix: number, count: number): Promise<MemoryPlaceCache> {
    const cache = new MemoryPlaceCache();
    for (let n = 0; n < count; n += 1) {
      await cache.set(`cid:${prefix}${n}`, {
        coordinates: { lat: prefix, lng: n / 1000 },
        placeId: undefined,
      });
    }
    return cache;
  }

  it('saves taken in turns: four runs saving at the same moment keep every place of each', async () => {
    const file = path.join(dir, 'four-at-once', 'places-v1.json');
    const caches = await Promise.all([1, 2, 3, 4].map((prefix) => cacheOf(prefix, 150)));
    // Without turns, each read the file before any renamed its own over it: the last one won.
    await Promise.all(caches.map((cache) => saveCacheFile(file, cache)));
    const restored = new MemoryPlaceCache();
    expect(await loadCacheFile(file, restored)).toEqual({ kind: 'loaded', entries: 600 });
    expect(await readdir(path.dirname(file))).toEqual(['places-v1.json']);
  });

  it('waits for another run’s save (its lock), then keeps what it wrote; takes over a lock past CACHE_LOCK_STALE_MS', async () => {
    const file = path.join(dir, 'locked', 'places-v1.json');
    await mkdir(path.dirname(file), { recursive: true });
    const lock = `${file}.lock`;
    await writeFile(lock, '');
    let saved = false;
    const mine = saveCacheFile(file, await cacheOf(5, 2)).then((count) => {
      saved = true;
      return count;
    });
    // The other run, holding the lock, writes its places and lets go.
    await saveCacheFile(file, await cacheOf(6, 3), undefined, { waitMs: 0, staleMs: 60_000 });
    expect(saved).toBe(false);
    await rm(lock);
    expect(await mine).toBe(5);
    expect(await readdir(path.dirname(file))).toEqual(['places-v1.json']);

    // A lock left by a run killed while saving: older than CACHE_LOCK_STALE_MS, taken over at once
    // (a lock just younger is waited for: CACHE_LOCK_WAIT_MS would pass first).
    await writeFile(lock, '');
    const old = new Date(Date.now() - CACHE_LOCK_STALE_MS - 1_000);
    await utimes(lock, old, old);
    expect(await saveCacheFile(file, await cacheOf(7, 1))).toBe(6);
    expect(await readdir(path.dirname(file))).toEqual(['places-v1.json']);
  });

  it('saves anyway after waiting CACHE_LOCK_WAIT_MS for a lock that is not let go, leaving it to its run', async () => {
    const file = path.join(dir, 'held', 'places-v1.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.lock`, '');
    const timing = { waitMs: 200, staleMs: CACHE_LOCK_STALE_MS };
    expect(await saveCacheFile(file, await cacheOf(8, 2), undefined, timing)).toBe(2);
    expect((await readdir(path.dirname(file))).sort()).toEqual([
      'places-v1.json',
      'places-v1.json.lock',
    ]);
    expect(CACHE_LOCK_WAIT_MS).toBeLessThan(CACHE_LOCK_STALE_MS);
  });

  it('never grows past the cap: what the cache let go does not come back from the file', async () => {
    const file = path.join(dir, 'capped-runs', 'places-v1.json');
    const place = (n: number) => ({ coordinates: { lat: n, lng: n }, placeId: undefined });
    let next = 0;
    // Four runs, each loading the file, finding 3 new places into a cache of 3, and saving.
    for (let run = 0; run < 4; run += 1) {
      const cache = new MemoryPlaceCache(undefined, 3);
      await loadCacheFile(file, cache);
      for (let i = 0; i < 3; i += 1) await cache.set(`cid:${(next += 1)}`, place(next));
      expect(await saveCacheFile(file, cache, 3)).toBe(3);
    }
    const restored = new MemoryPlaceCache();
    expect(await loadCacheFile(file, restored)).toEqual({ kind: 'loaded', entries: 3 });
    // The last run's places: the newest.
    expect(await restored.get('cid:12')).toEqual(place(12));
  });

  it('drops expired entries and caps an expiry beyond 30 days; skips entries it cannot read', async () => {
    const file = path.join(dir, 'mixed.json');
    const now = Date.now();
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        entries: [
          ['cid:1', 10, 20, null, now - 1],
          ['cid:2', 11, 21, null, now + 1000 * DAY],
          ['cid:3', 95, 21, null, now + DAY],
          ['https://www.google.com/maps/place/x', 1, 2, null, now + DAY],
          ['cid:4', 12, 22, 'ChIJabc', now + DAY],
          'junk',
        ],
      }),
    );
    const cache = new MemoryPlaceCache();
    expect(await loadCacheFile(file, cache)).toEqual({ kind: 'loaded', entries: 2 });
    expect(cache.peek('cid:1')).toBeUndefined();
    expect(cache.peek('cid:4')).toEqual({ coordinates: { lat: 12, lng: 22 }, placeId: 'ChIJabc' });
    const capped = cache.entriesWithExpiry().find(([key]) => key === 'cid:2')!;
    expect(capped[2]).toBeLessThanOrEqual(Date.now() + 30 * DAY);
  });

  it('tells a missing or empty file (first run) from a cache file it cannot read and from a file that is not one', async () => {
    const cache = new MemoryPlaceCache();
    expect(await loadCacheFile(path.join(dir, 'absent.json'), cache)).toEqual({ kind: 'missing' });
    const empty = path.join(dir, 'empty.json');
    await writeFile(empty, '');
    expect(await loadCacheFile(empty, cache)).toEqual({ kind: 'missing' });
    // Ours, but not whole: replaced at the end of the run.
    const ours: Array<[string, string]> = [
      ['truncated.json', '{"version":1,"entries":[["cid:1",'],
      ['no-entries.json', '{"version":1,"entries":5}'],
    ];
    for (const [name, text] of ours) {
      const file = path.join(dir, name);
      await writeFile(file, text);
      expect(await loadCacheFile(file, cache)).toMatchObject({ kind: 'unreadable' });
    }
    // Not ours: never written over.
    const foreign: Array<[string, string | Uint8Array]> = [
      ['notes.txt', 'my notes\n'],
      ['other.json', '{"version":2,"entries":[]}'],
      ['array.json', '[]'],
      ['settings.json', '{"theme":"dark"}'],
      ['takeout.zip', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0])],
    ];
    for (const [name, content] of foreign) {
      const file = path.join(dir, name);
      await writeFile(file, content);
      expect({ name, outcome: await loadCacheFile(file, cache) }).toMatchObject({
        name,
        outcome: { kind: 'foreign' },
      });
    }
    const folder = path.join(dir, 'a-folder.json');
    await mkdir(folder);
    expect(await loadCacheFile(folder, cache)).toEqual({ kind: 'unreadable', reason: 'EISDIR' });
    expect(cache.size).toBe(0);
  });

  it('never writes over a file that is not a cache file, but fills an empty one', async () => {
    const cache = new MemoryPlaceCache();
    await cache.set('cid:7', { coordinates: { lat: 1, lng: 2 }, placeId: undefined });
    const notes = path.join(dir, 'my-notes.txt');
    await writeFile(notes, 'precious\n');
    await expect(saveCacheFile(notes, cache)).rejects.toThrow(
      `The cache file ${notes} is not a PlacePort cache file (it is not JSON), so placeport will not write over it: give another --cache-file (or --no-cache), or remove that file.`,
    );
    expect(await readFile(notes, 'utf8')).toBe('precious\n');
    const empty = path.join(dir, 'fresh.json');
    await writeFile(empty, '');
    expect(await saveCacheFile(empty, cache)).toBe(1);
    expect(JSON.parse(await readFile(empty, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('fails to save where a folder stands in the way, leaving no temporary file behind', async () => {
    const cache = new MemoryPlaceCache();
    await cache.set('cid:5', { coordinates: { lat: 1, lng: 2 }, placeId: undefined });
    const inTheWay = path.join(dir, 'in-the-way');
    await mkdir(path.join(inTheWay, 'places-v1.json'), { recursive: true });
    await expect(saveCacheFile(path.join(inTheWay, 'places-v1.json'), cache)).rejects.toThrow();
    expect(await readdir(inTheWay)).toEqual(['places-v1.json']);
    const blocker = path.join(dir, 'blocker');
    await writeFile(blocker, '');
    await expect(saveCacheFile(path.join(blocker, 'places-v1.json'), cache)).rejects.toThrow();
  });
});
