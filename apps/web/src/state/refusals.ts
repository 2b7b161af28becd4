/**
 * What the page says when the API refuses a call: the cause, in plain words, and what the person
 * can do about it (issue 17, part 7). The API's codes (`{ error: { code, message } }`) decide the
 * sentence, with the numbers the refusal carries (`limit`, `per`, `amountCaptured`), never read
 * out of its message; "try again" is said only where asking again can work (a busy or unreachable
 * service, a limit that passes), never after a refusal that would only come back (an amount, a
 * demo cap). A refusal without a known code keeps the seed's own message.
 */
import {
  FREE_TIER_MAX_URLS,
  GOOGLE_UNREACHABLE,
  MAX_PAYMENT_PLACES,
  MIN_PAID_PLACES,
  MINIMUM_CHARGE_CENTS,
} from '@placeport/contract';
import type { Refusal } from '../api/http';
import { formatCount, formatPlaces } from '../lib/format';
import { formatUsd } from '../lib/money';
import { captureFailedMessage, MESSAGES, releaseFailedMessage } from './messages';

/** What the sentences may name: the selection's places and the contact address. */
export interface RefusalContext {
  /** Places the payment was asked for (the selection's chargeable places). */
  places: number;
  contactEmail: string;
  /** The chosen list with the most places: a list is converted whole, never in part. */
  largestList?: { name: string; places: number } | null;
}

/**
 * What to do when a selection is over what one payment covers (`limit` places): choose fewer
 * lists, unless one list alone is over it, which the page cannot convert (a list is converted whole).
 */
function overPaymentAdvice(
  limit: number | undefined,
  context: RefusalContext,
  fewerLists: string,
): string {
  const largest = context.largestList;
  if (limit !== undefined && largest && largest.places > limit) {
    return `The list "${largest.name}" alone has ${formatPlaces(largest.places)}, and a list is converted whole, so it cannot be converted here. Nothing was charged.`;
  }
  return fewerLists;
}

