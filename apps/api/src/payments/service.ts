import { ApiError } from '../http/errors.js';
import { withPaymentErrors } from './failures.js';
import {
  dollarsToCents,
  formatDollars,
  MINIMUM_CHARGE_CENTS,
  placesForAmount,
  PRICE_PER_PLACE_CENTS,
} from './money.js';
import { PRODUCT_TAG, type IntentView, type PaymentProvider } from './provider.js';

/** The browser's claim after conversion (seed section 7): numbers to verify, never to trust. */
export interface CaptureClaim {
  paymentIntentId: string;
  /** Dollars: convertedCount × $0.10. */
  actualAmount: number;
  convertedCount: number;
  totalCount: number;
}

/** What capture answers: whether the authorization was cancelled, and the dollars captured. */
export interface CaptureResult {
  cancelled: boolean;
  amountCaptured: number;
}

type Log = (detail: string) => void;

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
 * The money rules of product.md, over any {@link PaymentProvider}: the maximum is authorized at
 * creation, and at capture the intent is re-read, the browser's claims are checked against what was
 * recorded, and exactly the converted places are captured once (or the authorization cancelled).
 * Calls for one intent run one after another, and a repeated call returns the first result.
 */
export class PaymentService {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly provider: PaymentProvider) {}

  /** Checks the maximum charge, derives the place count and creates the manual-capture intent. */
  async createIntent(
    amount: number,
    log: Log,
  ): Promise<{ clientSecret: string; paymentIntentId: string }> {
    const { cents, places } = placesForAmount(amount);
    const created = await withPaymentErrors(
      () => this.provider.create({ amountCents: cents, places }),
      log,
    );
    return { clientSecret: created.clientSecret, paymentIntentId: created.id };
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

  /** Verifies the claim and captures the converted places, or cancels when under the minimum. */
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
    return this.oneAtATime(claim.paymentIntentId, () => this.settle(claim, cents, log));
  }

  private async settle(claim: CaptureClaim, cents: number, log: Log): Promise<CaptureResult> {
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
    const cancels = cents < MINIMUM_CHARGE_CENTS;
    switch (intent.status) {
      case 'requires_capture':
        break;
      case 'succeeded':
        if (!cancels && intent.amountReceived === cents) {
          return { cancelled: false, amountCaptured: cents / 100 };
        }
        throw new ApiError(
          409,
          'already_captured',
          `This payment was already captured (${formatDollars(intent.amountReceived)}); it cannot be captured again.`,
        );
      case 'canceled':
        if (cancels) return { cancelled: true, amountCaptured: 0 };
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
      return { cancelled: true, amountCaptured: 0 };
    }
    const captured = await withPaymentErrors(
      () => this.provider.capture(id, cents, captureKey(id)),
      log,
    );
    return { cancelled: false, amountCaptured: captured.amountReceived / 100 };
  }

  private async oneAtATime<T>(id: string, task: () => Promise<T>): Promise<T> {
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
