import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { PaymentFailure, type PaymentFailureKind } from './provider.js';

const ANSWERS: Record<PaymentFailureKind, [status: number, code: string, message: string]> = {
  not_found: [404, 'payment_not_found', 'No payment with this id was found.'],
  unexpected_state: [
    409,
    'payment_unexpected_state',
    'The payment is not in a state that allows this step. Nothing was charged by this request.',
  ],
  amount_too_small: [
    400,
    'below_minimum_charge',
    'The payment provider refuses amounts under $0.50.',
  ],
  conflict: [
    409,
    'payment_conflict',
    'This payment is already being settled with other amounts. Nothing more was charged.',
  ],
  card_declined: [402, 'card_declined', 'The card was declined.'],
  invalid_request: [400, 'payment_rejected', 'The payment provider refused the request.'],
  unavailable: [
    503,
    'payment_provider_unavailable',
    'The payment provider could not be reached. Please try again in a moment.',
  ],
  misconfigured: [
    503,
    'payments_unavailable',
    'Payments are not available right now. Please contact support.',
  ],
};

/** How long to wait before asking again when the provider could not be reached. */
export const PROVIDER_RETRY_AFTER_SECONDS = 10;

/**
 * Runs a payment step and turns provider failures into the API's clear messages. The provider's own
 * text (which can name keys, accounts or amounts) goes to the log, never to the browser. With a
 * `reference` (capture), the message quotes the payment it was about (product.md, Receipt); an
 * unreachable provider is a 503 with `Retry-After` (asking again never charges twice: capture and
 * cancel carry idempotency keys, and an authorization left open is settled by the sweep).
 */
export async function withPaymentErrors<T>(
  step: () => Promise<T>,
  log: (detail: string) => void,
  reference?: string,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PaymentFailure) throw paymentAnswer(error, log, reference);
    throw error;
  }
}

/** The API's answer to a provider failure (see {@link withPaymentErrors}); logs its own words. */
export function paymentAnswer(
  failure: PaymentFailure,
  log: (detail: string) => void,
  reference?: string,
): ApiError {
  log(`${failure.kind}: ${failure.message}`);
  const [status, code, message] = ANSWERS[failure.kind];
  const quoted = reference ? `${message} Payment reference: ${reference}.` : message;
  const retryAfter = failure.kind === 'unavailable' ? PROVIDER_RETRY_AFTER_SECONDS : undefined;
  return new ApiError(status, code, quoted, retryAfter);
}

/** Logs a provider's own words on the request (never sent to the browser). */
export function providerLog(request: FastifyRequest): (detail: string) => void {
  return (detail) => request.log.warn({ provider: detail }, 'payment provider refused');
}
