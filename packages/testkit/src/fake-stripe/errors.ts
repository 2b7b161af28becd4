/** The error body Stripe sends; the `stripe` SDK turns it into a typed error (`StripeInvalidRequestError`…). */
export interface StripeErrorBody {
  type:
    | 'invalid_request_error'
    | 'card_error'
    | 'idempotency_error'
    | 'api_error'
    | 'authentication_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  payment_intent?: unknown;
}

/** A Stripe-shaped failure: HTTP status plus the `{ error }` body. */
export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

/** `resource_missing` (404), what Stripe answers for an unknown id. */
export function resourceMissing(id: string): FakeStripeError {
  return new FakeStripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param: 'intent',
    message: `No such payment_intent: '${id}'`,
  });
}

/** `payment_intent_unexpected_state` (400): the action is not allowed in the intent's status. */
export function unexpectedState(
  action: 'capture' | 'cancel' | 'confirm',
  status: string,
  allowed: readonly string[],
  intent: unknown,
): FakeStripeError {
  const verb = action === 'capture' ? 'captured' : action === 'cancel' ? 'canceled' : 'confirmed';
  return new FakeStripeError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent could not be ${verb} because it has a status of ${status}. Only a PaymentIntent with one of the following statuses may be ${verb}: ${allowed.join(', ')}.`,
    payment_intent: intent,
  });
}

/** A generic invalid parameter (400). */
export function invalidParam(
  param: string,
  message: string,
  code = 'parameter_invalid',
): FakeStripeError {
  return new FakeStripeError(400, { type: 'invalid_request_error', code, param, message });
}
