import { ApiError } from '../http/errors.js';
import { withPaymentErrors } from './failures.js';
import {
  dollarsToCents,
  formatDollars,
  MINIMUM_CHARGE_CENTS,
  placesForAmount,
  PRICE_PER_PLACE_CENTS,
} from './money.js';
import type { StateStore } from '../state/index.js';
import { PRODUCT_TAG, type IntentView, type PaymentProvider } from './provider.js';

/** The browser's claim after conversion (seed section 7): numbers to verify, never to trust. */
export interface CaptureClaim {
  paymentIntentId: string;
  /** Dollars: convertedCount × $0.10. */
  actualAmount: number;
  convertedCount: number;
  totalCount: number;
}

/**
 * What capture answers (dollars), the receipt of product.md: whether the authorization was
 * cancelled, what was held, charged and released, and the payment's reference.
 */
export interface CaptureResult {
  cancelled: boolean;
  amountCaptured: number;
  amountAuthorized: number;
  amountReleased: number;
  reference: string;
}

type Log = (detail: string) => void;

function receipt(intent: IntentView, capturedCents: number): CaptureResult {
  return {
    cancelled: capturedCents === 0,
    amountCaptured: capturedCents / 100,
    amountAuthorized: intent.amount / 100,
    amountReleased: (intent.amount - capturedCents) / 100,
    reference: intent.id,
  };
}

/** The idempotency key of an intent's one capture; bound to the intent so no retry captures twice. */
export function captureKey(intentId: string): string {
  return `placeport-capture-${intentId}`;
}

/** The idempotency key of an intent's one cancellation. */
export function cancelKey(intentId: string): string {
  return `placeport-cancel-${intentId}`;
}

function requirePlacePortIntent(intent: IntentView): number {
  const places = intent.places;
  if (
    intent.product !== PRODUCT_TAG ||
    places === undefined ||
    intent.currency !== 'usd' ||
    intent.amount !== places * PRICE_PER_PLACE_CENTS
  ) {
    throw new ApiError(
      400,
      'not_a_placeport_payment',
      'This payment was not made for a PlacePort conversion.',
    );
  }
  return places;
}

/**
 * How many places a capture charges: what the browser claims converted, but never fewer than the
 * server itself resolved for the payment (product.md: "The server's own count is the floor"), and
 * never more than were authorized.
 */
export function chargedPlaces(
  claimed: number,
  resolvedByServer: number,
  authorized: number,
): number {
  return Math.min(authorized, Math.max(claimed, resolvedByServer));
}

/**
 * The money rules of product.md, over any {@link PaymentProvider}: the maximum is authorized at
 * creation for the browser that asked (its payer hash on the intent and in the store), the server
 * records what it resolved for each payment, and at capture the intent is re-read, the browser's
 * claims are checked, and `max(claimed, resolved by the server)` places are captured once (or the
 * authorization cancelled). Calls for one intent run one after another, and a repeated call
 * returns the first result.
 */
export class PaymentService {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    readonly provider: PaymentProvider,
    private readonly state: StateStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks the maximum charge, derives the place count and creates the manual-capture intent. */
  async createIntent(
    amount: number,
    payer: string,
    log: Log,
  ): Promise<{ clientSecret: string; paymentIntentId: string }> {
    const { cents, places } = placesForAmount(amount);
    const cap = this.provider.maxPlaces;
    if (cap !== undefined && places > cap) {
      throw new ApiError(
        400,
        'demo_limit',
        `Demo payments on this server cover at most ${cap.toLocaleString('en-US')} places; choose fewer lists.`,
      );
    }
    const created = await withPaymentErrors(
      () => this.provider.create({ amountCents: cents, places, payer }),
      log,
    );
    await this.state.bindPayer(created.id, payer);
    return { clientSecret: created.clientSecret, paymentIntentId: created.id };
  }

  /**
   * Records places the server resolved for a payment (distinct keys) in the store, and the count
   * and time of use on the intent itself, so capture and the settlement sweep know it even after a
   * restart. Returns the payment's count.
   */
  async recordResolved(id: string, placeKeys: string[], log: Log): Promise<number> {
    const count = await this.state.addResolved(id, placeKeys);
    await withPaymentErrors(
      () =>
        this.provider.recordUsage(id, { resolved: count, lastUsed: Math.floor(this.now() / 1000) }),
      log,
    );
    return count;
  }

