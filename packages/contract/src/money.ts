/**
 * The money rules every side of PlacePort shares (seed section 9, product.md "Money"), in integer
 * cents so no float ever decides a charge. The API enforces them; the page and the CLI only show
 * and ask for what they allow.
 */

/** $0.10 a converted place (seed section 9). */
export const PRICE_PER_PLACE_CENTS = 10;

/** Stripe's minimum card charge in USD: a smaller charge converts free, with no card. */
export const MINIMUM_CHARGE_CENTS = 50;

/** The fewest places a payment covers (5 at $0.10): a smaller selection converts free. */
export const MIN_PAID_PLACES = MINIMUM_CHARGE_CENTS / PRICE_PER_PLACE_CENTS;

/**
 * The most places one payment may cover: the page stays responsive on archives of 100,000 places
 * (product.md), so that is the largest honest selection; $10,000 is far under Stripe's own ceiling.
 */
export const MAX_PAYMENT_PLACES = 100_000;

/**
 * The most places a demo payment covers where other machines can reach the API (`DEMO_PAYMENTS=on`):
 * there demo mode is for trying PlacePort, not free lookups. On loopback, where only the person at
 * this machine can use it, a demo payment has no cap of its own: it covers up to the
 * {@link MAX_PAYMENT_PLACES} every payment may.
 */
export const REACHABLE_DEMO_MAX_PLACES = 1_000;

/** The charge for `places` places at the per-place price, in cents. */
export function chargeCents(places: number): number {
  return places * PRICE_PER_PLACE_CENTS;
}

/** True when a charge is under the minimum: no card is asked for, and a hold is cancelled. */
export function isUnderMinimum(cents: number): boolean {
  return cents < MINIMUM_CHARGE_CENTS;
}
