export {
  startFakeStripe,
  FAKE_STRIPE_SECRET_KEY,
  FAKE_STRIPE_PUBLISHABLE_KEY,
  type FakeStripe,
  type FakeStripeOptions,
  type RecordedStripeRequest,
} from './server.js';
export {
  AUTHORIZATION_LIFETIME_SECONDS,
  STRIPE_MINIMUM_CHARGE_CENTS,
  type FakePaymentIntent,
  type PaymentIntentStatus,
} from './payment-intents.js';
export type { StripeErrorBody } from './errors.js';
export { decodeForm, type FormObject } from './form.js';
