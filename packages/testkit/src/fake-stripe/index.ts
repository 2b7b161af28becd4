export { startFakeStripe, type FakeStripe, type RecordedStripeRequest } from './server.js';
export { AUTHORIZATION_LIFETIME_SECONDS, type FakePaymentIntent } from './payment-intents.js';