  /** The server's count for a payment: the store's, or what the intent recorded, the larger. */
  async resolvedByServer(intent: IntentView): Promise<number> {
    return Math.max(await this.state.resolvedCount(intent.id), intent.resolved);
  }

  /** Reads an intent, mapping provider failures to clear API errors. */
  retrieve(id: string, log: Log): Promise<IntentView> {
    return withPaymentErrors(() => this.provider.retrieve(id), log);
  }

  /**
   * The place count an authorized PlacePort intent paid for; refuses intents that are not
   * PlacePort's or not (or no longer) authorized.
   */
  async authorizedPlaces(id: string, log: Log): Promise<number> {
    const intent = await this.retrieve(id, log);
    const places = requirePlacePortIntent(intent);
    if (intent.status !== 'requires_capture') {
      throw new ApiError(
        402,
        'payment_not_authorized',
        'This payment is not authorized, so it cannot cover more links.',
      );
    }
    return places;
  }

  /**
   * Verifies the claim and captures `max(claimed, resolved by the server)` places, or cancels when
   * that is under the minimum. A claim below the server's count is charged the count and logged.
   */
  async capture(claim: CaptureClaim, log: Log): Promise<CaptureResult> {
    const cents = dollarsToCents(claim.actualAmount, 'actualAmount');
    if (claim.convertedCount > claim.totalCount) {
      throw new ApiError(400, 'invalid_counts', 'convertedCount cannot be more than totalCount.');
    }
    const expected = claim.convertedCount * PRICE_PER_PLACE_CENTS;
    if (cents !== expected) {
      throw new ApiError(
        400,
        'amount_mismatch',
        `actualAmount must be ${formatDollars(expected)} for ${claim.convertedCount} converted places at ${formatDollars(PRICE_PER_PLACE_CENTS)} each.`,
      );
    }
    return this.serialized(claim.paymentIntentId, () => this.settle(claim, log));
  }

  private async settle(claim: CaptureClaim, log: Log): Promise<CaptureResult> {
    const id = claim.paymentIntentId;
    const intent = await this.retrieve(id, log);
    const places = requirePlacePortIntent(intent);
    if (claim.totalCount !== places) {
      throw new ApiError(
        400,
        'count_mismatch',
        `totalCount must be the ${places} places this payment authorized.`,
      );
    }
    const server = await this.resolvedByServer(intent);
    const charged = chargedPlaces(claim.convertedCount, server, places);
    if (claim.convertedCount < server) {
      log(
        `capture claimed ${claim.convertedCount} places; the server resolved ${server}: charging ${charged}`,
      );
    }
    return this.captureOrCancel(intent, charged * PRICE_PER_PLACE_CENTS, log);
  }

  /**
   * Captures `cents` of an intent (or cancels it under the minimum) with the idempotency keys bound
   * to the intent, so the browser's capture and the settlement sweep can never both act.
   */
  async captureOrCancel(intent: IntentView, cents: number, log: Log): Promise<CaptureResult> {
    const id = intent.id;
    const cancels = cents < MINIMUM_CHARGE_CENTS;
    switch (intent.status) {
      case 'requires_capture':
        break;
      case 'succeeded':
        if (!cancels && intent.amountReceived === cents) return receipt(intent, cents);
        throw new ApiError(
          409,
          'already_captured',
          `This payment was already captured (${formatDollars(intent.amountReceived)}); it cannot be captured again.`,
        );
      case 'canceled':
        if (cancels) return receipt(intent, 0);
        throw new ApiError(
          409,
          'payment_cancelled',
          'This payment authorization was cancelled, so nothing can be captured and nothing was charged.',
        );
      default:
        throw new ApiError(
          409,
          'payment_not_authorized',
          'This payment has not been authorized yet.',
        );
    }
    if (cancels) {
      await withPaymentErrors(() => this.provider.cancel(id, cancelKey(id)), log);
      return receipt(intent, 0);
    }
    const captured = await withPaymentErrors(
      () => this.provider.capture(id, cents, captureKey(id)),
      log,
    );
    return receipt(intent, captured.amountReceived);
  }

  /** Runs `task` after any other call for the same intent in this process. */
  async serialized<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    this.queues.set(id, settled);
    try {
      return await run;
    } finally {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    }
  }
}
