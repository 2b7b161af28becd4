/**
 * Resolution limits. Every bound is a named constant with tests at and past it; the timing ones can
 * be changed per resolver (see {@link ResolverTuning}).
 */

/** Longest link accepted: the converter core's, which refuses a longer one as `not_allowed`. */
export { MAX_URL_LENGTH } from '@placeport/converter/internal';
/** Redirects followed from one link (short links take one or two). */
export const MAX_REDIRECTS = 5;
/**
 * Transient failures retried within one lookup of place pages, over all its hops: a link whose
 * every hop fails once would otherwise cost twice its hops in requests (12), each one Google may
 * count against this server. The run's own retry rounds look an `unavailable` place up again.
 */
export const PAGE_RETRIES_PER_LOOKUP = 1;
/** Largest page body read; real place pages are under 2 MB. */
export const MAX_PAGE_BYTES = 3 * 1024 * 1024;

/** Upstream requests in flight per resolver, across all batches: polite to Google, bounded for us. */
export const UPSTREAM_CONCURRENCY = 32;
/** Lookups that may wait for a slot, across all batches (20 paid batches of 1,000). */
export const MAX_QUEUED_LOOKUPS = 20_000;
/** Free lookups that may wait for a slot, across all clients. */
export const MAX_QUEUED_FREE_LOOKUPS = 256;
/**
 * Upstream slots free lookups may hold at once (a quarter): the other 24 are kept for paid ones,
 * so a paying batch runs at three quarters of full speed at worst, whatever free clients send.
 */
export const MAX_ACTIVE_FREE_LOOKUPS = UPSTREAM_CONCURRENCY / 4;
/** One upstream request (connect, answer, body) may take this long. */
export const REQUEST_TIMEOUT_MS = 8_000;
/**
 * A whole batch answers within this time with what was resolved by then: well under the browser's
 * 120 s timeout (seed section 9), leaving room for a second chunk and the network.
 */
export const BATCH_DEADLINE_MS = 45_000;
/** Pause before the one retry of a transient failure (a short link's 404 clears in a few seconds). */
export const RETRY_DELAY_MS = 2_000;
/**
 * Network failures or timeouts in a row, with no answer between them, after which Google is taken
 * to be unreachable from here (no route, DNS, a firewall) and the path's breaker opens: a run on a
 * machine without internet ends in seconds with `unavailable`, instead of trying every place.
 */
export const UNREACHABLE_AFTER_FAILURES = 8;
/** First pause of a path after Google refuses us; it doubles per refusal up to the maximum. */
export const BACKOFF_BASE_MS = 30_000;
/** Longest pause of a path after repeated refusals. */
export const BACKOFF_MAX_MS = 15 * 60_000;
/**
 * Longest pause of a path while Google cannot be reached (before jitter): a probe then is one
 * request, and the API tells callers to come back in a minute (`Retry-After: 60`).
 */
export const UNREACHABLE_BACKOFF_MAX_MS = 60_000;

/** Coordinates are kept for 30 days, the longest Google Maps Platform terms allow caching lat/lng. */
export const CACHE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Places kept in the in-memory cache (about 100 bytes each). */
export const CACHE_MAX_ENTRIES = 100_000;

/** The timing and size knobs of one resolver; defaults are the constants above. */
export interface ResolverTuning {
  concurrency: number;
  maxQueued: number;
  maxQueuedFree: number;
  maxActiveFree: number;
  requestTimeoutMs: number;
  batchDeadlineMs: number;
  retryDelayMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** The production tuning. */
export const DEFAULT_RESOLVER_TUNING: ResolverTuning = {
  concurrency: UPSTREAM_CONCURRENCY,
  maxQueued: MAX_QUEUED_LOOKUPS,
  maxQueuedFree: MAX_QUEUED_FREE_LOOKUPS,
  maxActiveFree: MAX_ACTIVE_FREE_LOOKUPS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  batchDeadlineMs: BATCH_DEADLINE_MS,
  retryDelayMs: RETRY_DELAY_MS,
  backoffBaseMs: BACKOFF_BASE_MS,
  backoffMaxMs: BACKOFF_MAX_MS,
};
