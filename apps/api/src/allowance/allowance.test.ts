import { describe, expect, it } from 'vitest';
import { LinkAllowance } from './allowance.js';
import { FREE_TIER_MAX_URLS, MAX_URLS_PER_CALL } from './limits.js';

function code(action: () => void): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('LinkAllowance', () => {
  it(`allows ${FREE_TIER_MAX_URLS} links without a payment and refuses one more`, () => {
    const allowance = new LinkAllowance();
    expect(code(() => allowance.checkFree(FREE_TIER_MAX_URLS))).toBeUndefined();
    expect(code(() => allowance.checkFree(FREE_TIER_MAX_URLS + 1))).toBe('payment_required');
  });

  it("allows a payment's place count per call and refuses one more", () => {
    const allowance = new LinkAllowance();
    expect(code(() => allowance.reserve('pi_a', 13, 12))).toBe('too_many_urls');
    expect(code(() => allowance.reserve('pi_a', 12, 12))).toBeUndefined();
  });

  it('never allows more than MAX_URLS_PER_CALL per call, however large the payment', () => {
    const allowance = new LinkAllowance();
    expect(code(() => allowance.reserve('pi_a', MAX_URLS_PER_CALL + 1, 100_000))).toBe(
      'too_many_urls',
    );
    expect(code(() => allowance.reserve('pi_a', MAX_URLS_PER_CALL, 100_000))).toBeUndefined();
  });

  it('counts links over all calls of one payment, booking nothing on refusal', () => {
    const allowance = new LinkAllowance();
    allowance.reserve('pi_a', 8, 12);
    expect(code(() => allowance.reserve('pi_a', 5, 12))).toBe('link_allowance_used');
    expect(code(() => allowance.reserve('pi_a', 4, 12))).toBeUndefined();
    expect(code(() => allowance.reserve('pi_a', 1, 12))).toBe('link_allowance_used');
    expect(code(() => allowance.reserve('pi_b', 12, 12))).toBeUndefined();
  });

  it('tracks a bounded number of payments, forgetting the oldest', () => {
    const allowance = new LinkAllowance(2);
    allowance.reserve('pi_a', 12, 12);
    allowance.reserve('pi_b', 12, 12);
    expect(code(() => allowance.reserve('pi_a', 1, 12))).toBe('link_allowance_used');
    allowance.reserve('pi_c', 12, 12);
    expect(code(() => allowance.reserve('pi_b', 1, 12))).toBe('link_allowance_used');
    expect(code(() => allowance.reserve('pi_a', 1, 12))).toBeUndefined();
  });
});
