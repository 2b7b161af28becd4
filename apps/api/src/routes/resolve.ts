import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { FAILURE_REASONS, linkNeed, MAX_URL_LENGTH, OverloadedError } from '@placeport/resolver';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { FREE_TIER_MAX_URLS, MAX_URLS_PER_CALL } from '../allowance/limits.js';
import { ApiError } from '../http/errors.js';
import { exactObject, PaymentIntentId, responses } from '../http/schemas.js';
import { moneyRouteRateLimit } from '../http/security.js';
import { providerLog } from '../payments/failures.js';
import { provenPayer, requirePayer } from '../payments/payer.js';
import { clientKeyOf } from '../http/client.js';

/** Largest resolve body: the per-call cap of links at the longest length, with JSON overhead. */
export const RESOLVE_BODY_LIMIT_BYTES = MAX_URLS_PER_CALL * (MAX_URL_LENGTH + 16) + 4096;
/**
 * Largest resolve body from a browser that holds no payer cookie (so cannot be paying): the free
 * tier's links at the longest length. Bigger bodies are refused before they are read.
 */
export const FREE_BODY_LIMIT_BYTES = FREE_TIER_MAX_URLS * (MAX_URL_LENGTH + 16) + 1024;

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

/** A short, fixed-size key for one distinct link (links are never stored as they are). */
export function linkKey(link: string): string {
  return createHash('sha256').update(link).digest('base64url').slice(0, 22);
}

/** A body stream that fails once more than `limit` bytes went through (chunked bodies included). */
function capped(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) {
        callback(
          new ApiError(
            413,
            'payload_too_large',
            'Without a payment, a request can hold at most 4 links.',
          ),
        );
      } else {
        callback(null, chunk);
      }
    },
  });
}

/**
 * The distinct links of a request that need a lookup, by the resolver's own rule ({@link linkNeed}),
 * and those it would refuse (`not_allowed`). Only the first are counted against an allowance and
 * sent to the resolver; links that carry their coordinates are answered but not counted either.
 */
function sortLinks(links: readonly string[]) {
  const lookups: string[] = [];
  const answered: string[] = [];
  const refused: string[] = [];
  for (const link of links) {
    const kind = linkNeed(link).kind;
    if (kind === 'lookup') lookups.push(link);
    else if (kind === 'coordinates') answered.push(link);
    else refused.push(link);
  }
  return { lookups, answered, refused };
}

/**
 * `POST /api/resolve-urls-batch { urls, paymentIntentId? }` → `{ results, failures }`: a URL
 * carrying coordinates for each link resolved, a reason (product.md) for each one not.
 * - Only links that need a lookup count (product.md, "Needs a lookup"): a link the resolver would
 *   refuse is answered `not_allowed` at once, never sent nor counted; a link carrying its
 *   coordinates is answered but not counted.
 * - Without a payment: at most 4 links per request, counted over the raw list (it bounds the
 *   request), and the client's free budget of the day (`FREE_LINKS_PER_DAY`, per IPv4 address or
 *   IPv6 /64) spent by the links that need a lookup; a browser without a payer cookie cannot send a
 *   bigger body at all.
 * - With a payment: only the browser that created it (payer cookie), only while authorized, and
 *   at most its place count in distinct links needing a lookup over all calls (a retry of counted
 *   links is free). Every place resolved is recorded as the server's count, the floor of what
 *   capture charges.
 * Paid batches are served before free ones and clients take turns; when too many lookups wait the
 * call is refused with 503 and `Retry-After`. Links are not logged or stored.
 */
export function registerResolveRoute(app: FastifyInstance): void {
  app.post<{ Body: v.InferOutput<typeof ResolveBody> }>(
    '/api/resolve-urls-batch',
    {
      bodyLimit: RESOLVE_BODY_LIMIT_BYTES,
      config: moneyRouteRateLimit(app.rateLimits.resolvePerMinute),
      schema: { body: ResolveBody, response: responses(RESOLVED) },
      preParsing: async (request, _reply, payload) => {
        if (provenPayer(request)) return payload;
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > FREE_BODY_LIMIT_BYTES) {
          throw new ApiError(
            413,
            'payload_too_large',
            'Without a payment, a request can hold at most 4 links.',
          );
        }
        return payload.pipe(capped(FREE_BODY_LIMIT_BYTES));
      },
    },
    async (request, reply) => {
      const raw = request.body.urls;
      const { lookups, answered, refused } = sortLinks([...new Set(raw)]);
      const intentId = request.body.paymentIntentId;
      const log = providerLog(request);
      if (intentId === undefined) {
        if (raw.length > FREE_TIER_MAX_URLS) {
          throw new ApiError(
            402,
            'payment_required',
            `Without a payment, at most ${FREE_TIER_MAX_URLS} links can be looked up per request.`,
          );
        }
        const perDay = app.settings.freeLinksPerDay;
        // Over the raw list, as the per-request limit: a link sent twice is looked up twice.
        const needed = new Set(lookups);
        const counted = raw.filter((link) => needed.has(link)).length;
        const budget = await app.state.takeFreeLinks(
          clientKeyOf(request.ip),
          counted,
          perDay,
          app.now(),
        );
        if (!budget.ok) {
          throw new ApiError(
            402,
            'free_budget_used',
            `The ${perDay} free lookups of today are used (${budget.remaining} left). A payment covers more.`,
          );
        }
      } else {
        await requirePayer(app, request, intentId);
        const places = await app.payments.authorizedPlaces(intentId, log);
        const perCall = Math.min(places, MAX_URLS_PER_CALL);
        if (lookups.length > perCall) {
          throw new ApiError(
            400,
            'too_many_urls',
            `This request holds ${lookups.length} links to look up; at most ${perCall} are allowed per request for this payment.`,
          );
        }
        const reserved = await app.state.reserveLinks(intentId, lookups.map(linkKey), places);
        if (!reserved.ok) {
          throw new ApiError(
            403,
            'link_allowance_used',
            `This payment covers ${places} places; ${reserved.remaining} more links can be looked up.`,
          );
        }
      }
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const requester = intentId
        ? { client: `pay:${intentId}`, priority: 'paid' as const }
        : { client: `ip:${clientKeyOf(request.ip)}`, priority: 'free' as const };
      try {
        const { results, failures, report } = await app.resolver.resolve(
          [...lookups, ...answered],
          { signal: gone.signal, requester },
        );
        for (const link of refused) failures[link] = 'not_allowed';
        request.log.info({ resolve: report, refused: refused.length }, 'resolved batch');
        if (intentId !== undefined && Object.keys(results).length > 0) {
          await app.payments.recordResolved(intentId, Object.keys(results).map(linkKey), log);
        }
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
