export {
  startFakeStripe,
  type FailureOptions,
  type FakeStripe,
  type RecordedStripeRequest,
} from './server.js';
export type { FakePaymentIntent } from './payment-intents.js';
