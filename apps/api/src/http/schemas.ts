import * as v from 'valibot';

/** A Stripe (or demo) PaymentIntent id: `pi_` and letters, digits or underscores. */
export const PaymentIntentId = v.pipe(
  v.string('paymentIntentId must be a string.'),
  v.regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'paymentIntentId must be a payment id such as pi_123.'),
);

/** A whole number of places, 0 or more. */
export const Count = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number.`),
    v.integer(`${name} must be a whole number.`),
    v.minValue(0, `${name} cannot be negative.`),
    v.maxValue(Number.MAX_SAFE_INTEGER, `${name} is too large.`),
  );

/** A finite number of dollars. */
export const Dollars = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number of dollars.`),
    v.finite(`${name} must be a finite number.`),
  );

/** JSON schema of the one error shape, for response serialisation. */
const ERROR_RESPONSE = {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
} as const;

/** Response schemas for a route: its success body, and the error shape for 4xx and 5xx. */
export function responses(ok: object): Record<string, object> {
  return { 200: ok, '4xx': ERROR_RESPONSE, '5xx': ERROR_RESPONSE };
}

/** A JSON-schema object whose listed properties are all required and nothing else is sent. */
export function exactObject(properties: Record<string, object>, optional: string[] = []): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
  };
}
