/**
 * Why places could not be placed, in plain words with what the person can do (product.md,
 * "Resolution reasons"). The converter's `REASON_TEXT` is the one-line sentence the failed-places
 * CSV carries; the page adds the advice.
 */
import { REASON_TEXT } from '@placeport/contract';
import type { UnplacedReason } from '../../worker/types';

/** The words for places counted: one place is "it", several are "them". */
function wordsFor(count: number) {
  const one = count === 1;
  return {
    them: one ? 'it' : 'them',
    they: one ? 'it was' : 'they were',
    these: one ? 'this place' : 'these places',
  };
}

/**
 * What the person can do about places left without coordinates for each reason, in the order the
 * reasons are listed: the ones a person can act on first; worded for the number of places.
 */
export const REASON_ADVICE: Readonly<Record<UnplacedReason, (count: number) => string>> = {
  throttled: (count) =>
    `Google refused the ${count === 1 ? 'lookup' : 'lookups'} for now. Try ${wordsFor(count).them} again later with "Retry failed places".`,
  unavailable: (count) =>
    `"Retry failed places" looks ${wordsFor(count).them} up again, now or in a few minutes.`,
  limit: (count) =>
    `The lookups allowed for this payment were used up. "Retry failed places" starts a new run for just ${wordsFor(count).these}.`,
  interrupted: (count) =>
    `The conversion was stopped before ${wordsFor(count).they} looked up. "Retry failed places" looks ${wordsFor(count).them} up in a new run.`,
  not_looked_up: (count) =>
    count === 1
      ? 'Its link carries no coordinates and was not looked up.'
      : 'Their links carry no coordinates and were not looked up.',
  not_found: (count) =>
    `Either your export holds no location for ${wordsFor(count).them} (a closed or removed place), or a lookup found none we could trust. Check ${wordsFor(count).them} in the failed-places CSV.`,
  not_allowed: (count) =>
    count === 1
      ? 'Its link is not a Google Maps place link (a web page, a shopping link), so there is nothing to look up.'
      : 'Their links are not Google Maps place links (web pages, shopping links), so there is nothing to look up.',
  no_link: (count) =>
    count === 1
      ? 'This row has no link at all, so there is nothing to place.'
      : 'These rows have no link at all, so there is nothing to place.',
};

/**
 * The `limit` advice of a run without a payment: what was used up is the free tier's daily
 * allowance (product.md, "Free lookups are a small daily budget"), not a payment's.
 */
export const FREE_LIMIT_ADVICE = (count: number) =>
  `Today's free lookups were used up. "Retry failed places" looks ${wordsFor(count).them} up in a new run: paid, or free again tomorrow.`;

/** The reasons of a run, summed over its lists, most actionable first, without zeros. */
export function reasonCounts(
  unplaced: readonly Partial<Record<UnplacedReason, number>>[],
): Array<{ reason: UnplacedReason; count: number; text: string; advice: string }> {
  return (Object.keys(REASON_ADVICE) as UnplacedReason[]).flatMap((reason) => {
    const count = unplaced.reduce((sum, counts) => sum + (counts[reason] ?? 0), 0);
    return count > 0
      ? [{ reason, count, text: REASON_TEXT[reason], advice: REASON_ADVICE[reason](count) }]
      : [];
  });
}
