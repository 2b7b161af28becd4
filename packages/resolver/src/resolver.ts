import { setMaxListeners } from 'node:events';
import { resolvedUrlFor } from '@placeport/converter';
import { PlaceCache, type CachedPlace } from './cache.js';
import { DEFAULT_RESOLVER_TUNING, type ResolverTuning } from './limits.js';
import { Limiter } from './limiter.js';
import {
  lookupPage,
  lookupPlacesApi,
  type LookupContext,
  type LookupResult,
  type MissReason,
} from './lookup.js';
import { planFor, type Plan } from './plan.js';
import type { UpstreamOptions } from './upstream.js';

/** Counts of one batch, for logs: never the links themselves. */
export interface BatchReport {
  links: number;
  resolved: number;
  cacheHits: number;
  upstreamRequests: number;
  refused: number;
  deadlineHit: boolean;
  misses: Partial<Record<MissReason, number>>;
}

/** Resolves links to URLs carrying coordinates (house-style: outside services behind small interfaces). */
export interface Resolver {
  /**
   * Answers `{ [link]: resolvedUrl }` for the links it could resolve before the batch deadline (or
   * `signal`); the others are absent. Never throws for a link's failure.
   */
  resolve(
    links: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ results: Record<string, string>; report: BatchReport }>;
  readonly cache: PlaceCache;
}

/** What {@link createResolver} needs. */
export interface ResolverOptions {
  fetch: typeof globalThis.fetch;
  mapsOrigin: string | undefined;
  placesOrigin: string;
  googleMapsApiKey: string | undefined;
  tuning?: Partial<ResolverTuning>;
}

type Job = { plan: Exclude<Plan, { kind: 'refused' | 'known' }>; links: string[] };

function jobKey(plan: Job['plan']): string {
  return plan.kind === 'place' ? plan.key : `link:${plan.page.href}`;
}

/**
 * The production resolver: each distinct place once per batch; cache, then the Places API (with a
 * key and a place id), then the place page; at most `concurrency` upstream lookups in flight across
 * the whole process; each request bounded by `requestTimeoutMs`, each batch by `batchDeadlineMs`.
 */
export function createResolver(options: ResolverOptions): Resolver {
  const tuning = { ...DEFAULT_RESOLVER_TUNING, ...options.tuning };
  const cache = new PlaceCache(tuning.cacheTtlMs, tuning.cacheMaxEntries);
  const limiter = new Limiter(tuning.concurrency);
  const upstream: UpstreamOptions = {
    fetch: options.fetch,
    mapsOrigin: options.mapsOrigin,
    placesOrigin: options.placesOrigin,
    requestTimeoutMs: tuning.requestTimeoutMs,
  };

  async function lookup(job: Job, context: LookupContext): Promise<LookupResult> {
    const { plan } = job;
    if (plan.kind === 'place') {
      if (options.googleMapsApiKey && plan.placeId) {
        // A Places API outage falls through to the page; only the batch's own end stops the lookup.
        const point = await lookupPlacesApi(context, options.googleMapsApiKey, plan.placeId).catch(
          (error: unknown) => {
            if (context.signal.aborted) throw error;
            return undefined;
          },
        );
        if (point) return { found: { coordinates: point, placeId: plan.placeId }, key: plan.key };
      }
      const page = await lookupPage(context, plan.page, plan.placeId);
      if (!('found' in page)) return page;
      return {
        found: { ...page.found, placeId: plan.placeId ?? page.found.placeId },
        key: plan.key,
      };
    }
    return lookupPage(context, plan.page, undefined);
  }

  async function resolve(links: readonly string[], outer?: AbortSignal) {
    const deadline = AbortSignal.timeout(tuning.batchDeadlineMs);
    const signal = outer ? AbortSignal.any([outer, deadline]) : deadline;
    // Every queued lookup and request listens to the batch signal: that is expected, not a leak.
    setMaxListeners(0, signal);
    const results: Record<string, string> = {};
    const report: BatchReport = {
      links: links.length,
      resolved: 0,
      cacheHits: 0,
      upstreamRequests: 0,
      refused: 0,
      deadlineHit: false,
      misses: {},
    };
    const answer = (found: CachedPlace, targets: readonly string[]) => {
      const resolved = resolvedUrlFor(found.coordinates, found.placeId);
      for (const link of targets) results[link] = resolved;
      report.resolved += targets.length;
    };
    const jobs = new Map<string, Job>();
    for (const link of new Set(links)) {
      const plan = planFor(link);
      if (plan.kind === 'refused') {
        report.refused += 1;
      } else if (plan.kind === 'known') {
        answer(plan, [link]);
      } else {
        const key = jobKey(plan);
        const job = jobs.get(key) ?? { plan, links: [] };
        job.links.push(link);
        jobs.set(key, job);
      }
    }
    const context: LookupContext = {
      upstream,
      cache,
      signal,
      onRequest: () => {
        report.upstreamRequests += 1;
      },
    };
    const miss = (reason: MissReason) => {
      report.misses[reason] = (report.misses[reason] ?? 0) + 1;
    };
    const run = async (job: Job) => {
      const cached = job.plan.kind === 'place' ? cache.get(job.plan.key) : undefined;
      if (cached) {
        report.cacheHits += 1;
        return answer(cached, job.links);
      }
      try {
        const outcome = await limiter.run(() => lookup(job, context), signal);
        if (signal.aborted) return miss('aborted');
        if ('miss' in outcome) return miss(outcome.miss);
        if (outcome.key) cache.set(outcome.key, outcome.found);
        answer(outcome.found, job.links);
      } catch {
        miss(signal.aborted ? 'aborted' : 'network');
      }
    };
    const finished = Promise.all([...jobs.values()].map(run));
    let onAbort = () => {};
    const stopped = new Promise<void>((resolveStop) => {
      onAbort = () => resolveStop();
      signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([finished, stopped]);
    signal.removeEventListener('abort', onAbort);
    report.deadlineHit = deadline.aborted;
    return { results: { ...results }, report };
  }

  return { resolve, cache };
}
