// @vitest-environment node
import type { PaymentIntent, PaymentIntentResult, StripeError } from '@stripe/stripe-js';
import { describe, expect, it } from 'vitest';
import { confirmationOutcome } from './stripeOutcome';

const intent = (status: PaymentIntent['status']) => ({ id: 'pi_1', status }) as PaymentIntent;
const refused = (error: Partial<StripeError>) =>
  ({ error: { type: 'invalid_request_error', ...error } }) as PaymentIntentResult;

describe('confirmationOutcome', () => {
  it('is authorized when the intent holds the amount', () => {
    expect(confirmationOutcome({ paymentIntent: intent('requires_capture') })).toEqual({
      ok: true,
    });
    expect(confirmationOutcome({ paymentIntent: intent('requires_action') })).toEqual({
      ok: false,
      message: 'The payment was not authorized (status: requires_action).',
    });
  });

  it('is authorized when Stripe refuses to confirm again an intent already authorized (a lost answer)', () => {
    const again = refused({
      code: 'payment_intent_unexpected_state',
      message:
        'This PaymentIntent could not be confirmed because it has a status of requires_capture.',
      payment_intent: intent('requires_capture'),
    });
    expect(confirmationOutcome(again)).toEqual({ ok: true });
  });

  it('asks the API when Stripe refuses for the intent state without naming it', () => {
    expect(
      confirmationOutcome(refused({ code: 'payment_intent_unexpected_state', message: 'No.' })),
    ).toEqual({ ok: false, message: 'No.', maybeAuthorized: true });
  });

  it('asks the API when Stripe.js got no answer from Stripe: the card may be held already', () => {
    const lost = refused({
      type: 'api_connection_error',
      message: 'We could not connect to Stripe.',
    });
    expect(confirmationOutcome(lost)).toEqual({
      ok: false,
      message: 'We could not connect to Stripe.',
      maybeAuthorized: true,
    });
  });

  it("passes a decline on in Stripe's words", () => {
    const declined = refused({
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
      payment_intent: intent('requires_payment_method'),
    });
    expect(confirmationOutcome(declined)).toEqual({
      ok: false,
      message: 'Your card was declined.',
    });
  });
});
