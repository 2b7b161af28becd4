/**
 * How the CLI looks links up for the converter's pipeline (`ResolveUrls`): locally, through
 * `@placeport/resolver` from the user's own computer, or through a self-hosted PlacePort API. Both
 * count what they did for the summary, and say when the upstream cannot be reached at all; the
 * progress comes from the pipeline (each place once, when its answer is final).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { readErrorBody, type LookupFailure } from '@placeport/contract';
import {
  isDeadline,
  ResolveRequestError,
  type ResolveAnswer,
  type ResolveUrls,
} from '@placeport/converter';
import { createResolveClient } from '@placeport/converter/worker';
import { proxyFor, type CliEnvironment, type ProxySettings } from './config.js';
import { describeNetworkError, watchNetwork } from './network.js';
import { UsageError } from './usage.js';

/** What the lookups of one run did. */
export interface LookupStats {
  mode: 'local' | 'api' | 'offline';
  /**
   * Distinct links looked up (one per place, even when saved in several lists): local, sent to the
   * resolver; API, answered link by link (not those of a request it refused or failed as a whole).
   */
  links: number;
  /** Links sent again after Google (or the API) refused or failed them. */
  retried: number;
  /** Local: places answered from the cache file, without a request. */
  cacheHits: number;
  /** Local: requests sent to Google, by path (place pages, Places API). */
  upstreamRequests: { pages: number; places: number };
  /**
   * Local, with a key: Google refused it for the Places API (its reason: `API_KEY_INVALID`,
   * `SERVICE_DISABLED`, `BILLING_DISABLED`…), so the places were looked up from their pages.
   */
  placesKeyRejected?: string;
  /** API: requests sent to the PlacePort API. */
  apiRequests: number;
  /**
   * API: it refused a request for good (402/403: allowance used; 429 without a short Retry-After),
   * so nothing more was sent; its status and its own message.
   */
  refused?: { status: number; message: string };
  /** API: times a 429 with a short Retry-After held the requests back before they were sent again. */
  waits?: number;
  /** API: requests it failed with another status (5xx, 404, …), counted by status. */
  apiErrors?: Record<number, number>;
  /** API: requests answered with something that is not a PlacePort API's answer, and what it was. */
  notAnApi?: { requests: number; detail: string };
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

/**
 * Records the links of each call into `stats`: those sent before count as retries; answers how many
 * were new (local lookups count those as links, `--api` only the ones the API answered).
 */
function linkCounter(stats: LookupStats): (urls: readonly string[]) => number {
  const seen = new Set<string>();
  return (urls) => {
    let added = 0;
    for (const url of new Set(urls)) {
      if (seen.has(url)) stats.retried += 1;
      else {
        seen.add(url);
        added += 1;
      }
    }
    return added;
  };
}

/** A `ResolveUrls` for the pipeline and the statistics it fills in. */
export interface Lookups {
  resolveUrls: ResolveUrls;
  stats: LookupStats;
}

/** What the proxied fetch is given of `proxies`: their URLs (never printed) and NO_PROXY. */
function proxiedFetchOptions(proxies: ProxySettings) {
  return {
    httpProxy: proxies.http?.url,
    httpsProxy: proxies.https?.url,
    noProxy: proxies.noProxy,
  };
}

/**
 * The fetch `--api`'s requests go by when a proxy is set for the API's origin: through it (unless
 * NO_PROXY names the API's host); undefined for Node's own fetch, which reads no proxy variable.
 */
export async function apiFetch(
  proxies: ProxySettings,
  apiBase: string,
): Promise<typeof fetch | undefined> {
  if (!proxyFor(proxies, new URL(apiBase).protocol)) return undefined;
  const { createProxiedFetch } = await import('@placeport/resolver/node');
  return createProxiedFetch(proxiedFetchOptions(proxies));
}

/**
 * What the summary says of the run's proxy: the variable whose proxy its lookups went through (for
 * Google's https origins, or the --api's origin), or a proxy variable set that they could not use.
 */
export function proxyOfRun(
  env: Pick<CliEnvironment, 'mapsOrigin' | 'proxies'>,
  lookups: { kind: 'local' } | { kind: 'api'; apiBase: string },
): { proxy?: string; proxyUnsupported?: string } {
  const target =
    lookups.kind === 'api' ? lookups.apiBase : (env.mapsOrigin ?? 'https://www.google.com');
  const used = proxyFor(env.proxies, new URL(target).protocol);
  if (used) return { proxy: used.variable };
  return env.proxies.unsupported ? { proxyUnsupported: env.proxies.unsupported } : {};
}

/**
 * How often a run's finds are saved to its cache file while it looks places up: a run killed
 * outright (SIGKILL, a power cut, a crash) loses at most this much of its lookups. A run stopped by
 * a signal, or ending, saves them all.
 */
export const CACHE_SAVE_EVERY_MS = 30_000;

/** Local lookups ready for a run, with what their cache file held. */
export interface LocalLookups extends Lookups {
  /** Places restored from the cache file (0 without one, or when it could not be read). */
  loaded: number;
  /** The cache file could not be read: it is replaced at the end of the run even with no lookups. */
  damaged: boolean;
  /**
   * Writes the places now known to `file` once the save in progress, if any, is over, and saves no
   * more in the background; resolves to how many.
   */
  save(file: string): Promise<number>;
  /** Saves no more in the background, once the save in progress, if any, is over. */
  close(): Promise<void>;
}

/**
 * Local lookups with their cache, restored from `cacheFile` when there is one (a cache file that
 * cannot be read is reported through `warn`, and the run starts with an empty cache; a file that
 * is not a cache file throws {@link UsageError}). Each batch the pipeline sends goes to the
 * resolver as a paid client (local runs have no free tier to share), and its answer is returned as
 * the pipeline's `{ results, failures }`. When the resolver says Google cannot be reached (its
 * breaker opened because nothing answered: details `unreachable`), or no request of the run has
 * got any answer yet, the answer says so, and the pipeline stops sending and retrying; the
 * statistics keep the network's cause. With a cache file, the places found are saved to it every
 * `saveEveryMs` while the run looks places up ({@link CACHE_SAVE_EVERY_MS}); `save` writes them at
 * the end. The resolver, undici and the cache file's code are imported
 * here, when a run has links to look up, so `--help`, `--offline` and archives whose links all
 * carry coordinates never load them.
 */
export async function openLocalLookups(options: {
  cacheFile: string | undefined;
  /** How often finds are saved during the lookups ({@link CACHE_SAVE_EVERY_MS}). */
  saveEveryMs?: number;
  googleMapsApiKey: string | undefined;
  env: Pick<CliEnvironment, 'mapsOrigin' | 'placesApiOrigin' | 'proxies'>;
  warn: (text: string) => void;
}): Promise<LocalLookups> {
  const { cacheFile, env } = options;
  const [
    { createResolver, MemoryPlaceCache },
    { createPublicFetch, createProxiedFetch },
    cacheFiles,
  ] = await Promise.all([
    import('@placeport/resolver'),
    import('@placeport/resolver/node'),
    import('./cache-file.js'),
  ]);
  const cache = new MemoryPlaceCache();
  /** Places the resolver has found (and cached) in this run. */
  let found = 0;
  let loaded = 0;
  let damaged = false;
  if (cacheFile) {
    const outcome = await cacheFiles.loadCacheFile(cacheFile, cache);
    if (outcome.kind === 'loaded') loaded = outcome.entries;
    // Not a PlacePort cache file (an archive or a note given as --cache-file): the run would write
    // over it at its end, so it stops now, before any lookup.
    if (outcome.kind === 'foreign') {
      throw new UsageError(cacheFiles.foreignFileMessage(cacheFile, outcome.reason));
    }
    if (outcome.kind === 'denied') {
      throw new UsageError(cacheFiles.deniedFileMessage(cacheFile, outcome.code));
    }
    if (outcome.kind === 'unreadable') {
      damaged = true;
      options.warn(
        `the cache file ${cacheFile} could not be read (${outcome.reason}); starting with an empty cache. It is replaced at the end of this run.`,
      );
    }
  }
  // The test-only origins are fakes on loopback, which the public-only fetch rightly refuses.
  const overridden = env.mapsOrigin !== undefined || env.placesApiOrigin !== undefined;
  const { proxies } = env;
  // Watched, so a run that cannot reach Google can say what the network said.
  const network = watchNetwork(
    proxies.https || proxies.http
      ? createProxiedFetch(proxiedFetchOptions(proxies))
      : overridden
        ? globalThis.fetch
        : createPublicFetch(),
  );
  const resolver = createResolver({
    fetch: network.fetch,
    mapsOrigin: env.mapsOrigin,
    ...(env.placesApiOrigin ? { placesOrigin: env.placesApiOrigin } : {}),
    googleMapsApiKey: options.googleMapsApiKey,
    onPlacesKeyRejected: (reason) => options.warn(placesKeyWarning(reason)),
    // Each place found is counted as it is cached, so the saves during the lookups know there is
    // something new (a batch's statistics come only with its last answer).
    cache: {
      get: (key) => cache.get(key),
      set: (key, place) => {
        found += 1;
        return cache.set(key, place);
      },
    },
  });
  const stats = emptyStats('local');
  const count = linkCounter(stats);
  const resolveUrls: ResolveUrls = async (urls, { signal }) => {
    const { results, failures, report } = await resolver.resolve(urls, {
      signal,
      requester: { client: 'cli', priority: 'paid' },
    });
    // Counted once answered: a batch the run's stop (Ctrl-C) cut short answers the links it had not
    // looked up `unavailable`, and those were not looked up (a deadline's were tried, and count).
    const cutShort = signal.aborted && !isDeadline(signal);
    stats.links += count(
      cutShort
        ? urls.filter((url) => url in results || (failures[url] ?? 'unavailable') !== 'unavailable')
        : urls,
    );
    stats.cacheHits += report.cacheHits;
    stats.upstreamRequests.pages += report.upstreamRequests.pages;
    stats.upstreamRequests.places += report.upstreamRequests.places;
    if (report.placesKeyRejected) stats.placesKeyRejected = report.placesKeyRejected;
    // The resolver says `unreachable` only once its breaker opened, at the 8th request in a row
    // without an answer: a run of a few links that got no answer at all is just as cut off.
    const failure = network.lastFailure();
    const unreachable =
      !signal.aborted &&
      ((report.details.unreachable ?? 0) > 0 || (failure !== undefined && !network.anyAnswer()));
    if (unreachable) stats.unreachable ??= { cause: failure ?? 'no answer' };
    return { results, failures, ...(unreachable ? { unreachable: true } : {}) };
  };
  // Saved during the lookups too, whenever places were found since the last save: a killed run
  // loses at most the last CACHE_SAVE_EVERY_MS of its finds. One save at a time; a failed one is said once
  // and tried again at the next turn (the save at the end says why it failed again, if it does).
  let saving: Promise<void> | undefined;
  let savedAt = 0;
  let warned = false;
  const saveNow = (file: string) => {
    const upTo = found;
    saving = cacheFiles
      .saveCacheFile(file, cache)
      .then(
        () => {
          savedAt = upTo;
        },
        (error: unknown) => {
          if (warned) return;
          warned = true;
          const code = (error as NodeJS.ErrnoException).code;
          options.warn(
            `the cache file ${file} could not be saved during the lookups (${code ?? (error as Error).message}); trying again, and at the end of the run.`,
          );
        },
      )
      .finally(() => {
        saving = undefined;
      });
  };
  const timer = cacheFile
    ? setInterval(() => {
        if (!saving && found > savedAt) saveNow(cacheFile);
      }, options.saveEveryMs ?? CACHE_SAVE_EVERY_MS).unref()
    : undefined;
  const close = async () => {
    clearInterval(timer);
    await saving;
  };
  return {
    resolveUrls,
    stats,
    loaded,
    damaged,
    close,
    save: async (file) => {
      await close();
      return cacheFiles.saveCacheFile(file, cache);
    },
  };
}

/** Said the moment Google refuses the key: the run goes on with the place pages. */
export function placesKeyWarning(reason: string): string {
  return `Google refused the API key for the Places API (${reason}); looking places up from their pages instead. ${KEY_ADVICE}`;
}

/** What to check when Google refuses the key. */
export const KEY_ADVICE =
  'Check that the key (--google-maps-api-key or GOOGLE_MAPS_API_KEY) is right and that its Google Cloud project has the Places API (New) and billing enabled.';

/**
 * Requests in a row to a PlacePort API that got no answer at all (connection refused, DNS, a
 * connection that timed out) after which it is taken to be out of reach: the run stops sending to
 * it. A request that got no answer before the batch's deadline stops it at once: the API had the
 * whole deadline to answer.
 */
export const API_UNREACHABLE_AFTER = 3;

/**
 * The longest `Retry-After` of a 429 the run waits out before sending again; past it, or with
 * none, the run stops sending and every link not yet answered is `throttled`.
 */
export const MAX_RETRY_AFTER_WAIT_MS = 60_000;

/** The shortest wait after a 429 (one saying `Retry-After: 0` is not asked again at once). */
export const MIN_RETRY_AFTER_WAIT_MS = 1_000;

/**
 * 429s in a row (no request answered between them) the run waits out; the next one is a refusal
 * for good, as one without a short Retry-After is: an API that keeps asking to wait a moment would
 * otherwise be asked again for as long as every batch's deadline lasts (hours on a large run).
 */
export const MAX_THROTTLED_IN_A_ROW = 3;

/** What a refusal of the whole request makes of every link not yet answered. */
const REFUSAL_REASONS: ReadonlyMap<number, LookupFailure> = new Map([
  [402, 'limit'],
  [403, 'limit'],
  [429, 'throttled'],
]);

/** How {@link apiLookups} reaches the API and waits; tests pass their own. */
export interface ApiLookupOptions {
  fetch?: typeof fetch;
  now?: () => number;
  /** Waits `ms`, or less when `signal` aborts; never rejects. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Waits `ms` on Node's timers, ended early (without an error) when `signal` aborts. */
const sleepUnlessAborted = (ms: number, signal: AbortSignal) =>
  delay(ms, undefined, { signal }).catch(() => {});

/** Every link of a request answered `reason`, without asking. */
function answerAll(urls: readonly string[], reason: LookupFailure): ResolveAnswer {
  return { results: {}, failures: Object.fromEntries(urls.map((url) => [url, reason])) };
}

/** What the API said in a refusal: its error body's message, else the status line's text. */
function apiMessage(error: ResolveRequestError): string {
  const text = error.body ?? '';
  const message = readErrorBody(text)?.message.trim();
  if (message) return message;
  // Not the API's error body (a proxy's HTML page): its first line, if short, else nothing more.
  const line = text.split('\n')[0]!.trim();
  return line.length > 0 && line.length <= 200 && !line.startsWith('<') ? line : 'no reason given';
}

/**
 * Lookups through a PlacePort API's `POST /api/resolve-urls-batch` (the converter's own client).
 * Once the API refuses a request as a whole with 402/403 (its allowance is used) or with a 429
 * whose `Retry-After` is past {@link MAX_RETRY_AFTER_WAIT_MS} (or missing), nothing more is sent:
 * every link not yet answered gets the refusal's reason (`limit`, `throttled`) without a request,
 * and the statistics keep the API's message. A 429 with a shorter `Retry-After` holds every request
 * back that long (ended early by the run's stop or the batch's deadline), then sends again, at
 * most {@link MAX_THROTTLED_IN_A_ROW} times in a row. Other
 * failed requests (5xx, 404, an answer that is not the API's) are counted by status and thrown,
 * so the pipeline gives their links `unavailable` and retries them at the end (up to four rounds,
 * after 5, 10, 20 and 40 s). After
 * {@link API_UNREACHABLE_AFTER} requests in a row without any answer, or one without an answer
 * before its deadline, the API is out of reach: the answer says so and the run stops sending.
 */
export function apiLookups(apiBase: string, options: ApiLookupOptions = {}): Lookups {
  const { now = Date.now, sleep = sleepUnlessAborted } = options;
  const stats = emptyStats('api');
  const answered = new Set<string>();
  const client = createResolveClient({ apiBase }, options.fetch ?? fetch);
  let unanswered = 0;
  /** The reason every later link gets, once the API refused for good. */
  let refusal: LookupFailure | undefined;
  /** Nothing is sent before this time (a 429's Retry-After). */
  let resumeAt = 0;
  /** 429s in a row, with no request answered between them. */
  let throttledInARow = 0;

  const countLinks = linkCounter(stats);
  const countSent = (urls: readonly string[]) => {
    countLinks(urls);
    stats.apiRequests += 1;
  };
  const countAnswered = (urls: readonly string[]) => {
    for (const url of urls) answered.add(url);
    stats.links = answered.size;
  };

  /** A whole request refused or failed: an answer for its links, 'again' after a wait, or thrown. */
  const onRequestError = (error: ResolveRequestError, urls: string[]): ResolveAnswer | 'again' => {
    if (error.notAnApi !== undefined) {
      stats.notAnApi ??= { requests: 0, detail: error.notAnApi };
      stats.notAnApi.requests += 1;
      throw error;
    }
    const reason = REFUSAL_REASONS.get(error.status);
    if (!reason) {
      const failed = (stats.apiErrors ??= {});
      failed[error.status] = (failed[error.status] ?? 0) + 1;
      throw error;
    }
    const wait = error.status === 429 ? error.retryAfterMs : undefined;
    if (error.status === 429) throttledInARow += 1;
    if (
      wait !== undefined &&
      wait <= MAX_RETRY_AFTER_WAIT_MS &&
      throttledInARow <= MAX_THROTTLED_IN_A_ROW
    ) {
      resumeAt = Math.max(resumeAt, now() + Math.max(wait, MIN_RETRY_AFTER_WAIT_MS));
      stats.waits = (stats.waits ?? 0) + 1;
      return 'again';
    }
    refusal ??= reason;
    stats.refused ??= { status: error.status, message: apiMessage(error) };
    return refused(urls);
  };

  /** Every link `refusal`, for good: the pipeline waits for no retry round (nothing is sent). */
  const refused = (urls: readonly string[]): ResolveAnswer => ({
    ...answerAll(urls, refusal!),
    final: true,
  });

  /** Sends one request; 'again' when the API asked to wait a little first. */
  const sendOnce = async (urls: string[], call: { signal: AbortSignal }) => {
    countSent(urls);
    try {
      const answer = await client(urls, call);
      unanswered = 0;
      // The API answered that it cannot reach Google itself (503 google_unreachable): nothing of
      // this request was looked up.
      if (answer.unreachable)
        stats.unreachable ??= { cause: 'it cannot reach Google', answered: true };
      else countAnswered(urls);
      throttledInARow = 0;
      return answer;
    } catch (error) {
      if (error instanceof ResolveRequestError) {
        unanswered = 0;
        return onRequestError(error, urls);
      }
      // Given up on because the run stopped: not the API's doing.
      if (call.signal.aborted && !isDeadline(call.signal)) throw error;
      // No answer at all: connection refused, DNS, a connection that timed out, or an API that
      // took the request and said nothing before the batch's deadline (then at once).
      unanswered += 1;
      if (unanswered < API_UNREACHABLE_AFTER && !isDeadline(call.signal)) throw error;
      stats.unreachable ??= { cause: describeNetworkError(error) };
      return { ...answerAll(urls, 'unavailable'), unreachable: true };
    }
  };

  const resolveUrls: ResolveUrls = async (urls, call) => {
    for (;;) {
      if (refusal) return refused(urls);
      const wait = resumeAt - now();
      if (wait > 0) {
        await sleep(wait, call.signal);
        // The batch's deadline passed while the API had us wait: its links were refused for now.
        if (isDeadline(call.signal)) return answerAll(urls, 'throttled');
        if (call.signal.aborted) throw call.signal.reason;
        continue;
      }
      const outcome = await sendOnce(urls, call);
      if (outcome !== 'again') return outcome;
    }
  };
  return { resolveUrls, stats };
}
