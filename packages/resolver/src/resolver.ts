import { resolvedUrlFor } from '@placeport/converter';
import { isValidCoordinate } from '@placeport/converter/internal';
import { Breaker } from './breaker.js';
import { MemoryPlaceCache, type CachedPlace, type PlaceCache } from './cache.js';
import { systemClock, timeoutSignal, type Clock } from './clock.js';
import type { EvidenceSource } from './evidence.js';
import { FairQueue, type Requester } from './fair-queue.js';
import { DEFAULT_RESOLVER_TUNING, type ResolverTuning } from './limits.js';
import {
  fromCache,
  lookupLink,
  lookupPlace,
  type FailureReason,
  type LookupContext,
  type LookupOutcome,
  type PlacesKeyState,
} from './lookup.js';
import { planFor, type Plan } from './plan.js';

/** Counts of one batch, for logs: never the links themselves. */
export interface BatchReport {
  links: number;
  resolved: number;
  cacheHits: number;
  upstreamRequests: { pages: number; places: number };
  failures: Partial<Record<FailureReason, number>>;
  /** Why lookups failed, in more detail than the reasons (`sorry`, `timeout`, `product_page`…). */
  details: Record<string, number>;
  sources: Partial<Record<EvidenceSource, number>>;
  deadlineHit: boolean;
  /**
   * Google's reason for refusing the Places API key (`API_KEY_INVALID`, `SERVICE_DISABLED`…), when
   * it refused it and has not answered it since: the Places API was skipped and the places' pages
   * answered instead.
   */
  placesKeyRejected?: string;
}

/** What a batch answers: the seed's `results`, and a reason for every link without coordinates. */
export interface ResolveOutcome {
  results: Record<string, string>;
  failures: Record<string, FailureReason>;
  report: BatchReport;
}

/** Per-call options of {@link Resolver.resolve}. */
export interface ResolveCallOptions {
  /** Ends the batch early (the caller went away). */
  signal?: AbortSignal;
  /** Who asks: paid batches go first, clients take turns (default: one anonymous free client). */
  requester?: Requester;
  /** Called as lookups finish (done, total), for progress. */
  onProgress?: (done: number, total: number) => void;
}

/** Resolves links to URLs carrying coordinates. */
export interface Resolver {
  /**
   * Answers every distinct link: `results[link]` is a URL carrying coordinates the converter reads,
   * or `failures[link]` says why there is none. Never throws for a link's failure; throws
   * {@link OverloadedError} when the queue cannot take the batch.
   */
  resolve(links: readonly string[], options?: ResolveCallOptions): Promise<ResolveOutcome>;
}

/** What {@link createResolver} needs; everything outside is injected. */
export interface ResolverOptions {
  fetch: typeof globalThis.fetch;
  /** Origin standing in for every Maps host (tests only), or undefined for Google's own hosts. */
  mapsOrigin?: string | undefined;
  /** Origin of the Places API (New). */
  placesOrigin?: string;
  googleMapsApiKey?: string | undefined;
  /**
   * Called when Google refuses the key (with its reason), once each time it goes from answered to
   * refused, so the operator can be told at once; every batch's report says so too.
   */
  onPlacesKeyRejected?: (reason: string) => void;
  cache?: PlaceCache;
  clock?: Clock;
  tuning?: Partial<ResolverTuning>;
}

/** Google's Places API (New) origin. */
export const PLACES_API_ORIGIN = 'https://places.googleapis.com';

type Job = { plan: Exclude<Plan, { kind: 'refused' | 'known' | 'nowhere' }>; links: string[] };

function jobKey(plan: Job['plan']): string {
  return plan.kind === 'place' ? plan.key : `link:${plan.page.href}`;
}

function emptyReport(links: number): BatchReport {
  return {
    links,
    resolved: 0,
    cacheHits: 0,
    upstreamRequests: { pages: 0, places: 0 },
    failures: {},
    details: {},
    sources: {},
    deadlineHit: false,
  };
}

/**
 * The resolver: each distinct place once per batch; a link's own pin first, then the cache (strong
 * answers only), the Places API (with a key), the place page; at most `concurrency` upstream
 * lookups in flight across all batches, shared fairly ({@link FairQueue}); a breaker per upstream
 * path that stops sending when Google refuses us; each request bounded by `requestTimeoutMs`, each
 * batch by `batchDeadlineMs`, on timers that survive garbage collection.
 */
