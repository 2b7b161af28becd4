/**
 * Why a lookup gave no coordinates (product.md, Resolution): `not_found` (Google has no location
 * for it, or none we could trust), `throttled` (Google refused us; try later), `unavailable` (the
 * lookup failed: network, timeout, or a server error such as the API's 503 `overloaded`, which a
 * request refused as a whole gives all its links), `not_allowed` (not a Google Maps link), `limit`
 * (the payment's or free tier's allowance is used). The API answers the first four in `failures`;
 * an allowance used up refuses the whole request (402 or 403; 413 for more links than a free
 * request may hold), and the client marks those places `limit`.
 */
export type LookupFailure = 'not_found' | 'throttled' | 'unavailable' | 'not_allowed' | 'limit';

/** Every lookup failure, in the order the page lists them. */
export const LOOKUP_FAILURES: readonly LookupFailure[] = [
  'not_found',
  'throttled',
  'unavailable',
  'not_allowed',
  'limit',
];

/**
 * Why a place of a list got no coordinates: a lookup failure, or `no_link` (the row has no link at
 * all), `not_looked_up` (the link carries no coordinates and lookups were off) or `interrupted`
 * (the run was stopped, by Ctrl-C or Cancel, before its lookup was answered).
 */
export type UnplacedReason = LookupFailure | 'no_link' | 'not_looked_up' | 'interrupted';

/** One sentence per reason, for the failed-places CSV's `Reason` column and summaries. */
export const REASON_TEXT: Readonly<Record<UnplacedReason, string>> = {
  not_found: 'Google has no location for this place',
  throttled: 'Google refused the lookup; try again later',
  unavailable: 'The lookup failed (network, timeout or server error); try again',
  not_allowed: 'Not a Google Maps link',
  limit: 'The lookup allowance was used up',
  no_link: 'The row has no link',
  not_looked_up: 'The link has no coordinates and lookups were off',
  interrupted: 'Not looked up: the run was interrupted',
};

/** Type guard for reasons received from outside (the API, a worker message). */
export function isLookupFailure(value: unknown): value is LookupFailure {
  return typeof value === 'string' && (LOOKUP_FAILURES as readonly string[]).includes(value);
}
