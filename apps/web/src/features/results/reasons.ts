/**
 * Why places could not be placed, in plain words with what the person can do (product.md,
 * "Resolution reasons"). The converter's `REASON_TEXT` is the one-line sentence the failed-places
 * CSV carries; the page adds the advice.
 */
import { REASON_TEXT } from '@placeport/contract';
import type { UnplacedReason } from '../../worker/types';

/**
 * What the person can do about places left without coordinates for each reason, in the order the
 * reasons are listed: the ones a person can act on first.
 */
export const REASON_ADVICE: Readonly<Record<UnplacedReason, string>> = {
  throttled: 'Google refused the lookups for now. Try them again later with "Retry failed places".',
  unavailable: '"Retry failed places" looks them up again, now or in a few minutes.',
  limit:
    'The lookups allowed for this payment were used up. "Retry failed places" starts a new run for just these places.',
  interrupted:
    'The conversion was stopped before they were looked up. "Retry failed places" looks them up in a new run.',
  not_looked_up: 'Their links carry no coordinates and were not looked up.',
  not_found:
    'Either your export holds no location for them (a closed or removed place), or a lookup found none we could trust. Check them in the failed-places CSV.',
  not_allowed:
    'Their links are not Google Maps place links (web pages, shopping links), so there is nothing to look up.',
  no_link: 'These rows have no link at all, so there is nothing to place.',
};

/**
 * The `limit` advice of a run without a payment: what was used up is the free tier's daily
 * allowance (product.md, "Free lookups are a small daily budget"), not a payment's.
 */
export const FREE_LIMIT_ADVICE =
  'Today\'s free lookups were used up. "Retry failed places" looks them up in a new run: paid, or free again tomorrow.';

/** The reasons of a run, summed over its lists, most actionable first, without zeros. */
export function reasonCounts(
  unplaced: readonly Partial<Record<UnplacedReason, number>>[],
): Array<{ reason: UnplacedReason; count: number; text: string; advice: string }> {
  return (Object.keys(REASON_ADVICE) as UnplacedReason[]).flatMap((reason) => {
    const count = unplaced.reduce((sum, counts) => sum + (counts[reason] ?? 0), 0);
    return count > 0
      ? [{ reason, count, text: REASON_TEXT[reason], advice: REASON_ADVICE[reason] }]
      : [];
  });
}
