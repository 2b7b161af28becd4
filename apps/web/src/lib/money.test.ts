import {
  chargeCents,
  isUnderMinimum,
  MINIMUM_CHARGE_CENTS,
  PRICE_PER_PLACE_CENTS,
} from '@placeport/contract';
import { describe, expect, it } from 'vitest';
import { centsToDollars, formatUsd } from './money';

describe('money', () => {
  it('charges $0.10 a place, in integer cents', () => {
    expect(PRICE_PER_PLACE_CENTS).toBe(10);
    expect(chargeCents(0)).toBe(0);
    expect(chargeCents(37)).toBe(370);
    expect(chargeCents(100_000)).toBe(1_000_000);
  });

  it('is free under the $0.50 minimum and charged from it on', () => {
    expect(MINIMUM_CHARGE_CENTS).toBe(50);
    expect(isUnderMinimum(chargeCents(4))).toBe(true);
    expect(isUnderMinimum(chargeCents(5))).toBe(false);
    expect(isUnderMinimum(49)).toBe(true);
    expect(isUnderMinimum(50)).toBe(false);
  });

  it('sends dollars without float noise', () => {
    expect(centsToDollars(chargeCents(3))).toBe(0.3);
    expect(centsToDollars(chargeCents(7))).toBe(0.7);
    expect(centsToDollars(chargeCents(123))).toBe(12.3);
  });

  it('shows two decimals', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(10)).toBe('$0.10');
    expect(formatUsd(370)).toBe('$3.70');
    expect(formatUsd(1_000_000)).toBe('$10,000.00');
    expect(formatUsd(123_456_789)).toBe('$1,234,567.89');
  });
});
