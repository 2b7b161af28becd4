import {
  coordinatesForCid,
  FAKE_GOOGLE_API_KEY,
  FAKE_GOOGLE_DISABLED_KEY,
  THROTTLE_MODES,
} from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createResolver, type ResolverOptions } from '../src/resolver.js';
import { placeLink, pointOf, rig, type Rig } from './support.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

const links = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => placeLink(from + i));

/**
 * A resolver on `rig`'s fake Google with a clock the test moves (`advance`), one slot and a 30 s
 * first back-off, so a test can stand inside and past the pause.
 */
function backingOffResolver(rig: Rig, more: Partial<ResolverOptions> = {}) {
  let now = 1_000_000;
  const clock = {
    now: () => now,
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    random: () => 0.5,
  };
  const resolver = createResolver({
    fetch: globalThis.fetch,
    mapsOrigin: rig.google.url,
    clock,
    tuning: { concurrency: 1, backoffBaseMs: 30_000, retryDelayMs: 1 },
    ...more,
  });
  return { resolver, advance: (ms: number) => (now += ms) };
}

describe('when Google refuses us, the rest of the batch is not sent', () => {
  it.each(THROTTLE_MODES)('%s: one request, every link reported throttled', async (mode) => {
    // One slot, so the batch goes one by one and the refusal is seen before the next request.
    r = await rig({ tuning: { concurrency: 1 } });
    r.google.setThrottleAll(mode);
    const batch = links(300, 12);
    const outcome = await r.resolver.resolve(batch);
    expect(Object.keys(outcome.results)).toEqual([]);
    expect(Object.values(outcome.failures)).toEqual(batch.map(() => 'throttled'));
    expect(r.google.requests).toHaveLength(1);
  });

  it('keeps refusing while backing off, then probes once and recovers', async () => {
    r = await rig();
    const { resolver, advance } = backingOffResolver(r);
    r.google.setThrottleAll(429);
    await resolver.resolve([placeLink(320)]);
    r.google.setThrottleAll(undefined);
    r.google.clearRequests();
    advance(29_000);
    const during = await resolver.resolve([placeLink(321)]);
    expect(during.failures[placeLink(321)]).toBe('throttled');
    expect(r.google.requests).toHaveLength(0);
    advance(2_000);
    const after = await resolver.resolve(links(322, 3));
    expect(Object.values(after.results).map(pointOf)).toEqual(
      ['322', '323', '324'].map((cid) => coordinatesForCid(cid)),
    );
  });

  it('lets a probe through again after the last one was cut off (caller gone, deadline)', async () => {
    r = await rig();
    const { resolver, advance } = backingOffResolver(r);
    r.google.setThrottleAll(429);
    await resolver.resolve([placeLink(350)]);
    r.google.setThrottleAll(undefined);
    advance(31_000);
    // The pause is over: the next request is the probe, and it hangs until its caller goes away.
    r.google.setPlace('351', { hang: true });
    const gone = new AbortController();
    const probing = resolver.resolve([placeLink(351)], { signal: gone.signal });
    await until(() => r!.google.requests.length === 2);
    gone.abort();
    expect((await probing).failures[placeLink(351)]).toBe('unavailable');

    // Google answers again, and the next lookup is let through rather than refused for ever.
    const after = await resolver.resolve([placeLink(352)]);
    expect(pointOf(after.results[placeLink(352)])).toEqual(coordinatesForCid('352'));
    expect(r.google.requests).toHaveLength(3);
  });

  it('the Places API being refused falls back to the place pages', async () => {
    r = await rig({ apiKey: true, tuning: { concurrency: 1 } });
    r.google.setPlace('330', { placesApi: { status: 429 } });
    const outcome = await r.resolver.resolve(links(330, 3));
    expect(Object.values(outcome.results).map(pointOf)).toEqual(
      ['330', '331', '332'].map((cid) => coordinatesForCid(cid)),
    );
    // After the refusal, no more Places API calls: its breaker is open.
    expect(outcome.report.upstreamRequests).toEqual({ places: 1, pages: 3 });
  });

  it.each([
    ['an invalid key', 'nope', 'API_KEY_INVALID'],
    [
      'a key whose project has not enabled the Places API',
      FAKE_GOOGLE_DISABLED_KEY,
      'SERVICE_DISABLED',
    ],
  ])(
    '%s: the pages answer every place, the key is not offered again, the report says why',
    async (_, key, reason) => {
      const told: string[] = [];
      r = await rig({ apiKey: key, onPlacesKeyRejected: (why) => told.push(why) });
      const first = await r.resolver.resolve(links(400, 40));
      expect(links(400, 40).map((link) => pointOf(first.results[link]))).toEqual(
        Array.from({ length: 40 }, (_, i) => coordinatesForCid(String(400 + i))),
      );
      expect(first.report.placesKeyRejected).toBe(reason);
      expect(told).toEqual([reason]);
      // At most the requests already in flight when the first refusal came back were refused.
      expect(first.report.upstreamRequests.places).toBeLessThanOrEqual(32);
      expect(first.report.upstreamRequests.pages).toBe(40);
      const second = await r.resolver.resolve(links(440, 5));
      expect(second.report.upstreamRequests).toEqual({ places: 0, pages: 5 });
      expect(second.report.placesKeyRejected).toBe(reason);
      expect(told).toHaveLength(1);
    },
  );

  it('a refused key is tried again after its pause, and answered once the API was enabled', async () => {
    r = await rig();
    let enabled = false;
    const told: string[] = [];
    const { resolver, advance } = backingOffResolver(r, {
      placesOrigin: r.google.url,
      googleMapsApiKey: FAKE_GOOGLE_DISABLED_KEY,
      // The project turns the Places API on: Google now answers this key (the fake, its own key).
      fetch: (input, init) => {
        const headers = { ...(init?.headers as Record<string, string>) };
        if (enabled && headers['X-Goog-Api-Key']) headers['X-Goog-Api-Key'] = FAKE_GOOGLE_API_KEY;
        return globalThis.fetch(input, { ...init, headers });
      },
      onPlacesKeyRejected: (why) => told.push(why),
    });
    const refused = await resolver.resolve([placeLink(460)]);
    expect(refused.report).toMatchObject({
      upstreamRequests: { places: 1, pages: 1 },
      placesKeyRejected: 'SERVICE_DISABLED',
    });
    enabled = true;
    advance(29_000);
    expect((await resolver.resolve([placeLink(461)])).report.upstreamRequests.places).toBe(0);
    advance(2_000);
    const fixed = await resolver.resolve([placeLink(462)]);
    expect(fixed.report.upstreamRequests).toEqual({ places: 1, pages: 0 });
    expect(fixed.report.placesKeyRejected).toBeUndefined();
    expect(pointOf(fixed.results[placeLink(462)])).toEqual(coordinatesForCid('462'));
    expect(told).toEqual(['SERVICE_DISABLED']);
  });

  it('a place Google refuses on its own is throttled; 5xx is unavailable after one retry', async () => {
    r = await rig({ tuning: { concurrency: 1 } });
    r.google.setPlace('341', { status: 500 });
    const outcome = await r.resolver.resolve([placeLink(341)]);
    expect(outcome.failures).toEqual({ [placeLink(341)]: 'unavailable' });
    expect(r.google.requests).toHaveLength(2);
  });
});

