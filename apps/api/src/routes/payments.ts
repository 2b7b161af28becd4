import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { Count, Dollars, exactObject, PaymentIntentId, responses } from '../http/schemas.js';

/** Largest body of a payment call; its JSON holds a few short fields. */
export const PAYMENT_BODY_LIMIT_BYTES = 1024;

const CreateBody = v.strictObject({ amount: Dollars('amount') });
const CaptureBody = v.strictObject({
  paymentIntentId: PaymentIntentId,
  actualAmount: Dollars('actualAmount'),
  convertedCount: Count('convertedCount'),
  totalCount: Count('totalCount'),
});

const CREATED = exactObject({
  clientSecret: { type: 'string' },
  paymentIntentId: { type: 'string' },
});
const CAPTURED = exactObject({
  cancelled: { type: 'boolean' },
  amountCaptured: { type: 'number' },
});

/** Logs a provider's own words on the request (never sent to the browser). */
export function providerLog(request: FastifyRequest): (detail: string) => void {
  return (detail) => request.log.warn({ provider: detail }, 'payment provider refused');
}

/**
 * `POST /api/create-payment-intent { amount }` → `{ clientSecret, paymentIntentId }`, and
 * `POST /api/capture-payment { paymentIntentId, actualAmount, convertedCount, totalCount }` →
 * `{ cancelled, amountCaptured }` (dollars). The rules live in PaymentService.
 */
export function registerPaymentRoutes(app: FastifyInstance): void {
  const config = { rateLimit: { max: app.rateLimits.paymentPerMinute, timeWindow: 60_000 } };
  app.post<{ Body: v.InferOutput<typeof CreateBody> }>(
    '/api/create-payment-intent',
    {
      bodyLimit: PAYMENT_BODY_LIMIT_BYTES,
      config,
      schema: { body: CreateBody, response: responses(CREATED) },
    },
    (request) => app.payments.createIntent(request.body.amount, providerLog(request)),
  );
  app.post<{ Body: v.InferOutput<typeof CaptureBody> }>(
    '/api/capture-payment',
    {
      bodyLimit: PAYMENT_BODY_LIMIT_BYTES,
      config,
      schema: { body: CaptureBody, response: responses(CAPTURED) },
    },
    (request) => app.payments.capture(request.body, providerLog(request)),
  );
}
