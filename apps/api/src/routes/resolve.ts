import { FAILURE_REASONS, MAX_URL_LENGTH, OverloadedError } from '@placeport/resolver';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { MAX_URLS_PER_CALL } from '../allowance/limits.js';
import { exactObject, PaymentIntentId, responses } from '../http/schemas.js';
import { providerLog } from './payments.js';

/** Largest resolve body: the per-call cap of links at the longest length, with JSON overhead. */
export const RESOLVE_BODY_LIMIT_BYTES = MAX_URLS_PER_CALL * (MAX_URL_LENGTH + 16) + 4096;

const ResolveBody = v.strictObject({
  urls: v.pipe(
    v.array(
      v.pipe(
        v.string('Each link must be a string.'),
        v.minLength(1, 'A link cannot be empty.'),
        v.maxLength(MAX_URL_LENGTH, `A link can be at most ${MAX_URL_LENGTH} characters.`),
      ),
      'urls must be a list of links.',
    ),
    v.maxLength(MAX_URLS_PER_CALL, `At most ${MAX_URLS_PER_CALL} links per request.`),
  ),
  paymentIntentId: v.optional(PaymentIntentId),
});

const RESOLVED = exactObject({
  results: { type: 'object', additionalProperties: { type: 'string' } },
  failures: {
    type: 'object',
    additionalProperties: { type: 'string', enum: [...FAILURE_REASONS] },
  },
});

/**
 * `POST /api/resolve-urls-batch { urls, paymentIntentId? }` → `{ results, failures }`: a URL
 * carrying coordinates for each link resolved, a reason (product.md) for each one not. Without a
 * payment the batch is limited to the free tier; with an authorized one, to what it paid for. Paid
 * batches are served before free ones, clients take turns; when too many lookups wait the call is
 * refused with 503 and `Retry-After`. Links are not logged or stored; if the browser goes away,
 * the lookups stop.
 */
export function registerResolveRoute(app: FastifyInstance): void {
  app.post<{ Body: v.InferOutput<typeof ResolveBody> }>(
    '/api/resolve-urls-batch',
    {
      bodyLimit: RESOLVE_BODY_LIMIT_BYTES,
      config: { rateLimit: { max: app.rateLimits.resolvePerMinute, timeWindow: 60_000 } },
      schema: { body: ResolveBody, response: responses(RESOLVED) },
    },
    async (request, reply) => {
      const links = [...new Set(request.body.urls)];
      const intentId = request.body.paymentIntentId;
      if (intentId === undefined) {
        app.linkAllowance.checkFree(links.length);
      } else {
        const places = await app.payments.authorizedPlaces(intentId, providerLog(request));
        app.linkAllowance.reserve(intentId, links.length, places);
      }
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const requester = intentId
        ? { client: `pay:${intentId}`, priority: 'paid' as const }
        : { client: `ip:${request.ip}`, priority: 'free' as const };
      try {
        const { results, failures, report } = await app.resolver.resolve(links, {
          signal: gone.signal,
          requester,
        });
        request.log.info({ resolve: report }, 'resolved batch');
        return { results, failures };
      } catch (error) {
        if (!(error instanceof OverloadedError)) throw error;
        request.log.warn({ retryAfter: error.retryAfterSeconds }, 'resolve queue full');
        return reply
          .status(503)
          .header('retry-after', String(error.retryAfterSeconds))
          .send({ error: { code: 'overloaded', message: error.message } });
      }
    },
  );
}
