import { Transform } from 'node:stream';
import {
  FREE_TIER_MAX_URLS,
  GOOGLE_UNREACHABLE,
  MAX_URL_LENGTH,
  MAX_URLS_PER_CALL,
} from '@placeport/contract';
import { ResolveBody, Resolved } from '@placeport/contract/routes';
import { linkNeed } from '@placeport/resolver';
import type { FastifyInstance } from 'fastify';
import { queueTurn, type Requester } from '../allowance/allowance.js';
import { clientKeyOf } from '../http/client.js';
import { ApiError, providerLog } from '../http/errors.js';
import { provenPayer, requirePayer, spendProviderRead } from '../http/payer.js';
import { responses } from '../http/schemas.js';
import { moneyRouteRateLimit } from '../http/security.js';

/** Largest resolve body: the per-call cap of links at the longest length, with JSON overhead. */
export const RESOLVE_BODY_LIMIT_BYTES = MAX_URLS_PER_CALL * (MAX_URL_LENGTH + 16) + 4096;
/**
 * Largest resolve body from a browser that holds no payer cookie (so cannot be paying): the free
 * tier's links at the longest length. Bigger bodies are refused before they are read.
 */
export const FREE_BODY_LIMIT_BYTES = FREE_TIER_MAX_URLS * (MAX_URL_LENGTH + 16) + 1024;

/** The refusal of a body too large to be free, before or while it is read. */
const tooLargeToBeFree = () =>
  new ApiError(
    413,
    'payload_too_large',
    `Without a payment, a request can hold at most ${FREE_TIER_MAX_URLS} links.`,
  );

/** A body stream that fails once more than `limit` bytes went through (chunked bodies included). */
function capped(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(tooLargeToBeFree());
      else callback(null, chunk);
    },
  });
}

/**
 * The distinct links of a request that need a lookup, by the resolver's own rule ({@link linkNeed}),
 * and those it would refuse (`not_allowed`). Only the first are counted against an allowance and
 * sent to the resolver; links that carry their coordinates, and Takeout's link of a place without
 * a location (`not_found` with nothing to look up), are answered by it but not counted either.
 */
function sortLinks(links: readonly string[]) {
  const lookups: string[] = [];
  const answered: string[] = [];
  const refused: string[] = [];
  for (const link of links) {
    const kind = linkNeed(link).kind;
    if (kind === 'lookup') lookups.push(link);
    else if (kind === 'coordinates' || kind === 'no_location') answered.push(link);
    else refused.push(link);
  }
  return { lookups, answered, refused };
}

/** When to ask again after Google could not be reached: the resolver's first pause. */
export const GOOGLE_UNREACHABLE_RETRY_AFTER_SECONDS = 60;

/**
 * True when a batch had links to look up and every one failed because no request got an answer
 * (the network, or the breaker opened for that): the page then says Google cannot be reached,
 * rather than that its lookups failed one by one.
 */
function googleOutOfReach(
  lookups: number,
  found: number,
  details: Readonly<Record<string, number>>,
): boolean {
  if (lookups === 0 || found > 0) return false;
  return (details.unreachable ?? 0) + (details.network ?? 0) >= lookups;
}

/**
 * `POST /api/resolve-urls-batch` (the contract's `ResolveBody` → `Resolved`). A link the
 * resolver would refuse is answered `not_allowed` at once, never sent nor counted; a link carrying
 * its coordinates is answered but not counted. A paid batch needs its payer's cookie; what a batch
 * may cost is the allowance's (`allowance/allowance.ts`), and a browser without a payer cookie
 * cannot send a body bigger than the free tier's. A batch none of whose lookups could reach Google
 * is 503 `google_unreachable`, and a free one gets its links back into the day's budget. Paid
 * batches are served before free ones and clients take turns; when too many lookups wait the call
 * is refused (503 `overloaded`, with `Retry-After`). Links are not logged or stored.
 */
export function registerResolveRoute(app: FastifyInstance): void {
  app.post<{ Body: ResolveBody }>(
    '/api/resolve-urls-batch',
    {
      bodyLimit: RESOLVE_BODY_LIMIT_BYTES,
      config: moneyRouteRateLimit(app.rateLimits.resolvePerMinute),
      schema: { body: ResolveBody, response: responses(Resolved) },
      preParsing: async (request, _reply, payload) => {
        if (provenPayer(request)) return payload;
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > FREE_BODY_LIMIT_BYTES) throw tooLargeToBeFree();
        return payload.pipe(capped(FREE_BODY_LIMIT_BYTES));
      },
    },
    async (request, reply) => {
      const sent = request.body.urls;
      const { lookups, answered, refused } = sortLinks([...new Set(sent)]);
      const intentId = request.body.paymentIntentId;
      if (intentId !== undefined) {
        await requirePayer(app, request, intentId);
        if (await app.payments.readsProviderFor(intentId)) await spendProviderRead(app, request);
      }
      const requester: Requester =
        intentId === undefined
          ? { kind: 'client', key: clientKeyOf(request.ip) }
          : { kind: 'payment', id: intentId };
      const log = providerLog(request);
      const spent = await app.allowance.spend(requester, sent, lookups, log);
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const resolved = await app.resolver.resolve([...lookups, ...answered], {
        // The client gone, or the server closing: the batch answers with what it found.
        signal: AbortSignal.any([gone.signal, app.closing]),
        requester: queueTurn(requester),
      });
      const { results, report } = resolved;
      // Keyed by links as sent, any text: on a plain object a refused `__proto__` would set the
      // prototype and vanish from the answer. (The resolver never gets such a link.)
      const failures: Resolved['failures'] = Object.assign(Object.create(null), resolved.failures);
      for (const link of refused) failures[link] = 'not_allowed';
      request.log.info({ resolve: report, refused: refused.length }, 'resolved batch');
      // Only what was looked up is counted: a link that carried its coordinates is answered free.
      const found = lookups.filter((link) => link in results);
      await app.allowance.resolved(requester, found, log);
      // Google out of reach: the lookups were not made, so they cost nothing. The batch is a 503
      // unless links carrying their coordinates were answered, which it does not throw away.
      const outOfReach = googleOutOfReach(lookups.length, found.length, report.details);
      if (outOfReach) await app.allowance.giveBack(requester, spent, log);
      if (outOfReach && Object.keys(results).length === 0) {
        throw new ApiError(
          503,
          GOOGLE_UNREACHABLE,
          'Google cannot be reached from this server right now, so these links were not looked up.',
          GOOGLE_UNREACHABLE_RETRY_AFTER_SECONDS,
        );
      }
      return { results, failures };
    },
  );
}
