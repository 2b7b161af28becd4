import { describe, expect, it } from 'vitest';
import { MAX_PAYMENT_PLACES as MAX_PLACES, MINIMUM_CHARGE_CENTS } from '@placeport/contract';
import { dollarsToCents, placesForAmount } from './money.js';

function refusal(amount: number): string | undefined {
  try {
    placesForAmount(amount);
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('dollarsToCents', () => {
  it('reads float sums of dimes as exact cents', () => {
    expect(dollarsToCents(0.1 + 0.2, 'amount')).toBe(30);
    expect(dollarsToCents(1234 * 0.1, 'amount')).toBe(12340);
    expect(dollarsToCents(MAX_PLACES * 0.1, 'amount')).toBe(MAX_PLACES * 10);
  });

  it('refuses fractions of a cent', () => {
    expect(() => dollarsToCents(0.305, 'amount')).toThrow('whole number of cents');
    expect(() => dollarsToCents(0.3000001, 'amount')).toThrow('whole number of cents');
  });
});

describe('placesForAmount', () => {
  it('derives the place count from the maximum charge', () => {
    expect(placesForAmount(1.2)).toEqual({ cents: 120, places: 12 });
  });

  it('accepts the $0.50 minimum and refuses just under it', () => {
    expect(placesForAmount(MINIMUM_CHARGE_CENTS / 100)).toEqual({ cents: 50, places: 5 });
    expect(refusal(0.4)).toBe('below_minimum_charge');
    expect(refusal(0.49)).toBe('invalid_amount');
  });

  it('accepts exactly MAX_PLACES places and refuses one more', () => {
    expect(placesForAmount(MAX_PLACES / 10).places).toBe(MAX_PLACES);
    expect(refusal((MAX_PLACES + 1) / 10)).toBe('too_many_places');
  });

  it.each([
    [0, 'invalid_amount'],
    [-1, 'invalid_amount'],
    [-0.1, 'invalid_amount'],
    [0.85, 'invalid_amount'],
    [1.21, 'invalid_amount'],
    [1.2000001, 'invalid_amount'],
    [Number.NaN, 'invalid_amount'],
    [Number.POSITIVE_INFINITY, 'invalid_amount'],
    [1e308, 'invalid_amount'],
  ])('refuses %s with %s', (amount, code) => {
    expect(refusal(amount)).toBe(code);
  });
});
