import type { RefusalFields } from '@placeport/contract';
import { PaymentFailure } from './provider.js';

/** Where the payment domain tells of a provider's own words (the request's log, or the sweep's). */
export type Log = (detail: string) => void;

/**
 * Why the payment domain or the allowance refused a step; the HTTP edge (`http/errors.ts`) gives
 * each its status. `not_authorized`: no more lookups; `not_authorized_yet`: no capture yet.
 */
export type PaymentErrorCode =
  | 'payment_required'
  | 'free_budget_used'
  | 'too_many_urls'
  | 'link_allowance_used'
  | 'invalid_amount'
  | 'below_minimum_charge'
  | 'too_many_places'
  | 'demo_limit'
  | 'invalid_counts'
  | 'amount_mismatch'
  | 'count_mismatch'
  | 'not_a_placeport_payment'
  | 'not_authorized'
  | 'not_authorized_yet'
  | 'already_captured'
  | 'payment_cancelled';

/**
 * A step refused, with its code, what to tell the person and the numbers of the refusal (the
 * contract's `RefusalFields`); nothing of it was done.
 */
export class PaymentError extends Error {
  constructor(
    readonly code: PaymentErrorCode,
    message: string,
    readonly fields?: RefusalFields,
  ) {
    super(message);
    this.name = 'PaymentError';
  }
}

/**
 * The refusal of more lookups on a payment that is not (or no longer) authorized: before a batch
 * is looked up, and after, when its places came too late to be charged.
 */
export function notAuthorized(): PaymentError {
  return new PaymentError(
    'not_authorized',
    'This payment is not authorized, so it cannot cover more links.',
  );
}

/**
 * Runs a provider call; a {@link PaymentFailure} is logged in the provider's own words (they
 * never reach the browser) and thrown on.
 */
export function providerStep<T>(step: () => Promise<T>, log: Log): Promise<T> {
  return step().catch((error: unknown) => {
    if (error instanceof PaymentFailure) log(`${error.kind}: ${error.message}`);
    throw error;
  });
}
