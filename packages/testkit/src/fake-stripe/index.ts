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
  type SeedIntentsOptions,
  type SeedStatus,
} from './payment-intents.js';
export {
  METADATA_MAX_KEYS,
  METADATA_MAX_KEY_LENGTH,
  METADATA_MAX_VALUE_LENGTH,
} from './metadata.js';
export {
  DEFAULT_LIMIT as STRIPE_DEFAULT_LIST_LIMIT,
  MAX_LIMIT as STRIPE_MAX_LIST_LIMIT,
  type StripeList,
  type StripeSearchResult,
} from './listing.js';
export { MAX_SEARCH_CLAUSES } from './search-query.js';
export type { StripeErrorBody } from './errors.js';
export { decodeForm, type FormObject } from './form.js';
