/**
 * Resolution limits. Every bound is a named constant with tests at and past it; the timing ones can
 * be lowered per app (see {@link ResolverTuning}) so tests stay fast.
 */

/** Free conversions are under 5 places (under the $0.50 minimum), so a batch without a payment holds at most 4 links. */
export const FREE_TIER_MAX_URLS = 4;
/** Hard cap on links per call, whatever the payment covers; the converter sends chunks of 500. */
export const MAX_URLS_PER_CALL = 1000;
/** Longest link accepted; Takeout's are percent-encoded ASCII of a few hundred characters. */
export const MAX_URL_LENGTH = 2048;
/** Redirects followed from one link (short links take one or two). */
export const MAX_REDIRECTS = 5;
/** Largest page body read; the pin sits in the page head, and real place pages are under 2 MB. */
export const MAX_PAGE_BYTES = 3 * 1024 * 1024;

/** Upstream requests in flight per process, across all batches: polite to Google, bounded for us. */
export const UPSTREAM_CONCURRENCY = 32;
/** One upstream request (connect, answer, body) may take this long. */
export const REQUEST_TIMEOUT_MS = 8_000;
/**
 * A whole batch answers within this time with what was resolved by then: well under the browser's
 * 120 s timeout (seed section 9), leaving room for a second chunk and the network.
 */
export const BATCH_DEADLINE_MS = 45_000;

/** Coordinates are kept for 30 days, the longest Google Maps Platform terms allow caching lat/lng. */
export const CACHE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Places kept in the cache (about 100 bytes each). */
export const CACHE_MAX_ENTRIES = 100_000;
/** Payments whose cumulative link count is tracked; the oldest are forgotten past this. */
export const MAX_TRACKED_INTENTS = 10_000;

/** The timing and size knobs of one resolver; defaults are the constants above. */
export interface ResolverTuning {
  concurrency: number;
  requestTimeoutMs: number;
  batchDeadlineMs: number;
  cacheTtlMs: number;
  cacheMaxEntries: number;
}

/** The production tuning. */
export const DEFAULT_RESOLVER_TUNING: ResolverTuning = {
  concurrency: UPSTREAM_CONCURRENCY,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  batchDeadlineMs: BATCH_DEADLINE_MS,
  cacheTtlMs: CACHE_TTL_MS,
  cacheMaxEntries: CACHE_MAX_ENTRIES,
};
