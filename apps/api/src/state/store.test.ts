import { describe, expect, it } from 'vitest';
import { freeDayTtlMs, FREE_DAY_GRACE_MS, utcDayOf } from './store.js';

describe('UTC day of the free budget', () => {
  it('names the day in UTC and lasts until its end plus a grace', () => {
    const late = Date.UTC(2031, 11, 31, 23, 59, 59, 999);
    expect(utcDayOf(late)).toBe('2031-12-31');
    expect(utcDayOf(late + 1)).toBe('2032-01-01');
    expect(freeDayTtlMs(late)).toBe(1 + FREE_DAY_GRACE_MS);
    expect(freeDayTtlMs(late + 1)).toBe(24 * 60 * 60 * 1000 + FREE_DAY_GRACE_MS);
  });
});