describe('when Google cannot be reached at all', () => {
  it.each([
    ['connections are refused', 'http://127.0.0.1:9'],
    ['its name does not resolve', 'http://maps-upstream.invalid'],
  ])(
    '%s: a handful of attempts, then every link unavailable (unreachable) without sending',
    async (_case, origin) => {
      const { createResolver } = await import('../src/resolver.js');
      const { UNREACHABLE_AFTER_FAILURES } = await import('../src/limits.js');
      let attempts = 0;
      const resolver = createResolver({
        fetch: (input, init) => {
          attempts += 1;
          return globalThis.fetch(input, init);
        },
        mapsOrigin: origin,
        tuning: { concurrency: 4, retryDelayMs: 1 },
      });
      const batch = links(900, 200);
      const outcome = await resolver.resolve(batch);
      expect(outcome.results).toEqual({});
      expect(Object.values(outcome.failures)).toEqual(batch.map(() => 'unavailable'));
      // The breaker opened after a handful; the rest were never sent.
      expect(outcome.report.details.unreachable).toBeGreaterThan(150);
      expect(attempts).toBeLessThanOrEqual(2 * (UNREACHABLE_AFTER_FAILURES + 4));
    },
  );
});

describe('when Google comes back', () => {
  it("the lookups waiting beside the breaker's probe go on once it is answered, not fail with it", async () => {
    r = await rig();
    let down = true;
    let sent = 0;
    const { resolver, advance } = backingOffResolver(r, {
      fetch: (input, init) => {
        sent += 1;
        return down ? Promise.reject(new TypeError('fetch failed')) : globalThis.fetch(input, init);
      },
      tuning: { concurrency: 8, backoffBaseMs: 30_000, retryDelayMs: 1 },
    });
    const outage = await resolver.resolve(links(600, 20));
    expect(Object.values(outage.failures)).toEqual(links(600, 20).map(() => 'unavailable'));
    expect(outage.report.details.unreachable).toBeGreaterThan(0);
    down = false;
    // Within the pause nothing is sent; past it, one probe and then every other lookup.
    advance(29_000);
    sent = 0;
    expect((await resolver.resolve([placeLink(650)])).report.details).toEqual({ unreachable: 1 });
    expect(sent).toBe(0);
    advance(2_000);
    const back = await resolver.resolve(links(660, 40));
    expect(back.failures).toEqual({});
    expect(links(660, 40).map((link) => pointOf(back.results[link]))).toEqual(
      Array.from({ length: 40 }, (_, i) => coordinatesForCid(String(660 + i))),
    );
  });
});

/** Resolves once `done` holds, checking every 10 ms (the test's own timeout bounds it). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}