/** "in a minute", "in 40 seconds", "in a moment": when asking again may work, from `Retry-After`. */
export function waitFor(refusal: Refusal): string {
  const seconds = refusal.retryAfterSeconds;
  if (seconds === null || seconds <= 5) return 'in a moment';
  if (seconds < 60) return `in ${Math.ceil(seconds)} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'in a minute' : `in ${minutes} minutes`;
}

/** Refusals any call can meet: the shared state away, too many requests. */
function commonRefusal(refusal: Refusal): string | null {
  switch (refusal.code) {
    case 'rate_limited':
      return `Too many requests came from your address in the last minute. Wait a minute, then try again.`;
    case 'store_unavailable':
      return `The server cannot reach its payment records right now. Nothing was charged by this step. Try again ${waitFor(refusal)}.`;
    case 'shutting_down':
      return `The server is restarting. Nothing was charged by this step. Try again ${waitFor(refusal)}.`;
    default:
      return null;
  }
}

/**
 * "Proceed to Payment" was refused (`POST /api/create-payment-intent`). Null for a failure the API
 * did not explain (no answer, a 500): the seed's "Failed to initialize payment. Please try again."
 * fits it.
 */
export function intentRefusalText(refusal: Refusal | null, context: RefusalContext): string {
  if (refusal === null) return MESSAGES.intentFailed;
  const places = formatPlaces(context.places);
  switch (refusal.code) {
    case 'demo_limit': {
      const limit =
        refusal.limit === undefined
          ? 'a limited number of places'
          : `at most ${formatCount(refusal.limit)} places`;
      return `Demo payments on this server cover ${limit}, and this selection has ${places}. ${overPaymentAdvice(refusal.limit, context, 'Choose fewer lists, then Proceed to Payment (you can convert the others in another run).')}`;
    }
    case 'too_many_places': {
      const cap = formatCount(refusal.limit ?? MAX_PAYMENT_PLACES);
      return `One payment covers at most ${cap} places, and this selection has ${places}. ${overPaymentAdvice(refusal.limit ?? MAX_PAYMENT_PLACES, context, 'Choose fewer lists, then convert the others in another run.')}`;
    }
    case 'below_minimum_charge':
      return `Card payments start at ${formatUsd(MINIMUM_CHARGE_CENTS)} (${MIN_PAID_PLACES} places), and this selection is smaller: choose it alone to convert it for free, or add lists.`;
    case 'invalid_amount':
      return `The server did not accept the amount this page asked for ${places}, so no payment was started and nothing was charged. This is a fault of the page, not yours: reload it, and if it happens again, write to ${context.contactEmail}.`;
    case 'too_many_payments': {
      const span = refusal.per === 'day' ? 'a day' : 'an hour';
      const max = refusal.limit;
      return `${max === undefined ? 'Only a few' : `At most ${max}`} payments can be started from one address in ${span}, and yours has reached that. Nothing was charged. Try again ${span === 'a day' ? 'tomorrow' : 'in an hour'}.`;
    }
    case 'store_full':
      return `Too many payments are open on this server right now. Nothing was charged. Try again in a few minutes.`;
    case 'payment_provider_unavailable':
      return `The payment provider (Stripe) could not be reached, so no payment was started and nothing was charged. Try again ${waitFor(refusal)}.`;
    case 'payments_unavailable':
      return `Payments are not available on this server right now, so paid conversions cannot start; nothing was charged. Selections under ${MIN_PAID_PLACES} places still convert for free. Please write to ${context.contactEmail}.`;
    case 'payment_rejected':
      return `The payment provider refused to start this payment, so nothing was charged. If it refuses again, please write to ${context.contactEmail}.`;
    case 'payload_too_large':
    case 'unsupported_media_type':
    case 'invalid_json':
    case 'invalid_request':
    case 'bad_request':
      return `The server could not read the payment request this page sent, so nothing was charged. This is a fault of the page: reload it, and if it happens again, write to ${context.contactEmail}.`;
    default:
      return commonRefusal(refusal) ?? MESSAGES.intentFailed;
  }
}

/**
 * "Authorize Payment & Convert" in demo mode was refused (`POST /api/demo/authorize`). The button is
 * enabled again, so "try again" is said only where pressing it again can work.
 */
export function authorizeRefusalText(refusal: Refusal | null): string {
  if (refusal === null) return MESSAGES.unexpected;
  switch (refusal.code) {
    case 'payment_not_found':
      return 'The server no longer knows this payment (it may have restarted), so it cannot be authorized; nothing was charged. Go Back to Selection and choose Proceed to Payment again.';
    case 'payment_unexpected_state':
      return 'This payment was already used or cancelled, so it cannot be authorized again; nothing more was charged. Go Back to Selection and choose Proceed to Payment again.';
    case 'payment_provider_unavailable':
      return `The payment provider could not be reached, so nothing was authorized or charged. Try again ${waitFor(refusal)}.`;
    default:
      return commonRefusal(refusal) ?? (refusal.message || MESSAGES.unexpected);
  }
}

/**
 * The capture after the results was refused (`POST /api/capture-payment`): what became of the hold
 * and what the person can do, quoting the payment's reference. The page does not ask again; the
 * server settles a hold left open by itself (product.md "Money": within 30 minutes of its last use,
 * charged only for the places it looked up).
 */
export function captureRefusalText(refusal: Refusal | null, reference: string): string {
  return settleRefusalText(refusal, reference, captureFailedMessage(reference));
}

/**
 * The release of a failed run's hold was refused: as {@link captureRefusalText}, and for a cause
 * the API did not name, the release warning with the reference.
 */
export function releaseRefusalText(refusal: Refusal | null, reference: string): string {
  return settleRefusalText(refusal, reference, releaseFailedMessage(reference));
}

/**
 * "Settle it now" was not asked: another tab of this browser holds the payment's Web Lock (its run
 * uses the payment, or it is settling it), and settling it from here would pull the hold from
 * under that run.
 */
export const PAYMENT_IN_USE_TEXT =
  'This payment is in use in another tab; settle it there or try again when that tab is done.';

/**
 * The capture (or release) got no answer (the connection dropped), or an error that is not the
 * API's (`status`: a proxy's 500 or 502 page): the page asks again, and cannot tell yet whether the
 * server settled the payment.
 */
export function captureRetryText(reference: string, status?: number): string {
  const after =
    'If it cannot, the server settles it by itself within 30 minutes, charging only for the places it looked up.';
  if (status !== undefined) {
    return `The server answered with an error (HTTP ${status}) when this page asked it to settle your payment, so this page does not know yet what was charged; your card may still hold the authorization. It asks again shortly. ${after} Reference: ${reference}`;
  }
  return `This page got no answer when it asked the server to settle your payment, so it does not know yet what was charged; your card may still hold the authorization. It asks again shortly, and as soon as your connection is back. ${after} Reference: ${reference}`;
}

function settleRefusalText(refusal: Refusal | null, reference: string, fallback: string): string {
  const quoted = ` Reference: ${reference}`;
  const later =
    'The server settles it by itself within 30 minutes, charging only for the places it looked up; nothing more is needed from you.';
  switch (refusal?.code) {
    case 'payment_provider_unavailable':
      return `Stripe could not be reached to settle your payment, so your card still holds the authorization. ${later}${quoted}`;
    case 'store_unavailable':
      return `The server could not reach its payment records to settle your payment, so your card still holds the authorization. ${later}${quoted}`;
    case 'shutting_down':
      return `The server was restarting when asked to settle your payment, so your card still holds the authorization. ${later}${quoted}`;
    case 'payment_cancelled':
      return `This payment's authorization was already cancelled, so nothing was charged.${quoted}`;
    case 'already_captured': {
      const amount = refusal!.amountCaptured;
      const charged = amount === undefined ? '' : ` (${formatUsd(amount * 100)} charged)`;
      return `This payment was already settled${charged}; it is not charged again.${quoted}`;
    }
    case 'payment_not_found':
      return `The server does not know this payment any more (it may have restarted), so it could not settle it here. ${later} Please contact support if you were charged incorrectly.${quoted}`;
    default:
      return fallback;
  }
}

