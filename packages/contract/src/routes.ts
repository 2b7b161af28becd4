/**
 * Each HTTP route of the API written once (architecture.md "Contracts"), as valibot schemas: the
 * API validates request bodies with them and serialises its answers through their JSON Schema
 * (`apps/api/src/http/schemas.ts`), the page and the CLI read the types (`import type`, so valibot
 * never reaches the page's first bundle), and the API's tests check its real answers against them.
 * Amounts cross in dollars; everything else of PlacePort keeps integer cents.
 */
import * as v from 'valibot';
import { PAYMENT_CAP_SPANS, type ErrorBody } from './errors.js';
import { MAX_URL_LENGTH, MAX_URLS_PER_CALL } from './limits.js';
import { LOOKUP_FAILURES } from './reasons.js';
import { PAYMENT_STATES, PAYMENTS_MODES } from './states.js';

/** A Stripe (or demo) PaymentIntent id: `pi_` and letters, digits or underscores. */
export const PaymentIntentId = v.pipe(
  v.string('paymentIntentId must be a string.'),
  v.regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'paymentIntentId must be a payment id such as pi_123.'),
);

/** A whole number of places, 0 or more. */
const Count = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number.`),
    v.integer(`${name} must be a whole number.`),
    v.minValue(0, `${name} cannot be negative.`),
    v.maxValue(Number.MAX_SAFE_INTEGER, `${name} is too large.`),
  );

/** A finite number of dollars. */
const Dollars = (name: string) =>
  v.pipe(
    v.number(`${name} must be a number of dollars.`),
    v.finite(`${name} must be a finite number.`),
  );

/** `GET /api/config`: the page's runtime settings and the prices it shows. */
export const PublicConfig = v.strictObject({
  productName: v.string(),
  contactEmail: v.string(),
  payments: v.picklist(PAYMENTS_MODES),
  /** Present in Stripe mode. */
  publishableKey: v.optional(v.string()),
  pricePerPlaceCents: v.pipe(v.number(), v.integer()),
  minimumChargeCents: v.pipe(v.number(), v.integer()),
});
export type PublicConfig = v.InferOutput<typeof PublicConfig>;

/**
 * `GET /api/health`: `ok` stays true while the process serves; `degraded` while the shared state
 * is away (pages and settings served, payments and lookups not); the state's kind.
 */
export const Health = v.strictObject({
  ok: v.literal(true),
  status: v.picklist(['ok', 'degraded']),
  store: v.picklist(['memory', 'redis', 'unavailable']),
});
export type Health = v.InferOutput<typeof Health>;

/** `POST /api/create-payment-intent`: the selection's maximum charge, in dollars. */
export const CreateIntentBody = v.strictObject({ amount: Dollars('amount') });
export type CreateIntentBody = v.InferOutput<typeof CreateIntentBody>;

/** Its answer: what the browser needs to authorize the payment. */
export const CreatedIntent = v.strictObject({
  clientSecret: v.string(),
  paymentIntentId: v.string(),
});
export type CreatedIntent = v.InferOutput<typeof CreatedIntent>;

/**
 * `POST /api/capture-payment`: what the run converted and the charge the page claims (dollars),
 * numbers the server verifies, never trusts (seed section 7).
 */
export const CaptureBody = v.strictObject({
  paymentIntentId: PaymentIntentId,
  actualAmount: Dollars('actualAmount'),
  convertedCount: Count('convertedCount'),
  totalCount: Count('totalCount'),
});
export type CaptureBody = v.InferOutput<typeof CaptureBody>;

/**
 * Its answer, the receipt of product.md (dollars): whether the authorization was cancelled, what
 * was held, charged and released, and the payment's reference.
 */
export const CaptureReceipt = v.strictObject({
  cancelled: v.boolean(),
  amountCaptured: v.number(),
  amountAuthorized: v.number(),
  amountReleased: v.number(),
  reference: v.string(),
});
export type CaptureReceipt = v.InferOutput<typeof CaptureReceipt>;

/** `GET /api/payments/:id`: the payment's id. */
export const PaymentStatusParams = v.strictObject({ id: PaymentIntentId });
export type PaymentStatusParams = v.InferOutput<typeof PaymentStatusParams>;

/**
 * Its answer, for the payer coming back after a reload or a closed tab (dollars): `open` while
 * authorized (with when the server settles it if nothing uses it, ISO), `captured` or `cancelled`
 * once settled, `not_authorized` before the card was accepted; the server's own count of places
 * it found, the floor of any charge.
 */
export const PaymentStatus = v.strictObject({
  status: v.picklist(PAYMENT_STATES),
  amountAuthorized: v.number(),
  amountCaptured: v.number(),
  /** Authorized minus captured once settled; 0 otherwise. */
  amountReleased: v.number(),
  reference: v.string(),
  placesAuthorized: v.number(),
  placesResolved: v.number(),
  settlesAt: v.nullable(v.string()),
});
export type PaymentStatus = v.InferOutput<typeof PaymentStatus>;

/** `POST /api/demo/authorize` (demo payments only): the intent to mark authorized. */
export const DemoAuthorizeBody = v.strictObject({ paymentIntentId: PaymentIntentId });
export type DemoAuthorizeBody = v.InferOutput<typeof DemoAuthorizeBody>;

/** Its answer: the intent is authorized, as a confirmed card would leave it. */
export const DemoAuthorized = v.strictObject({ status: v.literal('requires_capture') });
export type DemoAuthorized = v.InferOutput<typeof DemoAuthorized>;

/** `POST /api/resolve-urls-batch`: the links to look up, and the payment that covers them if any. */
export const ResolveBody = v.strictObject({
  urls: v.pipe(
    v.array(
      v.pipe(
        v.string('Each link must be a string.'),
        v.minLength(1, 'A link cannot be empty.'),
        v.maxLength(MAX_URL_LENGTH, `A link can be at most ${MAX_URL_LENGTH} characters.`),
      ),
      'urls must be a list of links.',
    ),
    v.maxLength(MAX_URLS_PER_CALL, `At most ${MAX_URLS_PER_CALL} links per request.`),
  ),
  paymentIntentId: v.optional(PaymentIntentId),
});
export type ResolveBody = v.InferOutput<typeof ResolveBody>;

/** Its answer: a URL carrying coordinates for each link resolved, a reason for each one not. */
export const Resolved = v.strictObject({
  results: v.record(v.string(), v.string()),
  failures: v.record(v.string(), v.picklist(LOOKUP_FAILURES)),
});
export type Resolved = v.InferOutput<typeof Resolved>;

/**
 * Every refusal: a stable code and a sentence, with a 4xx or 5xx status, and the numbers some
 * refusals carry (`RefusalFields` in `./errors`: `limit`, `per`, `amountCaptured`).
 */
export const ErrorAnswer = v.strictObject({
  error: v.strictObject({
    code: v.string(),
    message: v.string(),
    limit: v.optional(v.number()),
    per: v.optional(v.picklist(PAYMENT_CAP_SPANS)),
    amountCaptured: v.optional(v.number()),
  }),
}) satisfies v.GenericSchema<unknown, { error: ErrorBody }>;
export type ErrorAnswer = v.InferOutput<typeof ErrorAnswer>;