export function createResolver(options: ResolverOptions): Resolver {
  const tuning = { ...DEFAULT_RESOLVER_TUNING, ...options.tuning };
  const clock = options.clock ?? systemClock;
  const cache = options.cache ?? new MemoryPlaceCache(undefined, undefined, clock);
  const queue = new FairQueue(tuning);
  const breakers = { pages: new Breaker(clock, tuning), places: new Breaker(clock, tuning) };
  const placesKey: PlacesKeyState = {
    rejected: undefined,
    onRejected: (reason) => options.onPlacesKeyRejected?.(reason),
  };
  const upstream = {
    fetch: options.fetch,
    clock,
    mapsOrigin: options.mapsOrigin,
    placesOrigin: options.placesOrigin ?? PLACES_API_ORIGIN,
    requestTimeoutMs: tuning.requestTimeoutMs,
  };

  async function resolve(
    links: readonly string[],
    call: ResolveCallOptions = {},
  ): Promise<ResolveOutcome> {
    const requester = call.requester ?? { client: 'anonymous', priority: 'free' };
    const results: Record<string, string> = {};
    const failures: Record<string, FailureReason> = {};
    const distinct = [...new Set(links)];
    const report = emptyReport(distinct.length);
    const jobs = new Map<string, Job>();
    let done = 0;
    const progress = (count: number) => {
      done += count;
      call.onProgress?.(done, distinct.length);
    };
    const answer = (found: CachedPlace, source: EvidenceSource, targets: readonly string[]) => {
      // Every source checks its points already; a point that is no place still never becomes a
      // URL (resolvedUrlFor refuses it), nor fails the batch.
      if (!isValidCoordinate(found.coordinates.lat, found.coordinates.lng)) {
        fail('not_found', 'no_location', targets);
        return;
      }
      const resolved = resolvedUrlFor(found.coordinates, found.placeId);
      for (const link of targets) results[link] = resolved;
      report.resolved += targets.length;
      report.sources[source] = (report.sources[source] ?? 0) + targets.length;
    };
    const fail = (reason: FailureReason, detail: string, targets: readonly string[]) => {
      for (const link of targets) failures[link] = reason;
      report.failures[reason] = (report.failures[reason] ?? 0) + targets.length;
      report.details[detail] = (report.details[detail] ?? 0) + targets.length;
    };
    for (const link of distinct) {
      const plan = planFor(link);
      if (plan.kind === 'refused') fail('not_allowed', 'not_a_maps_link', [link]);
      else if (plan.kind === 'known') answer(plan, 'url-pin', [link]);
      else if (plan.kind === 'nowhere') fail('not_found', 'no_location', [link]);
      else {
        const key = jobKey(plan);
        const job = jobs.get(key) ?? { plan, links: [] };
        job.links.push(link);
        // Links to one place share a lookup, made for the link that names its ftid when one does:
        // then a cached answer is checked against the ftid's cell, whatever the batch's order.
        const better = plan.kind === 'place' && plan.ids.ftid !== undefined;
        if (better && job.plan.kind === 'place' && !job.plan.ids.ftid) job.plan = plan;
        jobs.set(key, job);
      }
    }
    progress(distinct.length - [...jobs.values()].reduce((n, job) => n + job.links.length, 0));

    const waiting: Job[] = [];
    for (const job of jobs.values()) {
      const cached =
        job.plan.kind === 'place' ? await fromCache({ cache }, job.plan.ids) : undefined;
      if (cached && 'found' in cached) {
        report.cacheHits += 1;
        answer(cached.found, 'cache', job.links);
        progress(job.links.length);
      } else {
        waiting.push(job);
      }
    }
    if (waiting.length === 0) return { results, failures, report };
    queue.admit(requester, waiting.length);

    const deadline = timeoutSignal(clock, tuning.batchDeadlineMs, call.signal);
    const context: LookupContext = {
      upstream,
      clock,
      cache,
      breakers,
      googleMapsApiKey: options.googleMapsApiKey,
      placesKey,
      retryDelayMs: tuning.retryDelayMs,
      signal: deadline.signal,
      onRequest: (path) => {
        report.upstreamRequests[path] += 1;
      },
    };
    const settled = new Set<Job>();
    const settle = (job: Job, outcome: LookupOutcome) => {
      if (settled.has(job)) return;
      settled.add(job);
      if ('found' in outcome) answer(outcome.found, outcome.verdict.source, job.links);
      else fail(outcome.reason, outcome.detail, job.links);
      progress(job.links.length);
    };
    const run = async (job: Job) => {
      try {
        const outcome = await queue.run(
          requester,
          () =>
            job.plan.kind === 'place'
              ? lookupPlace(context, job.plan.ids, job.plan.page)
              : lookupLink(context, job.plan.page),
          deadline.signal,
        );
        settle(
          job,
          deadline.signal.aborted ? { reason: 'unavailable', detail: 'deadline' } : outcome,
        );
      } catch {
        settle(job, {
          reason: 'unavailable',
          detail: deadline.signal.aborted ? 'deadline' : 'error',
        });
      }
    };
    const finished = Promise.all(waiting.map(run));
    let onAbort = () => {};
    const stopped = new Promise<void>((resolveStop) => {
      onAbort = () => resolveStop();
      deadline.signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([finished, stopped]);
    deadline.signal.removeEventListener('abort', onAbort);
    report.deadlineHit = deadline.timedOut;
    deadline.dispose();
    for (const job of waiting) {
      if (!settled.has(job)) settle(job, { reason: 'unavailable', detail: 'deadline' });
    }
    if (placesKey.rejected !== undefined) report.placesKeyRejected = placesKey.rejected;
    return { results: { ...results }, failures: { ...failures }, report };
  }

  return { resolve };
}
