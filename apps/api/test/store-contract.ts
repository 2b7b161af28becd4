import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  freeDayTtlMs,
  PAYMENT_STATE_TTL_MS,
  PLACE_TTL_MS,
  type StateStore,
} from '../src/state/store.js';

/** An entry of the store, named the way the store's callers name it. */
export type EntryRef =
  | { kind: 'place'; key: string }
  | { kind: 'links'; intentId: string }
  | { kind: 'resolved'; intentId: string }
  | { kind: 'payer'; intentId: string }
  | { kind: 'verdict'; intentId: string }
  | { kind: 'use'; intentId: string }
  | { kind: 'free'; clientKey: string; now: number }
  | { kind: 'counter'; key: string }
  | { kind: 'lease'; name: string };

/**
 * How a suite checks lifetimes without waiting: the memory store's injected clock is moved to
 * both sides of the edge; Redis's own clock cannot be moved, so the expiry it set (`PTTL`) is
 * read instead.
 */
export type ContractTime =
  | { kind: 'clock'; advance(ms: number): void }
  | { kind: 'pttl'; pttl(ref: EntryRef): Promise<number> };

/** One store under test, new and empty for each test. */
export interface ContractSubject {
  store: StateStore;
  time: ContractTime;
}

/**
 * Real time between setting an expiry and reading it back is at most one test's run, which
 * vitest caps (`UNDER_LOAD.testTimeout`, 120 s): so a `PTTL` above `ttl - this` is the `ttl` that
 * was set, however slow the machine.
 */
const LONGEST_TEST_MS = 120_000;

/** A fixed moment, mid-day UTC, that every test starts from. */
export const CONTRACT_START = Date.UTC(2031, 4, 14, 12, 0, 0);

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * The behaviour every {@link StateStore} must have, run against the memory store and a real
 * redis-server alike. `open` gives a new store over empty state for each test; the suite closes it.
 */
