import { describe, expect, it } from 'vitest';
import { createLookupEta, ETA_WARMUP_MS, formatSecondsLeft } from './eta';

describe('createLookupEta', () => {
  it('waits for a first answer and a few seconds, then extrapolates the measured rate', () => {
    const eta = createLookupEta();
    expect(eta.update(0, 600, 0)).toBeNull();
    // The first answer starts the clock: the time before it was one request's latency.
    expect(eta.update(100, 600, 10_000)).toBeNull();
    expect(eta.update(120, 600, 10_000 + ETA_WARMUP_MS - 1)).toBeNull();
    // 100 more in 5 s: 20 a second, 400 left → 20 s.
    expect(eta.update(200, 600, 15_000)).toBe(20);
    expect(eta.update(600, 600, 35_000)).toBe(0);
  });

  it('gives nothing while no lookup has been answered since the clock started', () => {
    const eta = createLookupEta();
    eta.update(5, 10, 0);
    expect(eta.update(5, 10, 60_000)).toBeNull();
  });
});

describe('formatSecondsLeft', () => {
  it.each([
    [3, 'less than 10 s left'],
    [29, 'about 30 s left'],
    [61, 'about 1 min left'],
    [3_569, 'about 59 min left'],
    [3_900, 'about 1 h 5 min left'],
    [7_200, 'about 2 h left'],
  ])('%i s → %s', (seconds, text) => {
    expect(formatSecondsLeft(seconds)).toBe(text);
  });
});
