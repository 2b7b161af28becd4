/** Limits of the resolve route (the resolver's own are in `@placeport/resolver`). */

/** Free conversions are under 5 places (under the $0.50 minimum), so a batch without a payment holds at most 4 links. */
export const FREE_TIER_MAX_URLS = 4;
/** Hard cap on links per call, whatever the payment covers; the converter sends chunks of 100 to 500. */
export const MAX_URLS_PER_CALL = 1000;