/** The payment of a run was no longer accepted for its lookups. */
function paymentLostText(paid: boolean): string {
  return `The payment of this run was no longer accepted for lookups (it was settled, or the server restarted), so the rest were not looked up. "Retry failed places" starts a new run${paid ? ', with its own payment,' : ''} for just those places.`;
}

/**
 * Why the lookups of a run were refused (`POST /api/resolve-urls-batch`, seen by the worker), for
 * the results: one sentence per cause, with what to do. `paid` tells a run with a payment from a
 * free one: a paid run refused as if it had none (`payment_required`, or the body cap of a
 * browser without a payer cookie, `payload_too_large`) was refused because the server lost its
 * payment, and is told so.
 */
export function lookupRefusalText(refusal: Refusal, paid: boolean): string {
  switch (refusal.code) {
    case 'free_budget_used': {
      const perDay = refusal.limit ?? 'a few';
      return `Today's free lookups (${perDay} a day for each address) are used up or too few for these places, so the places that need one were not looked up. A paid selection of ${MIN_PAID_PLACES} places or more looks them all up; or retry them for free tomorrow.`;
    }
    case 'payment_required':
      // A paid run refused as unpaid: the server no longer knows its payment (it restarted).
      if (paid) return paymentLostText(paid);
      return `Without a payment, only ${FREE_TIER_MAX_URLS} places can be looked up at a time, so the others were not looked up. A paid selection of ${MIN_PAID_PLACES} places or more looks them all up.`;
    case 'link_allowance_used': {
      const covered = refusal.limit;
      return `This payment's lookups were used up${covered === undefined ? '' : ` (it covers ${formatCount(covered)} places)`}, so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.`;
    }
    case 'too_many_urls':
      return 'The server refused lookups sent in requests too large for this payment, so those places were not looked up. "Retry failed places" sends them again in a new run.';
    case 'payment_not_authorized':
    case 'payment_not_found':
      return paymentLostText(paid);
    case 'payload_too_large':
      // The body cap of a browser without a payer cookie: a paid run's server lost its payment.
      if (paid) return paymentLostText(paid);
      return `The lookup service refused some lookups (${refusal.message || refusal.code}). Use "Retry failed places" to look them up again.`;
    case 'overloaded':
      return `The lookup service was too busy to take more lookups. Places not converted are not charged: use "Retry failed places" ${waitFor(refusal)} to look them up again.`;
    case 'rate_limited':
      return 'Too many lookups came from your address in a short time. Wait a minute, then use "Retry failed places".';
    case 'store_unavailable':
    case 'store_full':
      return `The server could not reach its shared records, so some places were not looked up. Use "Retry failed places" ${waitFor(refusal)}.`;
    case 'shutting_down':
      return `The server was restarting, so some places were not looked up. Places not converted are not charged: use "Retry failed places" ${waitFor(refusal)}.`;
    case GOOGLE_UNREACHABLE:
      return `Cannot reach Google: PlacePort's server gets no answer from Google right now, so those places were not looked up. Places not converted are not charged: use "Retry failed places" ${waitFor(refusal)}.`;
    default:
      return `The lookup service refused some lookups (${refusal.message || refusal.code}). Use "Retry failed places" to look them up again.`;
  }
}

/**
 * The refusals of a run's lookups the results name: one per sentence, so causes that come to the
 * same thing (a paid run whose payment the server lost, refused in several ways) are said once.
 */
export function distinctLookupRefusals(refusals: readonly Refusal[], paid: boolean): Refusal[] {
  const said = new Set<string>();
  return refusals.filter((refusal) => {
    const sentence = lookupRefusalText(refusal, paid);
    if (said.has(sentence)) return false;
    said.add(sentence);
    return true;
  });
}

/** "Convert with the Held Payment", but another tab's run took the hold first: a new one is asked. */
export const HELD_PAYMENT_IN_USE_TEXT =
  'The payment held from your last visit is in use in another tab, so it cannot be used here. Authorize a new payment to convert.';

/** "Convert with the Held Payment", but the hold was settled meanwhile (by the server's sweep). */
export const HELD_PAYMENT_SETTLED_TEXT =
  'The payment held from your last visit was settled meanwhile, so it cannot be used for this conversion. Authorize a new payment to convert.';

/** "Convert with the Held Payment", but the API could not say whether the hold is still open. */
export const HELD_PAYMENT_UNCHECKED_TEXT =
  'Could not check the payment held from your last visit: the server did not answer. Try again in a moment.';