export function describeStateStoreContract(
  name: string,
  open: () => Promise<ContractSubject>,
): void {
  describe(`${name}: StateStore contract`, () => {
    let subject: ContractSubject;
    let store: StateStore;

    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(async () => {
      await store.close();
    });

    /** The entry `ref` lives exactly `ttlMs` from now; `present` tells, through the API, if it does. */
    async function expectLifetime(
      ref: EntryRef,
      ttlMs: number,
      present: () => Promise<boolean>,
    ): Promise<void> {
      const { time } = subject;
      if (time.kind === 'clock') {
        time.advance(ttlMs - 1);
        expect(await present()).toBe(true);
        time.advance(1);
        expect(await present()).toBe(false);
      } else {
        const left = await time.pttl(ref);
        expect(left).toBeLessThanOrEqual(ttlMs);
        expect(left).toBeGreaterThan(ttlMs - LONGEST_TEST_MS);
        expect(await present()).toBe(true);
      }
    }

    describe('place cache', () => {
      const place = { coordinates: { lat: 51.508929, lng: -0.128299 }, placeId: 'ChIJ_gallery' };

      it('misses an unknown key and returns what was set, with or without a place id', async () => {
        const cache = store.placeCache();
        expect(await cache.get('pid:ChIJ_gallery')).toBeUndefined();
        await cache.set('pid:ChIJ_gallery', place);
        await cache.set('cid:42', { coordinates: { lat: -33.5, lng: 151.25 }, placeId: undefined });
        expect(await cache.get('pid:ChIJ_gallery')).toEqual(place);
        const bare = await cache.get('cid:42');
        expect(bare).toEqual({ coordinates: { lat: -33.5, lng: 151.25 }, placeId: undefined });
      });

      it('replaces an entry that is set again', async () => {
        const cache = store.placeCache();
        await cache.set('cid:7', place);
        await cache.set('cid:7', { coordinates: { lat: 1.5, lng: 2.5 }, placeId: 'ChIJ_other' });
        expect(await cache.get('cid:7')).toEqual({
          coordinates: { lat: 1.5, lng: 2.5 },
          placeId: 'ChIJ_other',
        });
      });

      it('keeps an entry 30 days', async () => {
        const cache = store.placeCache();
        await cache.set('cid:30', place);
        await expectLifetime(
          { kind: 'place', key: 'cid:30' },
          PLACE_TTL_MS,
          async () => (await cache.get('cid:30')) !== undefined,
        );
      });
    });

    describe('link allowance', () => {
      it('counts distinct links only, also within one call', async () => {
        expect(await store.reserveLinks('pi_1', ['a', 'b', 'a', 'b'], 5)).toEqual({
          ok: true,
          newlyCounted: 2,
        });
        expect(await store.reserveLinks('pi_1', ['b', 'c'], 5)).toEqual({
          ok: true,
          newlyCounted: 1,
        });
      });

      it('lets a retry of counted links through for nothing, even when the allowance is used', async () => {
        expect(await store.reserveLinks('pi_1', ['a', 'b'], 2)).toEqual({
          ok: true,
          newlyCounted: 2,
        });
        expect(await store.reserveLinks('pi_1', ['b', 'a'], 2)).toEqual({
          ok: true,
          newlyCounted: 0,
        });
        expect(await store.reserveLinks('pi_1', [], 2)).toEqual({ ok: true, newlyCounted: 0 });
      });

      it('accepts links up to the allowance exactly and refuses the next', async () => {
        expect(await store.reserveLinks('pi_1', ['a', 'b'], 3)).toMatchObject({ ok: true });
        expect(await store.reserveLinks('pi_1', ['c'], 3)).toEqual({ ok: true, newlyCounted: 1 });
        expect(await store.reserveLinks('pi_1', ['d'], 3)).toEqual({ ok: false, remaining: 0 });
      });

      it('counts nothing of a call that would pass the allowance', async () => {
        await store.reserveLinks('pi_1', ['a', 'b'], 4);
        expect(await store.reserveLinks('pi_1', ['a', 'c', 'd', 'e'], 4)).toEqual({
          ok: false,
          remaining: 2,
        });
        // None of c, d, e was counted: two of them still fit.
        expect(await store.reserveLinks('pi_1', ['d', 'e'], 4)).toEqual({
          ok: true,
          newlyCounted: 2,
        });
        expect(await store.reserveLinks('pi_1', ['c'], 4)).toEqual({ ok: false, remaining: 0 });
      });

      it('counts placeholders for links it lost, up to a floor, never past what it holds', async () => {
        // A store that lost the payment's links: the intent says 3 were resolved.
        expect(await store.countEarlierLinks('pi_1', 3)).toBe(3);
        expect(await store.reserveLinks('pi_1', ['a', 'b'], 5)).toEqual({
          ok: true,
          newlyCounted: 2,
        });
        expect(await store.reserveLinks('pi_1', ['c'], 5)).toEqual({ ok: false, remaining: 0 });
        // Asked again (another instance's check, or a later one): nothing more while it holds as many.
        expect(await store.countEarlierLinks('pi_1', 3)).toBe(0);
        expect(await store.countEarlierLinks('pi_1', 5)).toBe(0);
        // A floor above what it holds adds only the difference, under new names.
        expect(await store.countEarlierLinks('pi_1', 7)).toBe(2);
        expect(await store.reserveLinks('pi_1', ['c'], 8)).toEqual({ ok: true, newlyCounted: 1 });
        expect(await store.reserveLinks('pi_1', ['d'], 8)).toEqual({ ok: false, remaining: 0 });
        // Other payments are untouched.
        expect(await store.reserveLinks('pi_2', ['a', 'b', 'c'], 3)).toEqual({
          ok: true,
          newlyCounted: 3,
        });
      });

      it('refuses any new link under an allowance of 0', async () => {
        expect(await store.reserveLinks('pi_1', ['a'], 0)).toEqual({ ok: false, remaining: 0 });
      });

      it('keeps payments apart', async () => {
        await store.reserveLinks('pi_1', ['a', 'b'], 2);
        expect(await store.reserveLinks('pi_2', ['a', 'b'], 2)).toEqual({
          ok: true,
          newlyCounted: 2,
        });
      });

      it('accepts exactly the allowance out of 50 concurrent calls', async () => {
        const calls = Array.from({ length: 50 }, (_, i) =>
          store.reserveLinks('pi_race', [`link-${i}`], 20),
        );
        const results = await Promise.all(calls);
        expect(results.filter((r) => r.ok)).toHaveLength(20);
        expect(results.filter((r) => !r.ok)).toHaveLength(30);
        expect(await store.reserveLinks('pi_race', ['one-more'], 20)).toEqual({
          ok: false,
          remaining: 0,
        });
      });

      it("keeps a payment's links 8 days after the last addition", async () => {
        await store.reserveLinks('pi_1', ['a'], 1);
        await expectLifetime(
          { kind: 'links', intentId: 'pi_1' },
          PAYMENT_STATE_TTL_MS,
          async () => {
            const retry = await store.reserveLinks('pi_1', ['a'], 1);
            return retry.ok && retry.newlyCounted === 0;
          },
        );
      });

      it('rejects an allowance that is not a whole number', async () => {
        await expect(store.reserveLinks('pi_1', ['a'], -1)).rejects.toThrow(RangeError);
        await expect(store.reserveLinks('pi_1', ['a'], 1.5)).rejects.toThrow(RangeError);
      });
    });

    describe('resolved count', () => {
      const added = (count: number) => ({ added: true, count, verdict: undefined });

      it('counts distinct places per payment', async () => {
        expect(await store.resolvedCount('pi_1')).toBe(0);
        expect(await store.addResolved('pi_1', ['p1', 'p2', 'p1'])).toEqual(added(2));
        expect(await store.addResolved('pi_1', ['p2', 'p3'])).toEqual(added(3));
        expect(await store.addResolved('pi_1', [])).toEqual(added(3));
        expect(await store.resolvedCount('pi_1')).toBe(3);
        expect(await store.resolvedCount('pi_2')).toBe(0);
      });

      it('adds places while the kept verdict is none or requires_capture, and says which', async () => {
        const authorized = { status: 'requires_capture', places: 20 } as const;
        expect(await store.addResolved('pi_1', ['p1'])).toEqual(added(1));
        await store.keepVerdict('pi_1', authorized, DAY_MS);
        expect(await store.addResolved('pi_1', ['p2', 'p3'])).toEqual({
          added: true,
          count: 3,
          verdict: authorized,
        });
        expect(await store.resolvedCount('pi_1')).toBe(3);
      });

      it('adds nothing once the payment is settling or settled, and returns that verdict', async () => {
        const stops = ['settling', 'succeeded', 'canceled'] as const;
        for (const [index, status] of stops.entries()) {
          const id = `pi_stop_${index}`;
          await store.addResolved(id, ['p1', 'p2']);
          const verdict = { status, places: 20 };
          await store.replaceVerdict(id, verdict, DAY_MS);
          expect(await store.addResolved(id, ['p3', 'p4']), status).toEqual({
            added: false,
            verdict,
          });
          expect(await store.resolvedCount(id), status).toBe(2);
        }
      });

      it('counts every place once under concurrent additions', async () => {
        await Promise.all(
          Array.from({ length: 40 }, (_, i) => store.addResolved('pi_1', [`p${i % 25}`])),
        );
        expect(await store.resolvedCount('pi_1')).toBe(25);
      });

      it('keeps the count 8 days after the last addition', async () => {
        await store.addResolved('pi_1', ['p1']);
        await expectLifetime(
          { kind: 'resolved', intentId: 'pi_1' },
          PAYMENT_STATE_TTL_MS,
          async () => (await store.resolvedCount('pi_1')) === 1,
        );
      });
    });

    describe('payer binding', () => {
      it('binds a payment to one payer, once, and keeps payments apart', async () => {
        expect(await store.payerOf('pi_1')).toBeUndefined();
        expect(await store.bindPayer('pi_1', 'hash-a')).toBe(true);
        expect(await store.bindPayer('pi_1', 'hash-b')).toBe(false);
        expect(await store.payerOf('pi_1')).toBe('hash-a');
        expect(await store.payerOf('pi_2')).toBeUndefined();
      });

      it('lets exactly one of concurrent bindings win', async () => {
        const wins = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.bindPayer('pi_1', `hash-${i}`)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect(await store.payerOf('pi_1')).toBe(`hash-${wins.indexOf(true)}`);
      });

      it('keeps the binding 8 days', async () => {
        await store.bindPayer('pi_1', 'hash-a');
        await expectLifetime(
          { kind: 'payer', intentId: 'pi_1' },
          PAYMENT_STATE_TTL_MS,
          async () => (await store.payerOf('pi_1')) === 'hash-a',
        );
      });
    });

    describe('payment verdict', () => {
      const authorized = { status: 'requires_capture', places: 120 } as const;
      const settling = { status: 'settling', places: 120 } as const;

      it('keeps a verdict only when none is kept; a replacement and a drop always take effect', async () => {
        expect(await store.verdictOf('pi_1')).toBeUndefined();
        expect(await store.keepVerdict('pi_1', authorized, DAY_MS)).toBe(true);
        expect(await store.keepVerdict('pi_1', settling, DAY_MS)).toBe(false);
        expect(await store.verdictOf('pi_1')).toEqual(authorized);
        await store.replaceVerdict('pi_1', settling, DAY_MS);
        expect(await store.verdictOf('pi_1')).toEqual(settling);
        // A check that read the provider before the capture began cannot undo the capture's mark.
        expect(await store.keepVerdict('pi_1', authorized, DAY_MS)).toBe(false);
        expect(await store.verdictOf('pi_1')).toEqual(settling);
        await store.forgetVerdict('pi_1');
        expect(await store.verdictOf('pi_1')).toBeUndefined();
        await store.forgetVerdict('pi_1');
        expect(await store.verdictOf('pi_2')).toBeUndefined();
      });

      it('lets exactly one of concurrent keeps win', async () => {
        const kept = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.keepVerdict('pi_1', { status: 'requires_capture', places: i + 1 }, DAY_MS),
          ),
        );
        expect(kept.filter(Boolean)).toHaveLength(1);
        expect(await store.verdictOf('pi_1')).toEqual({
          status: 'requires_capture',
          places: kept.indexOf(true) + 1,
        });
      });

      it('keeps a verdict for the time it was given', async () => {
        await store.keepVerdict('pi_1', authorized, 2 * DAY_MS);
        await expectLifetime(
          { kind: 'verdict', intentId: 'pi_1' },
          2 * DAY_MS,
          async () => (await store.verdictOf('pi_1')) !== undefined,
        );
      });
    });

    describe('payment use', () => {
      const start = CONTRACT_START;

      it('makes a report due at most once a report interval, counted from the first use', async () => {
        const due = async (at: number) => (await store.recordUse('pi_1', at, MINUTE_MS)).reportDue;
        expect(await store.lastUseOf('pi_1')).toBeUndefined();
        expect(await due(start)).toBe(false);
        expect(await due(start + MINUTE_MS - 1)).toBe(false);
        expect(await due(start + MINUTE_MS)).toBe(true);
        expect(await due(start + MINUTE_MS + 1)).toBe(false);
        expect(await due(start + 2 * MINUTE_MS - 1)).toBe(false);
        expect(await due(start + 2 * MINUTE_MS + 5)).toBe(true);
        expect(await store.lastUseOf('pi_1')).toBe(start + 2 * MINUTE_MS + 5);
        expect(await store.lastUseOf('pi_2')).toBeUndefined();
      });

      it('never moves the last use back (instances whose clocks differ a little)', async () => {
        await store.recordUse('pi_1', start + 10, MINUTE_MS);
        await store.recordUse('pi_1', start, MINUTE_MS);
        expect(await store.lastUseOf('pi_1')).toBe(start + 10);
      });

      it('makes the report due for exactly one of concurrent uses', async () => {
        await store.recordUse('pi_1', start, MINUTE_MS);
        const uses = await Promise.all(
          Array.from({ length: 20 }, () => store.recordUse('pi_1', start + MINUTE_MS, MINUTE_MS)),
        );
        expect(uses.filter((use) => use.reportDue)).toHaveLength(1);
      });

      it('starts the idle time at the authorization, the first sighting standing', async () => {
        expect(await store.recordAuthorization('pi_1', start)).toBe(start);
        expect(await store.lastUseOf('pi_1')).toBe(start);
        // Seen again later (another check, another instance): the first sighting stands.
        expect(await store.recordAuthorization('pi_1', start + 5 * MINUTE_MS)).toBe(start);
        // The first lookup moves it on and reports nothing yet; the report interval starts there.
        expect((await store.recordUse('pi_1', start + MINUTE_MS, MINUTE_MS)).reportDue).toBe(false);
        expect(await store.lastUseOf('pi_1')).toBe(start + MINUTE_MS);
        expect((await store.recordUse('pi_1', start + 2 * MINUTE_MS, MINUTE_MS)).reportDue).toBe(
          true,
        );
        // Once used, a later sighting of the authorization changes nothing.
        expect(await store.recordAuthorization('pi_1', start + 9 * MINUTE_MS)).toBe(
          start + 2 * MINUTE_MS,
        );
        await store.recordUse('pi_2', start, MINUTE_MS);
        expect(await store.recordAuthorization('pi_2', start + MINUTE_MS)).toBe(start);
      });

      it("keeps an authorization's sighting 8 days", async () => {
        await store.recordAuthorization('pi_1', start);
        await expectLifetime(
          { kind: 'use', intentId: 'pi_1' },
          PAYMENT_STATE_TTL_MS,
          async () => (await store.lastUseOf('pi_1')) === start,
        );
      });

      it("keeps a payment's use 8 days after the last one", async () => {
        await store.recordUse('pi_1', start, MINUTE_MS);
        await expectLifetime(
          { kind: 'use', intentId: 'pi_1' },
          PAYMENT_STATE_TTL_MS,
          async () => (await store.lastUseOf('pi_1')) === start,
        );
      });
    });

    describe('free daily budget', () => {
      const now = CONTRACT_START;

      it('gives out the budget exactly and refuses past it, all or nothing', async () => {
        expect(await store.takeFreeLinks('203.0.113.9', 4, 20, now)).toEqual({
          ok: true,
          remaining: 16,
        });
        expect(await store.takeFreeLinks('203.0.113.9', 17, 20, now)).toEqual({
          ok: false,
          remaining: 16,
        });
        expect(await store.takeFreeLinks('203.0.113.9', 16, 20, now)).toEqual({
          ok: true,
          remaining: 0,
        });
        expect(await store.takeFreeLinks('203.0.113.9', 1, 20, now)).toEqual({
          ok: false,
          remaining: 0,
        });
        expect(await store.takeFreeLinks('203.0.113.9', 0, 20, now)).toEqual({
          ok: true,
          remaining: 0,
        });
        expect(await store.takeFreeLinks('2001:db8::/64', 20, 20, now)).toEqual({
          ok: true,
          remaining: 0,
        });
      });

      it('starts again on the next UTC day, not before', async () => {
        const lastMoment = Date.UTC(2031, 4, 14, 23, 59, 59, 999);
        expect(await store.takeFreeLinks('198.51.100.1', 20, 20, now)).toMatchObject({ ok: true });
        expect(await store.takeFreeLinks('198.51.100.1', 1, 20, lastMoment)).toEqual({
          ok: false,
          remaining: 0,
        });
        expect(await store.takeFreeLinks('198.51.100.1', 1, 20, lastMoment + 1)).toEqual({
          ok: true,
          remaining: 19,
        });
      });

      it('takes back links given back, never below none taken, on their own day only', async () => {
        await store.takeFreeLinks('192.0.2.20', 20, 20, now);
        await store.returnFreeLinks('192.0.2.20', 4, now);
        expect(await store.takeFreeLinks('192.0.2.20', 0, 20, now)).toEqual({
          ok: true,
          remaining: 4,
        });
        // More than was taken: the day's count goes to none, not below (no budget past 20).
        await store.returnFreeLinks('192.0.2.20', 50, now);
        expect(await store.takeFreeLinks('192.0.2.20', 21, 20, now)).toEqual({
          ok: false,
          remaining: 20,
        });
        // A client that took nothing, and another day, are untouched.
        await store.returnFreeLinks('192.0.2.21', 3, now);
        expect(await store.takeFreeLinks('192.0.2.21', 20, 20, now)).toMatchObject({ ok: true });
        await store.takeFreeLinks('192.0.2.22', 20, 20, now);
        await store.returnFreeLinks('192.0.2.22', 5, now + 24 * 60 * MINUTE_MS);
        expect(await store.takeFreeLinks('192.0.2.22', 1, 20, now)).toEqual({
          ok: false,
          remaining: 0,
        });
      });

      it('gives out exactly the budget to 30 concurrent calls', async () => {
        const results = await Promise.all(
          Array.from({ length: 30 }, () => store.takeFreeLinks('192.0.2.7', 1, 20, now)),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(20);
      });

      it("forgets the day's count once the day is over", async () => {
        await store.takeFreeLinks('192.0.2.8', 5, 20, now);
        const ttl = freeDayTtlMs(now);
        expect(ttl).toBe(12 * 60 * MINUTE_MS + 5 * MINUTE_MS);
        await expectLifetime(
          { kind: 'free', clientKey: '192.0.2.8', now },
          ttl,
          async () => (await store.takeFreeLinks('192.0.2.8', 0, 20, now)).remaining === 15,
        );
      });
    });

    describe('rate-limit counter', () => {
      it('counts hits in a window and disallows past the maximum', async () => {
        const first = await store.hit('resolve:192.0.2.1', 10 * MINUTE_MS, 2);
        expect(first).toMatchObject({ allowed: true, count: 1 });
        expect(first.resetMs).toBeLessThanOrEqual(10 * MINUTE_MS);
        expect(first.resetMs).toBeGreaterThan(10 * MINUTE_MS - LONGEST_TEST_MS);
        expect(await store.hit('resolve:192.0.2.1', 10 * MINUTE_MS, 2)).toMatchObject({
          allowed: true,
          count: 2,
        });
        const third = await store.hit('resolve:192.0.2.1', 10 * MINUTE_MS, 2);
        expect(third).toMatchObject({ allowed: false, count: 3 });
        expect(third.resetMs).toBeLessThanOrEqual(first.resetMs);
        expect(await store.hit('resolve:192.0.2.2', 10 * MINUTE_MS, 2)).toMatchObject({
          allowed: true,
          count: 1,
        });
      });

      it('counts every one of concurrent hits', async () => {
        const hits = await Promise.all(
          Array.from({ length: 25 }, () => store.hit('burst', 10 * MINUTE_MS, 10)),
        );
        expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 25 }, (_, i) => i + 1),
        );
        expect(hits.filter((h) => h.allowed)).toHaveLength(10);
      });

      it('starts a new window when the window is over', async () => {
        await store.hit('window', 10 * MINUTE_MS, 5);
        await expectLifetime(
          { kind: 'counter', key: 'window' },
          10 * MINUTE_MS,
          async () => (await store.hit('window', 10 * MINUTE_MS, 5)).count > 1,
        );
      });
    });

    describe('lease', () => {
      it('goes to one holder at a time, and only the holder gives it back', async () => {
        expect(await store.tryLease('settlement', 'instance-a', 5 * MINUTE_MS)).toBe(true);
        expect(await store.tryLease('settlement', 'instance-b', 5 * MINUTE_MS)).toBe(false);
        // The holder takes it again (a renewal, or after a release the store could not make).
        expect(await store.tryLease('settlement', 'instance-a', 5 * MINUTE_MS)).toBe(true);
        expect(await store.releaseLease('settlement', 'instance-b')).toBe(false);
        expect(await store.tryLease('settlement', 'instance-b', 5 * MINUTE_MS)).toBe(false);
        expect(await store.releaseLease('settlement', 'instance-a')).toBe(true);
        expect(await store.releaseLease('settlement', 'instance-a')).toBe(false);
        expect(await store.tryLease('settlement', 'instance-b', 5 * MINUTE_MS)).toBe(true);
        expect(await store.tryLease('other', 'instance-a', 5 * MINUTE_MS)).toBe(true);
      });

      it('goes to exactly one of concurrent holders', async () => {
        const won = await Promise.all(
          Array.from({ length: 10 }, (_, i) => store.tryLease('sweep', `holder-${i}`, MINUTE_MS)),
        );
        expect(won.filter(Boolean)).toHaveLength(1);
      });

      it("starts the holder's time again when it takes the lease again (a renewal)", async () => {
        const { time } = subject;
        expect(await store.tryLease('sweep', 'long', 5 * MINUTE_MS)).toBe(true);
        if (time.kind === 'clock') time.advance(4 * MINUTE_MS);
        expect(await store.tryLease('sweep', 'long', 5 * MINUTE_MS)).toBe(true);
        if (time.kind === 'clock') {
          time.advance(4 * MINUTE_MS);
          expect(await store.tryLease('sweep', 'other', 5 * MINUTE_MS)).toBe(false);
          time.advance(MINUTE_MS);
          expect(await store.tryLease('sweep', 'other', 5 * MINUTE_MS)).toBe(true);
        } else {
          expect(await store.tryLease('sweep', 'long', 20 * MINUTE_MS)).toBe(true);
          expect(await time.pttl({ kind: 'lease', name: 'sweep' })).toBeGreaterThan(
            20 * MINUTE_MS - LONGEST_TEST_MS,
          );
          expect(await store.tryLease('sweep', 'other', 5 * MINUTE_MS)).toBe(false);
        }
      });

      it('expires after its time, so a crashed holder does not block the others', async () => {
        await store.tryLease('sweep', 'crashed', 5 * MINUTE_MS);
        await expectLifetime(
          { kind: 'lease', name: 'sweep' },
          5 * MINUTE_MS,
          async () => !(await store.tryLease('sweep', 'next', 5 * MINUTE_MS)),
        );
      });
    });
  });
}
