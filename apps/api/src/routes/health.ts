import type { FastifyInstance } from 'fastify';
import { exactObject, responses } from '../http/schemas.js';

/** `GET /api/health` → `{ ok: true }`: the process is up and serving (no outside calls). */
export function registerHealthRoute(app: FastifyInstance): void {
  app.get(
    '/api/health',
    { schema: { response: responses(exactObject({ ok: { type: 'boolean', const: true } })) } },
    async () => ({ ok: true as const }),
  );
}
