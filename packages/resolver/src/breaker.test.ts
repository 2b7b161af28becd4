import { describe, expect, it } from 'vitest';
import { Breaker } from './breaker.js';

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
});
