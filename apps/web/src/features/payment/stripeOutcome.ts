/**
 * What Stripe's `confirmPayment` came to, as the page's authorization outcome. Kept apart from the
 * Stripe form so it is checked without Stripe.js.
 */
import type { PaymentIntentResult } from '@stripe/stripe-js';
import type { AuthorizationOutcome } from '../../state/effects';
import { MESSAGES } from '../../state/messages';

/** Intent statuses that mean the card is authorized and the amount is held. */
const AUTHORIZED_STATUSES: ReadonlySet<string> = new Set(['requires_capture', 'succeeded']);

/** Stripe's code for a step the intent's status does not allow (confirming it twice, say). */
const UNEXPECTED_STATE = 'payment_intent_unexpected_state';

/**
 * The outcome of a confirmation. A confirmation refused because the intent is already authorized
 * (an earlier try's answer was lost: Stripe answers with the intent, in `requires_capture`) is
 * authorized; refused for its state without the intent, the page asks the API
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
      ...(error.code === UNEXPECTED_STATE && status === undefined ? { maybeAuthorized: true } : {}),
    };
  }
  const { status } = result.paymentIntent;
  return AUTHORIZED_STATUSES.has(status)
    ? { ok: true }
    : { ok: false, message: `The payment was not authorized (status: ${status}).` };
}
