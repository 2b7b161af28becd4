import { describe, expect, it } from 'vitest';
import { clientKeyOf, freeDayTtlMs, FREE_DAY_GRACE_MS, utcDayOf } from './store.js';

describe('clientKeyOf', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['::1', '::/64'],
    ['not an address', 'not an address'],
  ])('%s → %s', (ip, key) => {
    expect(clientKeyOf(ip)).toBe(key);
  });

  it('gives every address of one /64 the same key, and the next /64 another', () => {
    expect(clientKeyOf('2001:db8:aa:bb::1')).toBe(clientKeyOf('2001:db8:aa:bb:9:8:7:6'));
    expect(clientKeyOf('2001:db8:aa:bc::1')).not.toBe(clientKeyOf('2001:db8:aa:bb::1'));
  });
});

describe('UTC day of the free budget', () => {
  it('names the day in UTC and lasts until its end plus a grace', () => {
    const late = Date.UTC(2031, 11, 31, 23, 59, 59, 999);
    expect(utcDayOf(late)).toBe('2031-12-31');
    expect(utcDayOf(late + 1)).toBe('2032-01-01');
    expect(freeDayTtlMs(late)).toBe(1 + FREE_DAY_GRACE_MS);
    expect(freeDayTtlMs(late + 1)).toBe(24 * 60 * 60 * 1000 + FREE_DAY_GRACE_MS);
  });
});
