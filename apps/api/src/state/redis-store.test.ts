import { createServer, type AddressInfo } from 'node:net';
import { startRedis, type RedisServerHandle } from '@placeport/testkit';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStateStore } from './index.js';
import {
  redactRedisUrl,
  redisKeys,
  REDIS_KEY_PREFIX,
  REDIS_LIMITS,
  RedisStateStore,
} from './redis-store.js';
import { until } from '../../test/faults.js';
import {
  CONTRACT_START,
  describeStateStoreContract,
  type EntryRef,
} from '../../test/store-contract.js';
import { StoreUnavailableError, type StateStore } from './store.js';

let server: RedisServerHandle;
/** A plain client beside the stores, to read what they wrote and to empty the server. */
let admin: Redis;

beforeAll(async () => {
  server = await startRedis();
  admin = new Redis(server.url);
});

afterAll(async () => {
  await admin?.quit();
  await server?.stop();
});

function keyOf(ref: EntryRef): string {
  switch (ref.kind) {
    case 'place':
      return redisKeys.place(ref.key);
    case 'links':
      return redisKeys.links(ref.intentId);
    case 'payer':
      return redisKeys.payer(ref.intentId);
    case 'resolved':
      return redisKeys.resolved(ref.intentId);
    case 'verdict':
      return redisKeys.verdict(ref.intentId);
    case 'use':
      return redisKeys.use(ref.intentId);
    case 'free':
      return redisKeys.free(ref.clientKey, ref.now);
    case 'counter':
      return redisKeys.counter(ref.key);
    case 'lease':
      return redisKeys.lease(ref.name);
  }
}

describeStateStoreContract('redis', async () => {
  await admin.flushdb();
  return {
    store: await RedisStateStore.connect(server.url),
    time: { kind: 'pttl', pttl: (ref) => admin.pttl(keyOf(ref)) },
  };
});

