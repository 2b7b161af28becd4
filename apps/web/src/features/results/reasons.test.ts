import { REASON_TEXT } from '@placeport/contract';
import { describe, expect, it } from 'vitest';
import type { UnplacedReason } from '../../worker/types';
import { FREE_LIMIT_ADVICE, REASON_ADVICE, reasonCounts } from './reasons';

const REASONS = Object.keys(REASON_ADVICE) as UnplacedReason[];

describe('the advice for places without coordinates', () => {
  it('is worded for one place and for several', () => {
    const [one] = reasonCounts([{ not_found: 1 }]);
    expect(one).toEqual({
      reason: 'not_found',
      count: 1,
      text: REASON_TEXT.not_found,
      advice:
        'Either your export holds no location for it (a closed or removed place), or a lookup found none we could trust. Check it in the failed-places CSV.',
    });
    const [two] = reasonCounts([{ not_found: 1 }, { not_found: 1 }]);
    expect(two?.count).toBe(2);
    expect(two?.advice).toBe(
      'Either your export holds no location for them (a closed or removed place), or a lookup found none we could trust. Check them in the failed-places CSV.',
    );
    expect(FREE_LIMIT_ADVICE(1)).toContain('looks it up in a new run');
    expect(FREE_LIMIT_ADVICE(3)).toContain('looks them up in a new run');
  });

  it.each(REASONS)(
    'for %s, says no "them" or "these" of one place, nor "it" of several',
    (reason) => {
      const one = REASON_ADVICE[reason](1);
      const several = REASON_ADVICE[reason](2);
      expect(one).not.toMatch(/\b(them|they|these|their)\b/i);
      expect(several).not.toMatch(/\b(it|its|this place|this row)\b/i);
      expect(one).not.toBe(several);
    },
  );

  it('lists the reasons of a run most actionable first, without zeros', () => {
    const groups = reasonCounts([
      { not_found: 2, throttled: 0 },
      { no_link: 1, throttled: 3 },
    ]);
    expect(groups.map((group) => [group.reason, group.count])).toEqual([
      ['throttled', 3],
      ['not_found', 2],
      ['no_link', 1],
    ]);
  });
});
