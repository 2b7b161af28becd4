/**
 * How the CLI looks links up for the converter's pipeline (`ResolveUrls`): locally, through
 * `@placeport/resolver` from the user's own computer, or through a self-hosted PlacePort API. Both
 * count what they did for the summary and report progress in lookups.
 */
import {
  ConverterError,
  placeNeed,
  ResolveRequestError,
  type InspectedList,
  type ResolveUrls,
} from '@placeport/converter/internal';
import { createResolveClient } from '@placeport/converter/worker';
import type { Resolver } from '@placeport/resolver';

/** Statuses with which an API refuses a batch outright: allowance used (402, 403), too many requests (429). */
const REFUSALS = new Set([402, 403, 429]);

/** What the lookups of one run did. */
export interface LookupStats {
  mode: 'local' | 'api' | 'offline';
  /** Distinct links sent to be looked up (one per place, even when saved in several lists). */
  links: number;
  /** Links sent again after Google (or the API) refused or failed them. */
  retried: number;
  /** Local: places answered from the cache file, without a request. */
  cacheHits: number;
  /** Local: requests sent to Google, by path (place pages, Places API). */
  upstreamRequests: { pages: number; places: number };
  /** API: requests sent to the PlacePort API. */
  apiRequests: number;
  /** API: the first time it refused a whole request (402, 403, 429), with its "status: text". */
  refused?: { status: number; message: string };
}

/** Empty statistics for a mode. */
export function emptyStats(mode: LookupStats['mode']): LookupStats {
  return {
    mode,
    links: 0,
    retried: 0,
    cacheHits: 0,
    upstreamRequests: { pages: 0, places: 0 },
    apiRequests: 0,
  };
}

/**
 * How many distinct places of these lists need a lookup: links without coordinates that the
 * resolver accepts ({@link placeNeed}), one per lookup key, as the pipeline sends them; a link the
 * resolver would refuse is `not_allowed` and never counted. It sets the progress line's total
 * before the first answer (links sent again later are added as they go).
 */
export function countLookups(lists: readonly InspectedList[]): number {
  const keys = new Set<string>();
  for (const list of lists) {
    if (list.parsed instanceof ConverterError) continue;
    for (const place of list.parsed.places) {
      const need = placeNeed(place);
      if (need.kind === 'lookup') keys.add(need.key);
    }
  }
  return keys.size;
}

/** Counts lookups sent and answered across the pipeline's calls, for stats and the progress line. */
class LookupTracker {
  private readonly seen = new Set<string>();
  private done = 0;
  private sent = 0;

  constructor(
    readonly stats: LookupStats,
    private readonly expected: number,
    private readonly onProgress: ((done: number, total: number) => void) | undefined,
  ) {}

  /** Records a call's links: new ones count as links, the others as retries. */
  begin(urls: readonly string[]): void {
    if (this.sent === 0) this.onProgress?.(0, Math.max(this.expected, new Set(urls).size));
    for (const url of new Set(urls)) {
      if (this.seen.has(url)) this.stats.retried += 1;
      else {
        this.seen.add(url);
        this.stats.links += 1;
      }
      this.sent += 1;
    }
  }

  /** `count` more lookups were answered. */
  advance(count: number): void {
    if (count <= 0) return;
    this.done += count;
    const total = Math.max(this.expected + this.stats.retried, this.sent, this.done);
    this.onProgress?.(this.done, total);
  }
}

/** Options shared by both ways of looking up. */
export interface LookupOptions {
  /** Distinct places the run is expected to look up ({@link countLookups}). */
  expected: number;
  /** Called as lookups are answered: done so far, and the total as known now. */
  onProgress?: (done: number, total: number) => void;
}

/** A `ResolveUrls` for the pipeline and the statistics it fills in. */
export interface Lookups {
  resolveUrls: ResolveUrls;
  stats: LookupStats;
}

/**
 * Local lookups: each batch the pipeline sends goes to `resolver` as a paid client (local runs have
 * no free tier to share), and its answer is returned as the pipeline's `{ results, failures }`.
 */
export function localLookups(resolver: Resolver, options: LookupOptions): Lookups {
  const tracker = new LookupTracker(emptyStats('local'), options.expected, options.onProgress);
  const { stats } = tracker;
  const resolveUrls: ResolveUrls = async (urls, { signal }) => {
    tracker.begin(urls);
    let reported = 0;
    const { results, failures, report } = await resolver.resolve(urls, {
      signal,
      requester: { client: 'cli', priority: 'paid' },
      onProgress: (done) => {
        tracker.advance(done - reported);
        reported = done;
      },
    });
    tracker.advance(new Set(urls).size - reported);
    stats.cacheHits += report.cacheHits;
    stats.upstreamRequests.pages += report.upstreamRequests.pages;
    stats.upstreamRequests.places += report.upstreamRequests.places;
    return { results, failures };
  };
  return { resolveUrls, stats };
}

/**
 * Lookups through a PlacePort API's `POST /api/resolve-urls-batch` (the converter's own client).
 * A request the API refuses as a whole (402/403: the free allowance is used; 429: too many) is
 * remembered for the summary, and still thrown so the pipeline gives its links their reason.
 */
export function apiLookups(
  apiBase: string,
  options: LookupOptions,
  fetchImpl: typeof fetch = fetch,
): Lookups {
  const tracker = new LookupTracker(emptyStats('api'), options.expected, options.onProgress);
  const { stats } = tracker;
  const client = createResolveClient({ apiBase }, fetchImpl);
  const resolveUrls: ResolveUrls = async (urls, call) => {
    tracker.begin(urls);
    stats.apiRequests += 1;
    try {
      return await client(urls, call);
    } catch (error) {
      if (error instanceof ResolveRequestError && REFUSALS.has(error.status)) {
        stats.refused ??= { status: error.status, message: error.message };
      }
      throw error;
    } finally {
      tracker.advance(new Set(urls).size);
    }
  };
  return { resolveUrls, stats };
}