describe('RedisStateStore', () => {
  let stores: StateStore[] = [];
  async function open(): Promise<StateStore> {
    const store = await createStateStore({ redisUrl: server.url });
    stores.push(store);
    return store;
  }

  beforeEach(async () => {
    await admin.flushdb();
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    stores = [];
  });

  it('is what createStateStore gives for a Redis URL', async () => {
    expect(await open()).toBeInstanceOf(RedisStateStore);
  });

  it('writes every key under placeport: and lets every one expire', async () => {
    const store = await open();
    await store.placeCache().set('cid:1', { coordinates: { lat: 1, lng: 2 }, placeId: undefined });
    await store.reserveLinks('pi_1', ['a'], 1);
    await store.addResolved('pi_1', ['p']);
    await store.takeFreeLinks('192.0.2.1', 1, 20, CONTRACT_START);
    await store.hit('k', 60_000, 1);
    await store.tryLease('sweep', 'me', 60_000);
    await store.keepVerdict('pi_1', { status: 'requires_capture', places: 1 }, 60_000);
    await store.recordUse('pi_1', CONTRACT_START, 60_000);
    const keys = await admin.keys('*');
    // The eight kinds of state, and the places' index.
    expect(keys).toHaveLength(9);
    for (const key of keys) {
      expect(key.startsWith(REDIS_KEY_PREFIX)).toBe(true);
      expect(await admin.pttl(key)).toBeGreaterThan(0);
    }
  });

  it('keeps at most REDIS_LIMITS.places places, the oldest written going first, with their index', async () => {
    const cap = REDIS_LIMITS.places;
    REDIS_LIMITS.places = 3;
    try {
      const cache = (await open()).placeCache();
      const at = (i: number) => ({ coordinates: { lat: i, lng: i }, placeId: undefined });
      for (let i = 1; i <= 5; i += 1) await cache.set(`cid:${i}`, at(i));
      expect(await cache.get('cid:1')).toBeUndefined();
      expect(await cache.get('cid:2')).toBeUndefined();
      for (let i = 3; i <= 5; i += 1) expect(await cache.get(`cid:${i}`)).toEqual(at(i));
      expect(await admin.zrange(redisKeys.placeIndex, '0', '-1')).toEqual([
        'cid:3',
        'cid:4',
        'cid:5',
      ]);
      expect(await admin.keys(redisKeys.place('*'))).toHaveLength(3);
      // A place written again is the newest: the next one pushes out cid:4, not it.
      await cache.set('cid:3', at(33));
      await cache.set('cid:6', at(6));
      expect(await cache.get('cid:3')).toEqual(at(33));
      expect(await cache.get('cid:4')).toBeUndefined();
      expect(await admin.zcard(redisKeys.placeIndex)).toBe(3);
      expect(await admin.pttl(redisKeys.placeIndex)).toBeGreaterThan(0);
    } finally {
      REDIS_LIMITS.places = cap;
    }
  });

  it('stores a place as JSON { lat, lng, placeId? } and treats anything malformed as a miss', async () => {
    const cache = (await open()).placeCache();
    await cache.set('pid:ChIJ_a', { coordinates: { lat: 34.67, lng: 33.04 }, placeId: 'ChIJ_a' });
    await cache.set('cid:9', { coordinates: { lat: -1, lng: -2 }, placeId: undefined });
    expect(JSON.parse((await admin.get('placeport:place:pid:ChIJ_a'))!)).toEqual({
      lat: 34.67,
      lng: 33.04,
      placeId: 'ChIJ_a',
    });
    expect(JSON.parse((await admin.get('placeport:place:cid:9'))!)).toEqual({ lat: -1, lng: -2 });
    for (const bad of ['{', '[]', '{"lat":"1","lng":2}', '{"lat":91,"lng":2}', '{"lat":1}']) {
      await admin.set('placeport:place:bad', bad);
      expect(await cache.get('bad')).toBeUndefined();
    }
  });

  it('stores a verdict as JSON { status, places } and treats anything malformed as none', async () => {
    const store = await open();
    await store.keepVerdict('pi_1', { status: 'requires_capture', places: 12 }, 60_000);
    expect(JSON.parse((await admin.get(redisKeys.verdict('pi_1')))!)).toEqual({
      status: 'requires_capture',
      places: 12,
    });
    for (const bad of [
      '{',
      'null',
      '{"status":"authorized","places":1}',
      '{"status":"settling"}',
    ]) {
      await admin.set(redisKeys.verdict('pi_bad'), bad);
      expect(await store.verdictOf('pi_bad')).toBeUndefined();
      // Adding places reads it the same way: none kept, so they are added.
      expect(await store.addResolved('pi_bad', ['p'])).toEqual({
        added: true,
        count: 1,
        verdict: undefined,
      });
    }
  });

  it('names what is unsafe for payments in its configuration: eviction, and anything but appendonly', async () => {
    const store = (await open()) as RedisStateStore;
    const configure = async (appendonly: string, save: string) => {
      await admin.config('SET', 'appendonly', appendonly);
      await admin.config('SET', 'save', save);
    };
    try {
      await configure('yes', '');
      expect(await store.durabilityProblems()).toEqual([]);
      await configure('yes', '3600 1');
      expect(await store.durabilityProblems()).toEqual([]);
      await admin.config('SET', 'appendfsync', 'always');
      expect(await store.durabilityProblems()).toEqual([]);
      await admin.config('SET', 'appendfsync', 'no');
      expect(await store.durabilityProblems()).toEqual([
        expect.stringMatching(/^Redis appendfsync is no: .*Set appendfsync everysec\.$/),
      ]);
      await admin.config('SET', 'appendfsync', 'everysec');
      await configure('no', '');
      expect(await store.durabilityProblems()).toEqual([
        expect.stringMatching(/^Redis does not persist .*Turn on appendonly yes/),
      ]);
      // Snapshots alone: a crash goes back to the last one, a capture made since included.
      await configure('no', '3600 1 300 100');
      expect(await store.durabilityProblems()).toEqual([
        'RDB snapshots alone lose every write since the last snapshot: a captured payment can look open again, counts and payer bindings made since are lost; turn on appendonly yes (appendfsync everysec).',
      ]);
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      expect(await store.durabilityProblems()).toEqual([
        expect.stringContaining('maxmemory-policy is allkeys-lru'),
        expect.stringContaining('RDB snapshots alone'),
      ]);
    } finally {
      // As startRedis() set it for the other tests of this file.
      await configure('no', '');
      await admin.config('SET', 'appendfsync', 'everysec');
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
    }
  });

  it('runs its scripts again after the server forgot them (SCRIPT FLUSH, restart)', async () => {
    const store = await open();
    await store.reserveLinks('pi_1', ['a'], 2);
    await admin.script('FLUSH');
    expect(await store.reserveLinks('pi_1', ['b'], 2)).toEqual({ ok: true, newlyCounted: 1 });
  });

  it('counts a thousand links in one call', async () => {
    const store = await open();
    const links = Array.from({ length: 1000 }, (_, i) => `https://maps.app.goo.gl/${i}`);
    expect(await store.reserveLinks('pi_big', links, 1000)).toEqual({
      ok: true,
      newlyCounted: 1000,
    });
    expect(await store.addResolved('pi_big', links)).toMatchObject({ added: true, count: 1000 });
    expect(await admin.scard(redisKeys.links('pi_big'))).toBe(1000);
  });

  describe('two instances on one Redis', () => {
    it('share one allowance: 50 concurrent calls against 20 accept exactly 20', async () => {
      const [a, b] = [await open(), await open()];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? a : b).reserveLinks('pi_shared', [`link-${i}`], 20),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(20);
      expect(await admin.scard(redisKeys.links('pi_shared'))).toBe(20);
      // A retry of an accepted link is free from either instance.
      const accepted = results.findIndex((r) => r.ok);
      expect(await b.reserveLinks('pi_shared', [`link-${accepted}`], 20)).toEqual({
        ok: true,
        newlyCounted: 0,
      });
      expect(await a.reserveLinks('pi_shared', ['link-new'], 20)).toEqual({
        ok: false,
        remaining: 0,
      });
    });

    it('share one free budget', async () => {
      const [a, b] = [await open(), await open()];
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? a : b).takeFreeLinks('2001:db8::/64', 1, 20, CONTRACT_START),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(20);
      expect(await b.takeFreeLinks('2001:db8::/64', 0, 20, CONTRACT_START)).toEqual({
        ok: true,
        remaining: 0,
      });
    });

    it('share one cache, one resolved count, counters and leases', async () => {
      const [a, b] = [await open(), await open()];
      const place = { coordinates: { lat: 51.5, lng: -0.12 }, placeId: 'ChIJ_x' };
      await a.placeCache().set('pid:ChIJ_x', place);
      expect(await b.placeCache().get('pid:ChIJ_x')).toEqual(place);

      await a.addResolved('pi_1', ['p1', 'p2']);
      expect(await b.addResolved('pi_1', ['p2', 'p3'])).toMatchObject({ count: 3 });
      expect(await a.resolvedCount('pi_1')).toBe(3);

      await a.hit('client', 60_000, 1);
      expect(await b.hit('client', 60_000, 1)).toMatchObject({ allowed: false, count: 2 });

      expect(await a.tryLease('settlement', 'a', 60_000)).toBe(true);
      expect(await b.tryLease('settlement', 'b', 60_000)).toBe(false);
      expect(await b.releaseLease('settlement', 'b')).toBe(false);
      expect(await a.releaseLease('settlement', 'a')).toBe(true);
      expect(await b.tryLease('settlement', 'b', 60_000)).toBe(true);
    });
  });
});

