/** Stripe's PaymentIntent statuses; the demo provider moves through the same ones. */
export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

/** What the server reads back about an intent. Amounts are integer cents. */
export interface IntentView {
  id: string;
  status: IntentStatus;
  amount: number;
  amountCapturable: number;
  amountReceived: number;
  currency: string;
  /** `metadata.places`, parsed; undefined when absent or not a whole number. */
  places: number | undefined;
  /** `metadata.product`: which product created the intent. */
  product: string | undefined;
  /** When the intent was created (Unix seconds). */
  created: number;
  /** `metadata.payer`: the hash of the payer cookie of the browser that created it. */
  payer: string | undefined;
  /** `metadata.resolved`: distinct places the server resolved for it, as last recorded. */
  resolved: number;
  /** `metadata.last_used`: when a lookup last used it (Unix seconds); undefined when never. */
  lastUsed: number | undefined;
}

/** What the server records on an intent after lookups (Stripe metadata values are strings). */
export interface UsageRecord {
  resolved: number;
  lastUsed: number;
}

/** A freshly created intent: what the browser needs to authorize it. */
export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

/** Kinds of provider failure, each mapped to one clear message for the browser. */
export type PaymentFailureKind =
  | 'not_found'
  | 'unexpected_state'
  | 'amount_too_small'
  | 'conflict'
  | 'card_declined'
  | 'invalid_request'
  | 'unavailable'
  | 'misconfigured';

/** A provider failure with its kind; the provider's own message is kept for logs only. */
export class PaymentFailure extends Error {
  constructor(
    readonly kind: PaymentFailureKind,
    detail: string,
  ) {
    super(detail);
    this.name = 'PaymentFailure';
  }
}

/** The metadata value that marks intents as PlacePort's (`metadata.product`). */
export const PRODUCT_TAG = 'placeport';

/**
 * Where money moves, behind four calls so Stripe and the in-memory demo are interchangeable
 * (house-style "Outside services behind small interfaces"). Implementations throw
 * {@link PaymentFailure}; `capture` and `cancel` take an idempotency key bound to the intent so a
 * retried call never acts twice.
 */
export interface PaymentProvider {
  /**
   * The most places one intent may cover, when the provider has a bound of its own (demo payments
   * reachable from other machines); `create` refuses more. Absent: the product's maximum only.
   */
  readonly maxPlaces?: number;
  /**
   * Creates a manual-capture intent for `amountCents`, recording the place count, the product and
   * the payer's hash in its metadata.
   */
  create(input: { amountCents: number; places: number; payer: string }): Promise<CreatedIntent>;
  /** Reads an intent; throws a `not_found` failure for unknown ids. */
  retrieve(id: string): Promise<IntentView>;
  /** Captures `amountCents` of a `requires_capture` intent. */
  capture(id: string, amountCents: number, idempotencyKey: string): Promise<IntentView>;
  /** Cancels the authorization so nothing is charged. */
  cancel(id: string, idempotencyKey: string): Promise<IntentView>;
  /**
   * Records the server's count of resolved places and the time of last use on the intent, and
   * answers the intent as it is now (Stripe's update answers it at no extra call).
   */
  recordUsage(id: string, usage: UsageRecord): Promise<IntentView>;
  /**
   * PlacePort's authorizations still waiting for capture (`requires_capture` with PlacePort's
   * metadata), page by page; the settlement sweep re-reads each before acting on it.
   */
  openAuthorizations(): AsyncIterable<IntentView>;
}

/** Parses a whole number of metadata (digits only), or undefined. */
export function wholeFromMetadata(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

/** Parses `metadata.places` strictly (digits only, positive). */
export function placesFromMetadata(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  const places = Number(value);
  return places > 0 ? places : undefined;
}
