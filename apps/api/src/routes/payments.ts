import {
  CaptureBody,
  CaptureReceipt,
  CreatedIntent,
  CreateIntentBody,
  PaymentStatus,
  PaymentStatusParams,
} from '@placeport/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { clientKeyOf } from '../http/client.js';
import { ApiError, providerAnswer, providerLog } from '../http/errors.js';
import { payerFor, requirePayer, spendProviderRead } from '../http/payer.js';
import { responses } from '../http/schemas.js';
import { moneyRouteRateLimit } from '../http/security.js';
import { payerHash } from '../payments/payer.js';
import { PaymentFailure } from '../payments/provider.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Largest body of a payment call; its JSON holds a few short fields. */
export const PAYMENT_BODY_LIMIT_BYTES = 1024;

/** A payment call's options: a small body, the payment rate limit, the contract's schemas. */
export function paymentCall(app: FastifyInstance, body: v.GenericSchema, answer: v.GenericSchema) {
  return {
    bodyLimit: PAYMENT_BODY_LIMIT_BYTES,
    config: moneyRouteRateLimit(app.rateLimits.paymentPerMinute),
    schema: { body, response: responses(answer) },
  };
}

/** Refuses intent creation past the per-client caps (429 with `Retry-After`). */
async function checkCreationCaps(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const client = clientKeyOf(request.ip);
  for (const [window, max, span, per] of [
    [HOUR_MS, app.rateLimits.intentsPerHour, 'an hour', 'hour'],
    [DAY_MS, app.rateLimits.intentsPerDay, 'a day', 'day'],
  ] as const) {
    const hit = await app.state.hit(`intents:${window}:${client}`, window, max);
    if (!hit.allowed) {
      throw new ApiError(
        429,
        'too_many_payments',
        `At most ${max} payments can be started from one address in ${span}. Try again later.`,
        undefined,
        { limit: max, per },
      );
    }
  }
}

/**
 * `POST /api/create-payment-intent` (which sets the payer cookie), `POST /api/capture-payment` and
 * `GET /api/payments/:id` (both with that cookie; the last changes nothing), shaped as the contract
 * says. The rules live in PaymentService.
 */
export function registerPaymentRoutes(app: FastifyInstance): void {
  app.post<{ Body: CreateIntentBody }>(
    '/api/create-payment-intent',
    paymentCall(app, CreateIntentBody, CreatedIntent),
    async (request, reply) => {
      await checkCreationCaps(app, request);
      const payer = payerFor(request, reply);
      return app.payments.createIntent(request.body.amount, payerHash(payer), providerLog(request));
    },
  );
  app.post<{ Body: CaptureBody }>(
    '/api/capture-payment',
    paymentCall(app, CaptureBody, CaptureReceipt),
    async (request) => {
      const id = request.body.paymentIntentId;
      await requirePayer(app, request, id);
      // A payment whose authorization the store knows of (its run's batches were checked) settles
      // whatever the budget: the money must move. Others count: an intent never authorized could
      // be captured in a loop, each a Stripe read.
      if (await app.payments.readsProviderFor(id)) await spendProviderRead(app, request);
      // The server's count overruling a lower claim is news, not a provider refusal.
      const note = (detail: string) => request.log.info({ payment: id }, detail);
      return app.payments
        .capture(request.body, providerLog(request), note)
        .catch((error: unknown) => {
          throw error instanceof PaymentFailure ? providerAnswer(error, id) : error;
        });
    },
  );
  app.get<{ Params: PaymentStatusParams }>(
    '/api/payments/:id',
    {
      config: moneyRouteRateLimit(app.rateLimits.paymentPerMinute),
      schema: { params: PaymentStatusParams, response: responses(PaymentStatus) },
    },
    async (request) => {
      await requirePayer(app, request, request.params.id);
      await spendProviderRead(app, request);
      return app.payments.status(request.params.id, providerLog(request));
    },
  );
}
