/**
 * The API calls the page makes (`@placeport/contract/routes`, whose types alone it imports: the
 * page checks answers by hand rather than load valibot). Amounts cross as dollars, as the contract
 * says; the page keeps integer cents everywhere else.
 */
import { chargeCents, PAYMENT_STATES } from '@placeport/contract';
import type {
  CaptureReceipt,
  CreatedIntent,
  DemoAuthorized,
  PaymentStatus as PaymentStatusAnswer,
} from '@placeport/contract/routes';
import { centsToDollars } from '../lib/money';
import { type AppConfig, parseConfig } from './config';
import { PAYMENT_CALL_TIMEOUT_MS, requestJson } from './http';

export interface CaptureRequest {
  paymentIntentId: string;
  convertedCount: number;
  totalCount: number;
  /** The final charge in cents: converted places × the per-place price. */
  actualAmountCents: number;
}

/** A payment's amounts in cents, and its reference (the payment intent id) for support. */
interface Amounts {
  /** What the authorization held. */
  amountAuthorizedCents: number;
  /** What was charged. */
  amountCapturedCents: number;
  /** What went back to the card. */
  amountReleasedCents: number;
  reference: string;
}

/** The capture answer ({@link CaptureReceipt}, dollars) in cents: what the receipt shows. */
export interface CaptureOutcome extends Amounts {
  /** True when the authorization was cancelled and nothing was charged. */
  cancelled: boolean;
}

/**
 * Where a payment stands now ({@link PaymentStatusAnswer}, for its payer only) in cents, with
 * `settlesAt` in ms since the epoch.
 */
export interface PaymentStatus extends Amounts {
  status: PaymentStatusAnswer['status'];
  placesAuthorized: number;
  /** The server's own count of places it found for the payment: the floor of any charge. */
  placesResolved: number;
  /** For an open payment, when the server settles it unless it is used again (ms since the epoch). */
  settlesAt: number | null;
}

const PAYMENT_STATUSES: ReadonlySet<unknown> = new Set(PAYMENT_STATES);

/** The status answer in cents, or an error when it is not the contract's shape. */
function paymentStatusOf(body: Partial<PaymentStatusAnswer>): PaymentStatus {
  const authorized = centsOf(body.amountAuthorized);
  const captured = centsOf(body.amountCaptured);
  const released = centsOf(body.amountReleased);
  const settlesAt = typeof body.settlesAt === 'string' ? Date.parse(body.settlesAt) : null;
  if (
    typeof body.status !== 'string' ||
    !PAYMENT_STATUSES.has(body.status) ||
    authorized === undefined ||
    captured === undefined ||
    released === undefined ||
    typeof body.reference !== 'string' ||
    !Number.isSafeInteger(body.placesAuthorized) ||
    !Number.isSafeInteger(body.placesResolved) ||
    (settlesAt !== null && Number.isNaN(settlesAt))
  ) {
    throw new Error('The payment service answered without the payment’s status.');
  }
  return {
    status: body.status,
    amountAuthorizedCents: authorized,
    amountCapturedCents: captured,
    amountReleasedCents: released,
    reference: body.reference,
    placesAuthorized: body.placesAuthorized as number,
    placesResolved: body.placesResolved as number,
    settlesAt,
  };
}

/** The calls, behind an interface so tests and the page can point them at any origin. */
export interface Api {
  getConfig(): Promise<AppConfig>;
  createPaymentIntent(maxChargeCents: number): Promise<CreatedIntent>;
  capturePayment(request: CaptureRequest): Promise<CaptureOutcome>;
  /** Where one of this browser's payments stands now. */
  paymentStatus(paymentIntentId: string): Promise<PaymentStatus>;
  /** Demo payments only: marks the intent authorized, as a confirmed card would be. */
  demoAuthorize(paymentIntentId: string): Promise<DemoAuthorized>;
}

/** A dollar amount of an answer in whole cents, or undefined when it is not a number. */
function centsOf(dollars: unknown): number | undefined {
  return typeof dollars === 'number' && Number.isFinite(dollars)
    ? Math.round(dollars * 100)
    : undefined;
}

/** How {@link createApi} is set up beyond its origin. */
export interface ApiOptions {
  /**
   * The signal that ends a payment call left unanswered for `ms` (a lost answer: `NoAnswerError`);
   * `AbortSignal.timeout` unless a test ends it itself.
   */
  deadline?: (ms: number) => AbortSignal;
}

/**
 * Talks to the API at `base` (empty: the page's own origin). Payment calls end after
 * {@link PAYMENT_CALL_TIMEOUT_MS} without an answer, as if the connection had dropped.
 */
export function createApi(
  base = '',
  { deadline = (ms) => AbortSignal.timeout(ms) }: ApiOptions = {},
): Api {
  const paymentDeadline = () => deadline(PAYMENT_CALL_TIMEOUT_MS);
  return {
    async getConfig() {
      return parseConfig(await requestJson<unknown>(`${base}/api/config`, 'GET'));
    },
    async createPaymentIntent(maxChargeCents) {
      const body = await requestJson<Partial<CreatedIntent>>(
        `${base}/api/create-payment-intent`,
        'POST',
        { amount: centsToDollars(maxChargeCents) },
        paymentDeadline(),
      );
      if (typeof body.clientSecret !== 'string' || typeof body.paymentIntentId !== 'string') {
        throw new Error('The payment service answered without a payment intent.');
      }
      return { clientSecret: body.clientSecret, paymentIntentId: body.paymentIntentId };
    },
    async capturePayment({ paymentIntentId, convertedCount, totalCount, actualAmountCents }) {
      const body = await requestJson<Partial<CaptureReceipt>>(
        `${base}/api/capture-payment`,
        'POST',
        {
          paymentIntentId,
          actualAmount: centsToDollars(actualAmountCents),
          convertedCount,
          totalCount,
        },
        paymentDeadline(),
      );
      // A field the answer lacks is derived from what was asked: the hold was the selection's
      // maximum charge, and the reference is the intent's id.
      const captured = centsOf(body.amountCaptured) ?? 0;
      const authorized = centsOf(body.amountAuthorized) ?? chargeCents(totalCount);
      return {
        cancelled: body.cancelled === true,
        amountAuthorizedCents: authorized,
        amountCapturedCents: captured,
        amountReleasedCents: centsOf(body.amountReleased) ?? Math.max(0, authorized - captured),
        reference:
          typeof body.reference === 'string' && body.reference !== ''
            ? body.reference
            : paymentIntentId,
      };
    },
    async paymentStatus(paymentIntentId) {
      return paymentStatusOf(
        await requestJson<Partial<PaymentStatusAnswer>>(
          `${base}/api/payments/${encodeURIComponent(paymentIntentId)}`,
          'GET',
          undefined,
          paymentDeadline(),
        ),
      );
    },
    async demoAuthorize(paymentIntentId) {
      return requestJson<DemoAuthorized>(
        `${base}/api/demo/authorize`,
        'POST',
        { paymentIntentId },
        paymentDeadline(),
      );
    },
  };
}
