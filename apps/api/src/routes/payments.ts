import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { clientKeyOf } from '../http/client.js';
import { ApiError, providerAnswer, providerLog } from '../http/errors.js';
import { payerFor, requirePayer } from '../http/payer.js';
import { Count, Dollars, exactObject, PaymentIntentId, responses } from '../http/schemas.js';
import { moneyRouteRateLimit } from '../http/security.js';
import { payerHash } from '../payments/payer.js';
import { PaymentFailure } from '../payments/provider.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Largest body of a payment call; its JSON holds a few short fields. */
export const PAYMENT_BODY_LIMIT_BYTES = 1024;

const CreateBody = v.strictObject({ amount: Dollars('amount') });
const CaptureBody = v.strictObject({
  paymentIntentId: PaymentIntentId,
  actualAmount: Dollars('actualAmount'),
  convertedCount: Count('convertedCount'),
  totalCount: Count('totalCount'),
});

const StatusParams = v.strictObject({ id: PaymentIntentId });

const CREATED = exactObject({
  clientSecret: { type: 'string' },
  paymentIntentId: { type: 'string' },
});
const CAPTURED = exactObject({
  cancelled: { type: 'boolean' },
  amountCaptured: { type: 'number' },
  amountAuthorized: { type: 'number' },
  amountReleased: { type: 'number' },
  reference: { type: 'string' },
});

const STATUS = exactObject({
  status: { type: 'string', enum: ['open', 'captured', 'cancelled', 'not_authorized'] },
  amountAuthorized: { type: 'number' },
  amountCaptured: { type: 'number' },
  amountReleased: { type: 'number' },
  reference: { type: 'string' },
  placesAuthorized: { type: 'number' },
  placesResolved: { type: 'number' },
  settlesAt: { type: ['string', 'null'] },
});

/** Refuses intent creation past the per-client caps (429 with `Retry-After`). */
async function checkCreationCaps(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const client = clientKeyOf(request.ip);
  for (const [window, max, span] of [
    [HOUR_MS, app.rateLimits.intentsPerHour, 'an hour'],
    [DAY_MS, app.rateLimits.intentsPerDay, 'a day'],
  ] as const) {
    const hit = await app.state.hit(`intents:${window}:${client}`, window, max);
    if (!hit.allowed) {
      throw new ApiError(
        429,
        'too_many_payments',
        `At most ${max} payments can be started from one address in ${span}. Try again later.`,
      );
    }
  }
}

/**
 * `POST /api/create-payment-intent { amount }` → `{ clientSecret, paymentIntentId }` and the payer
 * cookie, and `POST /api/capture-payment { paymentIntentId, actualAmount, convertedCount,
 * totalCount }` (with that cookie) → `{ cancelled, amountCaptured, amountAuthorized,
 * amountReleased, reference }` (dollars), and `GET /api/payments/:id` (with that cookie) → what
 * became of the payment (`PaymentStatus`), for a page that comes back after a reload or a closed
 * tab; it changes nothing. The rules live in PaymentService.
 */
export function registerPaymentRoutes(app: FastifyInstance): void {
  const config = moneyRouteRateLimit(app.rateLimits.paymentPerMinute);
  app.post<{ Body: v.InferOutput<typeof CreateBody> }>(
    '/api/create-payment-intent',
    {
      bodyLimit: PAYMENT_BODY_LIMIT_BYTES,
      config,
      schema: { body: CreateBody, response: responses(CREATED) },
    },
    async (request, reply) => {
      await checkCreationCaps(app, request);
      const payer = payerFor(request, reply);
      return app.payments.createIntent(request.body.amount, payerHash(payer), providerLog(request));
    },
  );
  app.post<{ Body: v.InferOutput<typeof CaptureBody> }>(
    '/api/capture-payment',
    {
      bodyLimit: PAYMENT_BODY_LIMIT_BYTES,
      config,
      schema: { body: CaptureBody, response: responses(CAPTURED) },
    },
    async (request) => {
      const id = request.body.paymentIntentId;
      await requirePayer(app, request, id);
      return app.payments.capture(request.body, providerLog(request)).catch((error: unknown) => {
        throw error instanceof PaymentFailure ? providerAnswer(error, id) : error;
      });
    },
  );
  app.get<{ Params: v.InferOutput<typeof StatusParams> }>(
    '/api/payments/:id',
    { config, schema: { params: StatusParams, response: responses(STATUS) } },
    async (request) => {
      await requirePayer(app, request, request.params.id);
      return app.payments.status(request.params.id, providerLog(request));
    },
  );
}
