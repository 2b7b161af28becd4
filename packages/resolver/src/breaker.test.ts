import { describe, expect, it } from 'vitest';
import { Breaker } from './breaker.js';
import { UNREACHABLE_AFTER_FAILURES, UNREACHABLE_BACKOFF_MAX_MS } from './limits.js';

function clockAt(start: number, random = 0.5) {
  const clock = {
    time: start,
    now: () => clock.time,
    setTimeout: () => 0,
    clearTimeout: () => {},
    random: () => random,
  };
  return clock;
}

describe('Breaker', () => {
  it('lets everything through until Google refuses, then nothing until the pause ends', () => {
    const clock = clockAt(0);
    const breaker = new Breaker(clock, { backoffBaseMs: 1_000, backoffMaxMs: 60_000 });
    expect(breaker.allow()).toBe(true);
    expect(breaker.allow()).toBe(true);
    breaker.refused();
    expect(breaker.allow()).toBe(false);
    expect(breaker.retryAfterMs()).toBe(1_000);
    clock.time = 999;
    expect(breaker.allow()).toBe(false);
    clock.time = 1_000;
    expect(breaker.allow()).toBe(true);
    // Half-open: one probe at a time.
    expect(breaker.allow()).toBe(false);
    breaker.succeeded();
    expect(breaker.allow()).toBe(true);
    expect(breaker.refusing).toBe(false);
  });

  it('doubles the pause on each refusal up to the maximum, with ±50% jitter', () => {
    for (const [random, factor] of [
      [0, 0.5],
      [0.5, 1],
      [0.999, 1.499],
    ] as const) {
      const clock = clockAt(0, random);
      const breaker = new Breaker(clock, { backoffBaseMs: 1_000, backoffMaxMs: 5_000 });
      const pauses = [1, 2, 3, 4].map(() => {
        // Each refusal is a probe's, once the previous pause is over.
        clock.time += breaker.retryAfterMs();
        breaker.refused();
        return breaker.retryAfterMs();
      });
      expect(pauses).toEqual([1_000, 2_000, 4_000, 5_000].map((ms) => Math.round(ms * factor)));
    }
  });

  it('a probe that ends without an answer lets the next caller probe', () => {
    const clock = clockAt(0);
    const breaker = new Breaker(clock, { backoffBaseMs: 10, backoffMaxMs: 10 });
    breaker.refused();
    clock.time = 10;
    expect(breaker.allow()).toBe(true);
    breaker.inconclusive();
    expect(breaker.allow()).toBe(true);
    breaker.refused();
    expect(breaker.allow()).toBe(false);
  });

  it(`opens when Google cannot be reached: ${UNREACHABLE_AFTER_FAILURES} requests in a row without an answer`, () => {
    const clock = clockAt(0);
    const breaker = new Breaker(clock, { backoffBaseMs: 1_000, backoffMaxMs: 60_000 });
    for (let i = 1; i < UNREACHABLE_AFTER_FAILURES; i += 1) breaker.unreachable();
    expect(breaker.allow()).toBe(true);
    breaker.unreachable();
    expect(breaker.allow()).toBe(false);
    expect(breaker.cause).toBe('unreachable');
    expect(breaker.retryAfterMs()).toBe(1_000);
    // The probe finds Google still out of reach: open again, for twice as long.
    clock.time = 1_000;
    expect(breaker.allow()).toBe(true);
    breaker.unreachable();
    expect(breaker.allow()).toBe(false);
    expect(breaker.retryAfterMs()).toBe(2_000);
    // Any answer closes it and clears the count.
    clock.time = 3_000;
    expect(breaker.allow()).toBe(true);
    breaker.succeeded();
    for (let i = 1; i < UNREACHABLE_AFTER_FAILURES; i += 1) breaker.unreachable();
    expect(breaker.allow()).toBe(true);
  });

  it('failures of requests in flight while it is open do not lengthen the pause', () => {
    const clock = clockAt(0);
    const breaker = new Breaker(clock, { backoffBaseMs: 1_000, backoffMaxMs: 900_000 });
    for (let i = 0; i < UNREACHABLE_AFTER_FAILURES; i += 1) breaker.unreachable();
    expect(breaker.retryAfterMs()).toBe(1_000);
    // The other 24 of 32 requests in flight fail too, and a 429 arrives.
    for (let i = 0; i < 24; i += 1) breaker.unreachable();
    breaker.refused();
    expect(breaker.retryAfterMs()).toBe(1_000);
    clock.time = 1_000;
    expect(breaker.allow()).toBe(true);
    breaker.unreachable();
    expect(breaker.retryAfterMs()).toBe(2_000);
  });

  it('an answer between failures means Google is reachable: the count starts again', () => {
    const breaker = new Breaker(clockAt(0), { backoffBaseMs: 1_000, backoffMaxMs: 60_000 });
    for (let round = 0; round < 3; round += 1) {
      for (let i = 1; i < UNREACHABLE_AFTER_FAILURES; i += 1) breaker.unreachable();
      breaker.succeeded();
    }
    expect(breaker.allow()).toBe(true);
    expect(breaker.refusing).toBe(false);
    breaker.refused();
    expect(breaker.cause).toBe('refused');
  });

  it(`while unreachable, pauses at most ${UNREACHABLE_BACKOFF_MAX_MS / 1000} s; refused, up to its maximum`, () => {
    const pausesAfter = (fail: (breaker: Breaker) => void) => {
      const clock = clockAt(0);
      const breaker = new Breaker(clock, { backoffBaseMs: 30_000, backoffMaxMs: 900_000 });
      return [1, 2, 3, 4, 5].map(() => {
        clock.time += breaker.retryAfterMs();
        breaker.allow();
        fail(breaker);
        return breaker.retryAfterMs();
      });
    };
    const probeUnreachable = (breaker: Breaker) => {
      // The first time, the failures in a row; then each probe's own.
      if (!breaker.refusing)
        for (let i = 1; i < UNREACHABLE_AFTER_FAILURES; i += 1) breaker.unreachable();
      breaker.unreachable();
    };
    expect(pausesAfter(probeUnreachable)).toEqual([30_000, 60_000, 60_000, 60_000, 60_000]);
    expect(pausesAfter((breaker) => breaker.refused())).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000,
    ]);
  });

  it('tells whoever waits when its probe is answered, whatever the answer', async () => {
    const clock = clockAt(0);
    const breaker = new Breaker(clock, { backoffBaseMs: 1_000, backoffMaxMs: 1_000 });
    expect(breaker.probe).toBeUndefined();
    breaker.refused();
    // Open and not probing: nothing to wait for, the caller fails at once.
    expect(breaker.probe).toBeUndefined();
    for (const answer of ['succeeded', 'refused', 'unreachable', 'inconclusive'] as const) {
      clock.time += breaker.retryAfterMs();
      if (!breaker.refusing) breaker.refused();
      clock.time += breaker.retryAfterMs();
      expect(breaker.allow()).toBe(true);
      const probe = breaker.probe;
      expect(probe).toBeInstanceOf(Promise);
      let told = false;
      void probe!.then(() => (told = true));
      await Promise.resolve();
      expect(told).toBe(false);
      breaker[answer]();
      await probe;
      expect(told).toBe(true);
      expect(breaker.probe).toBeUndefined();
    }
  });
});
