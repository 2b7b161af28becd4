/**
 * How the CLI looks links up for the converter's pipeline (`ResolveUrls`): locally, through
 * `@placeport/resolver` from the user's own computer, or through a self-hosted PlacePort API. Both
 * count what they did for the summary, and say when the upstream cannot be reached at all; the
 * progress comes from the pipeline (each place once, when its answer is final).
 */
import { isDeadline, ResolveRequestError, type ResolveUrls } from '@placeport/converter';
import { createResolveClient } from '@placeport/converter/worker';
import type { CliEnvironment } from './config.js';
import { describeNetworkError, watchNetwork } from './network.js';

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
  /**
   * Google (local) or the PlacePort API (`--api`) could not be reached, so the run stopped looking
   * up; `cause` is what the network said ("connection refused", "DNS found no address for …").
   */
  unreachable?: {
    cause: string;
    /** `--api`: the API answered, saying it cannot reach Google (rather than not answering). */
    answered?: true;
  };
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

/** Records the links of each call into `stats`: new ones count as links, the others as retries. */
function linkCounter(stats: LookupStats): (urls: readonly string[]) => void {
  const seen = new Set<string>();
  return (urls) => {
    for (const url of new Set(urls)) {
      if (seen.has(url)) stats.retried += 1;
      else {
        seen.add(url);
        stats.links += 1;
      }
    }
  };
}

/** A `ResolveUrls` for the pipeline and the statistics it fills in. */
export interface Lookups {
  resolveUrls: ResolveUrls;
  stats: LookupStats;
}

/** Local lookups ready for a run, with what their cache file held. */
export interface LocalLookups extends Lookups {
  /** Places restored from the cache file (0 without one, or when it could not be read). */
  loaded: number;
  /** The cache file could not be read: it is replaced at the end of the run even with no lookups. */
  damaged: boolean;
  /** Writes the places now known to `file`; resolves to how many. */
  save(file: string): Promise<number>;
}

/**
 * Local lookups with their cache, restored from `cacheFile` when there is one (a file that cannot be
 * read is reported through `warn`, and the run starts with an empty cache). Each batch the pipeline
 * sends goes to the resolver as a paid client (local runs have no free tier to share), and its
 * answer is returned as the pipeline's `{ results, failures }`. When the resolver says Google cannot
 * be reached (its breaker opened because nothing answered: details `unreachable`), the answer says
 * so, and the pipeline stops sending and retrying; the statistics keep the network's cause. The resolver, undici and
 * the cache file's code are imported here, when a run has links to look up, so `--help`, `--offline`
 * and archives whose links all carry coordinates never load them.
 */
export async function openLocalLookups(options: {
  cacheFile: string | undefined;
  googleMapsApiKey: string | undefined;
  env: Pick<CliEnvironment, 'mapsOrigin' | 'placesApiOrigin'>;
  warn: (text: string) => void;
}): Promise<LocalLookups> {
  const { cacheFile, env } = options;
  const [{ createResolver, MemoryPlaceCache }, { createPublicFetch }, cacheFiles] =
    await Promise.all([
      import('@placeport/resolver'),
      import('@placeport/resolver/node'),
      import('./cache-file.js'),
    ]);
  const cache = new MemoryPlaceCache();
  let loaded = 0;
  let damaged = false;
  if (cacheFile) {
    const outcome = await cacheFiles.loadCacheFile(cacheFile, cache);
    if (outcome.kind === 'loaded') loaded = outcome.entries;
    if (outcome.kind === 'unreadable') {
      damaged = true;
      options.warn(
        `the cache file ${cacheFile} could not be read (${outcome.reason}); starting with an empty cache. It is replaced at the end of this run.`,
      );
    }
  }
  // The test-only origins are fakes on loopback, which the public-only fetch rightly refuses.
  const overridden = env.mapsOrigin !== undefined || env.placesApiOrigin !== undefined;
  // Watched, so a run that cannot reach Google can say what the network said.
  const network = watchNetwork(overridden ? globalThis.fetch : createPublicFetch());
  const resolver = createResolver({
    fetch: network.fetch,
    mapsOrigin: env.mapsOrigin,
    ...(env.placesApiOrigin ? { placesOrigin: env.placesApiOrigin } : {}),
    googleMapsApiKey: options.googleMapsApiKey,
    cache,
  });
  const stats = emptyStats('local');
  const count = linkCounter(stats);
  const resolveUrls: ResolveUrls = async (urls, { signal }) => {
    count(urls);
    const { results, failures, report } = await resolver.resolve(urls, {
      signal,
      requester: { client: 'cli', priority: 'paid' },
    });
    stats.cacheHits += report.cacheHits;
    stats.upstreamRequests.pages += report.upstreamRequests.pages;
    stats.upstreamRequests.places += report.upstreamRequests.places;
    const unreachable = (report.details.unreachable ?? 0) > 0 && !signal.aborted;
    if (unreachable) stats.unreachable ??= { cause: network.lastFailure() ?? 'no answer' };
    return { results, failures, ...(unreachable ? { unreachable: true } : {}) };
  };
  return {
    resolveUrls,
    stats,
    loaded,
    damaged,
    save: (file) => cacheFiles.saveCacheFile(file, cache),
  };
}

/**
 * Requests in a row to a PlacePort API that got no answer at all (connection refused, DNS, a
 * timeout, no answer before the batch's deadline) after which it is taken to be out of reach: the
 * run stops sending to it.
 */
export const API_UNREACHABLE_AFTER = 3;

/**
 * Lookups through a PlacePort API's `POST /api/resolve-urls-batch` (the converter's own client).
 * A request the API refuses as a whole (402/403: the free allowance is used; 429: too many) is
 * remembered for the summary, and still thrown so the pipeline gives its links their reason. After
 * {@link API_UNREACHABLE_AFTER} requests in a row without any answer, the API is out of reach: the
 * answer says so and the run stops sending.
 */
export function apiLookups(apiBase: string, fetchImpl: typeof fetch = fetch): Lookups {
  const stats = emptyStats('api');
  const count = linkCounter(stats);
  const client = createResolveClient({ apiBase }, fetchImpl);
  let unanswered = 0;
  const resolveUrls: ResolveUrls = async (urls, call) => {
    count(urls);
    stats.apiRequests += 1;
    try {
      const answer = await client(urls, call);
      unanswered = 0;
      // The API answered that it cannot reach Google itself (503 google_unreachable).
      if (answer.unreachable)
        stats.unreachable ??= { cause: 'it cannot reach Google', answered: true };
      return answer;
    } catch (error) {
      if (error instanceof ResolveRequestError) {
        unanswered = 0;
        if (REFUSALS.has(error.status)) {
          stats.refused ??= { status: error.status, message: error.message };
        }
        throw error;
      }
      // Given up on because the run stopped: not the API's doing.
      if (call.signal.aborted && !isDeadline(call.signal)) throw error;
      // No answer at all: connection refused, DNS, a connection that timed out, or an API that
      // took the request and said nothing before the batch's deadline.
      unanswered += 1;
      if (unanswered < API_UNREACHABLE_AFTER) throw error;
      stats.unreachable ??= { cause: describeNetworkError(error) };
      return {
        results: {},
        failures: Object.fromEntries(urls.map((url) => [url, 'unavailable' as const])),
        unreachable: true,
      };
    }
  };
  return { resolveUrls, stats };
}
