/**
 * `@placeport/resolver`: Google Maps link → coordinates, for the PlacePort API and CLI. Node-only
 * helpers (the public-address fetch) are in `@placeport/resolver/node`.
 */
export {
  createResolver,
  PLACES_API_ORIGIN,
  type BatchReport,
  type ResolveCallOptions,
  type ResolveOutcome,
  type Resolver,
  type ResolverOptions,
} from './resolver.js';
export { FAILURE_REASONS, type FailureReason } from './lookup.js';
export { MemoryPlaceCache, type CachedPlace, type PlaceCache } from './cache.js';
export { systemClock, timeoutSignal, type Clock, type TimedSignal } from './clock.js';
export { FairQueue, OverloadedError, type Requester, type FairQueueTuning } from './fair-queue.js';
export { Breaker, type BackoffTuning } from './breaker.js';
/**
 * The allowlist, the ids a link names and the decision whether it needs a lookup are the converter
 * core's, so the selection counts, the pipeline, the CLI, the API's allowances and the resolver
 * judge links by one rule.
 */
export {
  cacheKeyOf,
  GOOGLE_SUPPORTED_DOMAINS,
  isAllowedFetchUrl,
  isGooglePlaceLink,
  isShortLink,
  linkNeed,
  placeIdsOf,
  type LinkNeed,
  type PlaceIds,
} from '@placeport/converter/internal';
export { planFor, placePageUrl, type Plan } from './plan.js';
export { judgePage, type Verdict, type Strength, type EvidenceSource } from './evidence.js';
export { readPage, MAX_SCAN_CHARS, type PageEvidence, type PlaceData } from './page.js';
export { isProductName } from './product-names.js';
export {
  UPSTREAM_HOST_HEADER,
  CONSENT_COOKIES,
  DESKTOP_CHROME_UA,
  readCapped,
} from './upstream.js';
export * from './limits.js';
