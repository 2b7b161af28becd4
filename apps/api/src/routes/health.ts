import type { FastifyInstance } from 'fastify';
import { exactObject, responses } from '../http/schemas.js';

/** What `GET /api/health` answers. */
export interface Health {
  /** The process is up and serving: always true when it answers (what load balancers read). */
  ok: true;
  /** `degraded` while the shared state is away: pages and settings are served, payments are not. */
  status: 'ok' | 'degraded';
  /** The shared state: in this process, Redis answering, or Redis away. */
  store: 'memory' | 'redis' | 'unavailable';
}

/**
 * `GET /api/health` → `{ ok: true, status, store }`, from what the process knows (no outside
 * call, so it answers at once whatever Redis or Stripe do). `ok` stays true while the process
 * serves, so a load balancer keeps sending the static page and `/api/config` to an instance whose
 * Redis is away; `status: 'degraded'` and `store: 'unavailable'` say that payments and lookups
 * answer 503 `store_unavailable` until Redis returns.
 */
export function registerHealthRoute(app: FastifyInstance): void {
  const schema = exactObject({
    ok: { type: 'boolean', const: true },
    status: { type: 'string', enum: ['ok', 'degraded'] },
    store: { type: 'string', enum: ['memory', 'redis', 'unavailable'] },
  });
  app.get('/api/health', { schema: { response: responses(schema) } }, async (): Promise<Health> => {
    const { state } = app;
    if (!state.available()) return { ok: true, status: 'degraded', store: 'unavailable' };
    return { ok: true, status: 'ok', store: state.kind };
  });
}
