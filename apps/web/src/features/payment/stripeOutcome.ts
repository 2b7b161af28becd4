/**
 * What Stripe's `confirmPayment` came to, as the page's authorization outcome. Kept apart from the
 * Stripe form so it is checked without Stripe.js.
 */
import type { PaymentIntentResult, StripeError } from '@stripe/stripe-js';
import type { AuthorizationOutcome } from '../../state/effects';
import { MESSAGES } from '../../state/messages';

/** Intent statuses that mean the card is authorized and the amount is held. */
const AUTHORIZED_STATUSES: ReadonlySet<string> = new Set(['requires_capture', 'succeeded']);

/** Stripe's code for a step the intent's status does not allow (confirming it twice, say). */
const UNEXPECTED_STATE = 'payment_intent_unexpected_state';

/** Stripe's error type when Stripe.js got no answer from Stripe: the confirmation may have gone through. */
const CONNECTION_ERROR = 'api_connection_error';

/** True when Stripe's error leaves open whether the intent was authorized. */
function mayBeAuthorized(error: StripeError): boolean {
  if (error.type === CONNECTION_ERROR) return true;
  return error.code === UNEXPECTED_STATE && error.payment_intent?.status === undefined;
}

/**
 * The outcome of a confirmation. A confirmation refused because the intent is already authorized
 * (an earlier try's answer was lost: Stripe answers with the intent, in `requires_capture`) is
 * authorized; refused for its state without the intent, or without an answer from Stripe (the
 * connection dropped after Stripe may have authorized it), the page asks the API
 * (`maybeAuthorized`).
 */
export function confirmationOutcome(result: PaymentIntentResult): AuthorizationOutcome {
  if (result.error) {
    const { error } = result;
    const status = error.payment_intent?.status;
    if (status !== undefined && AUTHORIZED_STATUSES.has(status)) return { ok: true };
    return {
      ok: false,
      message: error.message ?? MESSAGES.unexpected,
      ...(mayBeAuthorized(error) ? { maybeAuthorized: true } : {}),
    };
  }
  const { status } = result.paymentIntent;
  return AUTHORIZED_STATUSES.has(status)
    ? { ok: true }
    : { ok: false, message: `The payment was not authorized (status: ${status}).` };
}
