/**
 * The API calls the page makes (architecture.md, "Contracts"). Amounts cross as dollars, as the
 * contract says; the page keeps integer cents everywhere else.
 */
import { centsToDollars } from '../lib/money';
import { type AppConfig, parseConfig } from './config';
import { requestJson } from './http';

export interface PaymentIntent {
  clientSecret: string;
  paymentIntentId: string;
}

export interface CaptureRequest {
  paymentIntentId: string;
  convertedCount: number;
  totalCount: number;
  /** The final charge in cents: converted places × the per-place price. */
  actualAmountCents: number;
}

export interface CaptureOutcome {
  cancelled: boolean;
  amountCapturedCents: number;
}

/** The calls, behind an interface so tests and the page can point them at any origin. */
export interface Api {
  getConfig(): Promise<AppConfig>;
  createPaymentIntent(maxChargeCents: number): Promise<PaymentIntent>;
  capturePayment(request: CaptureRequest): Promise<CaptureOutcome>;
  /** Demo payments only: marks the intent authorized, as a confirmed card would be. */
  demoAuthorize(paymentIntentId: string): Promise<{ status: string }>;
}

/** Talks to the API at `base` (empty: the page's own origin). */
export function createApi(base = ''): Api {
  return {
    async getConfig() {
      return parseConfig(await requestJson<unknown>(`${base}/api/config`, 'GET'));
    },
    async createPaymentIntent(maxChargeCents) {
      const body = await requestJson<Partial<PaymentIntent>>(
        `${base}/api/create-payment-intent`,
        'POST',
        { amount: centsToDollars(maxChargeCents) },
      );
      if (typeof body.clientSecret !== 'string' || typeof body.paymentIntentId !== 'string') {
        throw new Error('The payment service answered without a payment intent.');
      }
      return { clientSecret: body.clientSecret, paymentIntentId: body.paymentIntentId };
    },
    async capturePayment({ paymentIntentId, convertedCount, totalCount, actualAmountCents }) {
      const body = await requestJson<{ cancelled?: unknown; amountCaptured?: unknown }>(
        `${base}/api/capture-payment`,
        'POST',
        {
          paymentIntentId,
          actualAmount: centsToDollars(actualAmountCents),
          convertedCount,
          totalCount,
        },
      );
      const amount = typeof body.amountCaptured === 'number' ? body.amountCaptured : 0;
      return { cancelled: body.cancelled === true, amountCapturedCents: Math.round(amount * 100) };
    },
    async demoAuthorize(paymentIntentId) {
      return requestJson<{ status: string }>(`${base}/api/demo/authorize`, 'POST', {
        paymentIntentId,
      });
    },
  };
}
