import { Health } from '@placeport/contract/routes';
import type { FastifyInstance } from 'fastify';
import { responses } from '../http/schemas.js';

/**
 * `GET /api/health` → `{ ok: true, status, store }`, from what the process knows (no outside
 * call, so it answers at once whatever Redis or Stripe do). `ok` stays true while the process
 * serves, so a load balancer keeps sending the static page and `/api/config` to an instance whose
 * Redis is away; `status: 'degraded'` and `store: 'unavailable'` say that payments and lookups
 * answer 503 `store_unavailable` until Redis returns.
 */
export function registerHealthRoute(app: FastifyInstance): void {
  app.get('/api/health', { schema: { response: responses(Health) } }, async (): Promise<Health> => {
    const { state } = app;
    if (!state.available()) return { ok: true, status: 'degraded', store: 'unavailable' };
    return { ok: true, status: 'ok', store: state.kind };
  });
}