describe('while Redis is away', () => {
  it('every operation fails at once with StoreUnavailableError, the cache misses, and it comes back by itself', async () => {
    const own = await startRedis();
    const events: string[] = [];
    const store = await RedisStateStore.connect(own.url, {
      onUnavailable: () => events.push('unavailable'),
      onAvailable: () => events.push('available'),
    });
    try {
      await store.bindPayer('pi_1', 'hash');
      expect(store.available()).toBe(true);
      await own.kill();
      await until(() => !store.available());
      const operations: Array<() => Promise<unknown>> = [
        () => store.reserveLinks('pi_1', ['a'], 1),
        () => store.addResolved('pi_1', ['p']),
        () => store.bindPayer('pi_2', 'hash'),
        () => store.payerOf('pi_1'),
        () => store.resolvedCount('pi_1'),
        () => store.keepVerdict('pi_1', { status: 'requires_capture', places: 1 }, 1_000),
        () => store.replaceVerdict('pi_1', { status: 'settling', places: 1 }, 1_000),
        () => store.verdictOf('pi_1'),
        () => store.forgetVerdict('pi_1'),
        () => store.recordUse('pi_1', CONTRACT_START, 60_000),
        () => store.lastUseOf('pi_1'),
        () => store.takeFreeLinks('192.0.2.1', 1, 20, CONTRACT_START),
        () => store.hit('k', 60_000, 1),
        () => store.tryLease('sweep', 'me', 60_000),
        () => store.releaseLease('sweep', 'me'),
      ];
      for (const operation of operations) {
        await expect(operation()).rejects.toBeInstanceOf(StoreUnavailableError);
      }
      // The cache is best effort: a miss, and a place it cannot keep is dropped quietly.
      expect(await store.placeCache().get('cid:1')).toBeUndefined();
      await store.placeCache().set('cid:1', { coordinates: { lat: 1, lng: 2 }, placeId: 'x' });

      await own.restart();
      await until(() => store.available());
      // Nothing persisted: the server came back empty, and the store works again.
      expect(await store.payerOf('pi_1')).toBeUndefined();
      expect(await store.bindPayer('pi_1', 'hash')).toBe(true);
      expect(events).toEqual(['unavailable', 'available']);
    } finally {
      await store.close();
      await own.stop();
    }
  });

  it('once a command timed out on a hung Redis, fails the next at once, sends none of them, and comes back by itself', async () => {
    const own = await startRedis();
    const events: string[] = [];
    const store = await RedisStateStore.connect(own.url, {
      onUnavailable: (error) => events.push(`unavailable: ${error?.message}`),
      onAvailable: () => events.push('available'),
    });
    try {
      expect(await store.hit('k', 60_000, 100)).toMatchObject({ count: 1 });
      own.pause();
      // Connections stay open and nothing answers: a command timing out is what tells.
      await expect(store.hit('k', 60_000, 100)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(store.available()).toBe(false);
      for (let i = 0; i < 5; i++) {
        await expect(store.hit('k', 60_000, 100)).rejects.toThrow('Redis: no answer (it hangs)');
      }
      expect(events).toEqual(['unavailable: Command timed out']);

      own.resume();
      // Each refused call lets one PING through; its answer says Redis is back.
      await until(async () => {
        await store.hit('other', 60_000, 100).catch(() => undefined);
        return store.available();
      });
      // The first count and the timed-out one (Redis ran it when it woke): the five refused
      // while it hung never reached it, so they count nothing behind anyone's back.
      expect(await store.hit('k', 60_000, 100)).toMatchObject({ count: 3 });
      expect(events).toEqual(['unavailable: Command timed out', 'available']);
    } finally {
      own.resume();
      await store.close();
      await own.stop();
    }
  });

  describe('refusing writes while up', () => {
    /** A store on a Redis of its own, its outages recorded in `events`, and a client beside it. */
    async function refusing(
      run: (parts: {
        store: RedisStateStore;
        own: Redis;
        events: string[];
        other: RedisServerHandle;
      }) => Promise<void>,
    ): Promise<void> {
      const [server, other] = [await startRedis(), await startRedis()];
      const own = new Redis(server.url);
      const events: string[] = [];
      const store = await RedisStateStore.connect(server.url, {
        onUnavailable: (error) => events.push(`unavailable: ${error?.message}`),
        onAvailable: () => events.push('available'),
      });
      try {
        await run({ store, own, events, other });
      } finally {
        await store.close();
        own.disconnect();
        await server.stop();
        await other.stop();
      }
    }

    /** Until a write succeeds the store says it is unavailable; each call lets one probe through. */
    const probed = (store: RedisStateStore) =>
      until(async () => {
        await store.payerOf('pi_1');
        return store.available();
      });

    it('out of memory: reads answer, writes fail, unavailable until a probe write succeeds', async () => {
      await refusing(async ({ store, own, events }) => {
        await store.bindPayer('pi_1', 'hash');
        await own.config('SET', 'maxmemory', '1');
        await expect(store.bindPayer('pi_2', 'hash')).rejects.toThrow(
          /^Redis: OOM command not allowed/,
        );
        expect(store.available()).toBe(false);
        // Reads answer, and an answer says nothing of writes.
        expect(await store.payerOf('pi_1')).toBe('hash');
        expect(store.available()).toBe(false);
        await expect(store.addResolved('pi_1', ['p'])).rejects.toBeInstanceOf(
          StoreUnavailableError,
        );
        expect(events).toEqual([
          "unavailable: OOM command not allowed when used memory > 'maxmemory'.",
        ]);

        await own.config('SET', 'maxmemory', '0');
        await probed(store);
        expect(events).toHaveLength(2);
        expect(events[1]).toBe('available');
        expect(await store.bindPayer('pi_2', 'hash')).toBe(true);
        // The probe's key goes by itself.
        expect(await own.pttl(redisKeys.probe)).toBeGreaterThan(0);
      });
    });

    it('a read-only replica: unavailable until it takes writes again', async () => {
      await refusing(async ({ store, own, events, other }) => {
        await own.replicaof('127.0.0.1', other.port);
        await expect(store.hit('k', 60_000, 10)).rejects.toThrow(/^Redis: READONLY/);
        expect(store.available()).toBe(false);
        expect(await store.payerOf('pi_1')).toBeUndefined();
        expect(events).toEqual([expect.stringMatching(/^unavailable: READONLY/)]);

        await own.replicaof('NO', 'ONE');
        await probed(store);
        expect(events).toEqual([expect.stringMatching(/^unavailable: READONLY/), 'available']);
        expect(await store.hit('k', 60_000, 10)).toMatchObject({ count: 1 });
      });
    });
  });

  it('keeps every acknowledged write across a crash when Redis persists (AOF)', async () => {
    const own = await startRedis({ persistence: 'aof' });
    const store = await RedisStateStore.connect(own.url);
    try {
      await store.bindPayer('pi_1', 'hash');
      await own.kill();
      await own.restart();
      await until(() => store.available());
      expect(await store.payerOf('pi_1')).toBe('hash');
    } finally {
      await store.close();
      await own.stop();
    }
  });
});

describe('connecting', () => {
  /** A loopback port nobody listens on (it was free a moment ago). */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  it('fails with a clear error, without the password, when Redis cannot be reached', async () => {
    const url = `redis://admin:hunter2secret@127.0.0.1:${await closedPort()}`;
    const failure = createStateStore({ redisUrl: url });
    await expect(failure).rejects.toThrow(
      /^Cannot reach Redis at redis:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+/,
    );
    await expect(failure).rejects.toThrow(/ECONNREFUSED/);
    await failure.catch((error: Error) => {
      expect(error.message).not.toContain('hunter2secret');
      expect(String(error.cause ?? '')).not.toContain('hunter2secret');
    });
  });

  it('hides user name and password in URLs it reports', () => {
    expect(redactRedisUrl('redis://user:p%40ss@cache.internal:6380/2')).toBe(
      'redis://***:***@cache.internal:6380/2',
    );
    expect(redactRedisUrl('rediss://:only-password@cache.internal')).toBe(
      'rediss://:***@cache.internal',
    );
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactRedisUrl('not a url')).not.toContain('not a url');
  });
});
