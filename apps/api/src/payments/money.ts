import {
  isUnderMinimum,
  MAX_PAYMENT_PLACES,
  MIN_PAID_PLACES,
  MINIMUM_CHARGE_CENTS,
  PRICE_PER_PLACE_CENTS,
} from '@placeport/contract';
import { PaymentError } from './errors.js';

/** How far a dollar amount may sit from whole cents and still count as exact (binary floats). */
const CENT_TOLERANCE = 1e-6;

/**
 * Converts a dollar amount from the browser to integer cents, refusing amounts that are not whole
 * cents. `0.3` is `30`; `0.305` is refused. The float check avoids trusting `Math.round` alone.
 */
export function dollarsToCents(amount: number, field: string): number {
  if (!Number.isFinite(amount)) {
    throw new PaymentError('invalid_amount', `${field} must be a number of dollars.`);
  }
  const cents = Math.round(amount * 100);
  if (!Number.isSafeInteger(cents)) {
    throw new PaymentError('invalid_amount', `${field} is too large.`);
  }
  if (Math.abs(amount * 100 - cents) >= CENT_TOLERANCE) {
    throw new PaymentError('invalid_amount', `${field} must be a whole number of cents.`);
  }
  return cents;
}

/** Formats cents as dollars for messages, e.g. `$0.50`. */
export function formatDollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/**
 * Checks the maximum charge sent at intent creation and derives the place count from it: the
 * amount must be positive, a whole number of places at $0.10, at least Stripe's $0.50 minimum (a
 * smaller selection needs no payment) and at most {@link MAX_PAYMENT_PLACES} places.
 */
export function placesForAmount(amount: number): { cents: number; places: number } {
  const cents = dollarsToCents(amount, 'amount');
  if (cents <= 0) {
    throw new PaymentError('invalid_amount', 'amount must be more than $0.00.');
  }
  if (cents % PRICE_PER_PLACE_CENTS !== 0) {
    throw new PaymentError(
      'invalid_amount',
      `amount must be a whole number of places at ${formatDollars(PRICE_PER_PLACE_CENTS)} each.`,
    );
  }
  if (isUnderMinimum(cents)) {
    throw new PaymentError(
      'below_minimum_charge',
      `Payments start at ${formatDollars(MINIMUM_CHARGE_CENTS)}: selections under ${MIN_PAID_PLACES} places convert free, without a payment.`,
    );
  }
  const places = cents / PRICE_PER_PLACE_CENTS;
  if (places > MAX_PAYMENT_PLACES) {
    throw new PaymentError(
      'too_many_places',
      `A payment can cover at most ${MAX_PAYMENT_PLACES.toLocaleString('en-US')} places (${formatDollars(MAX_PAYMENT_PLACES * PRICE_PER_PLACE_CENTS)}).`,
      { limit: MAX_PAYMENT_PLACES },
    );
  }
  return { cents, places };
}
