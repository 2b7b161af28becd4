import Stripe from 'stripe';
import type { StripeSettings } from '../config.js';
import {
  PaymentFailure,
  placesFromMetadata,
  PRODUCT_TAG,
  type IntentStatus,
  type IntentView,
  type PaymentFailureKind,
  type PaymentProvider,
  wholeFromMetadata,
} from './provider.js';

/** Stripe's search for PlacePort's open authorizations (search lags writes; the sweep re-reads). */
export const OPEN_AUTHORIZATIONS_QUERY = `status:'requires_capture' AND metadata['product']:'${PRODUCT_TAG}'`;

/**
 * How long one Stripe request may take before it is abandoned (Stripe answers in well under a
 * second as a rule). With its retries and the SDK's pauses between them (at most 0.5 s, then 1 s)
 * a call gives up within {@link STRIPE_CALL_LIMIT_MS}, before the page's deadline for a payment
 * call (`PAYMENT_CALL_TIMEOUT_MS`, 30 s): during an outage the page hears the server's 503 and its
 * reason, not its own "no answer". (At 15 s a try, a call took 46 s to give up.)
 */
export const STRIPE_TIMEOUT_MS = 7_000;
/** Network retries the SDK makes (with its own idempotency keys on POSTs). */
export const STRIPE_NETWORK_RETRIES = 2;
/** The SDK's longest pauses between tries: 0.5 s before the first retry, doubling after. */
const STRIPE_RETRY_PAUSES_MS = 500 + 1_000;
/** The longest one Stripe call takes to give up: every try timed out, every pause at its longest. */
export const STRIPE_CALL_LIMIT_MS =
  (STRIPE_NETWORK_RETRIES + 1) * STRIPE_TIMEOUT_MS + STRIPE_RETRY_PAUSES_MS;

function viewOf(intent: Stripe.PaymentIntent): IntentView {
  return {
    id: intent.id,
    status: intent.status as IntentStatus,
    amount: intent.amount,
    amountCapturable: intent.amount_capturable,
    amountReceived: intent.amount_received,
    currency: intent.currency,
    places: placesFromMetadata(intent.metadata.places),
    product: intent.metadata.product,
    created: intent.created,
    payer: intent.metadata.payer,
    resolved: wholeFromMetadata(intent.metadata.resolved) ?? 0,
    lastUsed: wholeFromMetadata(intent.metadata.last_used),
  };
}

/** The failure kind of a Stripe error: by its code first, then by its type; else unavailable. */
const KIND_BY_CODE = new Map<string | undefined, PaymentFailureKind>([
  ['resource_missing', 'not_found'],
  ['payment_intent_unexpected_state', 'unexpected_state'],
  ['amount_too_small', 'amount_too_small'],
  ['card_declined', 'card_declined'],
]);
const KIND_BY_TYPE = new Map<string, PaymentFailureKind>([
  ['StripeIdempotencyError', 'conflict'],
  ['StripeAuthenticationError', 'misconfigured'],
  ['StripePermissionError', 'misconfigured'],
  ['StripeCardError', 'card_declined'],
  ['StripeInvalidRequestError', 'invalid_request'],
]);

/** A Stripe SDK error as a {@link PaymentFailure} (its words kept for the log); others as they are. */
function failureOf(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  const kind = KIND_BY_CODE.get(error.code) ?? KIND_BY_TYPE.get(error.type) ?? 'unavailable';
  return new PaymentFailure(kind, `${error.type}/${error.code ?? '-'}: ${error.message}`);
}

function mapped<T>(call: () => Promise<T>): Promise<T> {
  return call().catch((error: unknown) => {
    throw failureOf(error);
  });
}

/** One intent call: its answer as an {@link IntentView}, its failure as a {@link PaymentFailure}. */
function intentCall(call: () => Promise<Stripe.PaymentIntent>): Promise<IntentView> {
  return mapped(async () => viewOf(await call()));
}

/**
 * Payments through Stripe with manual capture: the maximum is authorized when conversion starts and
 * only the converted places are captured afterwards. Card methods never redirect away
 * (`allow_redirects: 'never'`), so `confirmPayment({ redirect: 'if_required' })` stays on the page.
 */
export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const base = settings.apiBase;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'PlacePort' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });

  async function* openAuthorizations(): AsyncIterable<IntentView> {
    const pages = stripe.paymentIntents.search({ query: OPEN_AUTHORIZATIONS_QUERY, limit: 100 });
    try {
      for await (const intent of pages) yield viewOf(intent);
    } catch (error) {
      throw failureOf(error);
    }
  }

  return {
    openAuthorizations,
    recordUsage: (id, usage) =>
      intentCall(() =>
        stripe.paymentIntents.update(id, {
          metadata: { resolved: String(usage.resolved), last_used: String(usage.lastUsed) },
        }),
      ),
    create: ({ amountCents, places, payer }) =>
      mapped(async () => {
        const intent = await stripe.paymentIntents.create({
          amount: amountCents,
          currency: 'usd',
          capture_method: 'manual',
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: `PlacePort: up to ${places} places`,
          metadata: { places: String(places), product: PRODUCT_TAG, payer },
        });
        if (!intent.client_secret) {
          throw new PaymentFailure('unavailable', 'Stripe returned no client secret');
        }
        return { id: intent.id, clientSecret: intent.client_secret };
      }),
    retrieve: (id) => intentCall(() => stripe.paymentIntents.retrieve(id)),
    capture: (id, amountCents, idempotencyKey) =>
      intentCall(() =>
        stripe.paymentIntents.capture(id, { amount_to_capture: amountCents }, { idempotencyKey }),
      ),
    cancel: (id, idempotencyKey) =>
      intentCall(() =>
        stripe.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' }, { idempotencyKey }),
      ),
  };
}
