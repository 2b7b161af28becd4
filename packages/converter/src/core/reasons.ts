import type { UnplacedReason } from '@placeport/contract';

/** The reasons, their sentences and the guard are the contract's (what the API answers too). */
export { LOOKUP_FAILURES, REASON_TEXT, isLookupFailure } from '@placeport/contract';
export type { LookupFailure, UnplacedReason } from '@placeport/contract';

/** Failures worth another try before the run ends (product.md: retried with back-off within 120 s). */
export const RETRYABLE_FAILURES: ReadonlySet<UnplacedReason> = new Set([
  'throttled',
  'unavailable',
]);

/**
 * Reasons a new run may fix ("Retry failed places"): the lookup was refused, failed, ran out of
 * allowance, or was not made (lookups off, or the run interrupted). `not_found`, `not_allowed` and
 * `no_link` would only fail again.
 */
export const RETRYABLE_AGAIN: ReadonlySet<UnplacedReason> = new Set([
  'throttled',
  'unavailable',
  'limit',
  'not_looked_up',
  'interrupted',
]);
