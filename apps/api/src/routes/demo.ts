import { DemoAuthorizeBody, DemoAuthorized } from '@placeport/contract/routes';
import type { FastifyInstance } from 'fastify';
import { providerLog } from '../http/errors.js';
import { requirePayer } from '../http/payer.js';
import { providerStep } from '../payments/errors.js';
import { paymentCall } from './payments.js';

/**
 * `POST /api/demo/authorize { paymentIntentId }` → `{ status: 'requires_capture' }`: what the card
 * form does in demo-payments mode. Registered only in that mode, so with Stripe keys it is a 404.
 */
export function registerDemoRoute(app: FastifyInstance): void {
  const demo = app.demoPayments;
  if (!demo) return;
  app.post<{ Body: DemoAuthorizeBody }>(
    '/api/demo/authorize',
    paymentCall(app, DemoAuthorizeBody, DemoAuthorized),
    async (request) => {
      const id = request.body.paymentIntentId;
      await requirePayer(app, request, id);
      // The authorization starts the idle time the sweep measures (recorded first: a store that
      // is away refuses the step before anything changes).
      await app.payments.usage.authorized(id);
      await providerStep(async () => demo.authorize(id), providerLog(request));
      return { status: 'requires_capture' as const };
    },
  );
}
