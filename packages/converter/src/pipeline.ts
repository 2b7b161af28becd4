import { extractCoordinates } from './core/coordinates.js';
import { ConverterError, MESSAGES } from './core/errors.js';
import type { PlaceCounter } from './core/limits.js';
import { buildFailedCsv } from './core/failed-csv.js';
import { type MappedPlace } from './core/kml.js';
import { writeListFiles, type OutputFormat } from './core/formats/output.js';
import { parseSavedPlacesJson } from './core/saved-places-json.js';
import { placeNeed, type PlaceNeed } from './core/link-need.js';
import {
  failedCsvFileName,
  fileNameFromPath,
  listNameFromPath,
  listOutputNames,
} from './core/names.js';
import { parseSavedPlacesCsv, type ParsedCsv } from './core/csv.js';
import {
  isLookupFailure,
  RETRYABLE_FAILURES,
  type LookupFailure,
  type UnplacedReason,
} from './core/reasons.js';
import type { ConversionResult, ConversionStats, ListKind, ParsedPlace } from './core/types.js';
import type { ConversionProgress, ConversionStage } from './worker/types.js';

const DEFAULT_FORMATS: readonly OutputFormat[] = ['kml'];

/** The seed's batch resolution timeout. */
export const RESOLVE_TIMEOUT_MS = 120_000;
/** Most links sent to the API per request (the API accepts at most 1,000). */
export const RESOLVE_CHUNK_SIZE = 500;
/** Fewest links per request: smaller runs use smaller requests, so their progress moves often. */
export const RESOLVE_MIN_CHUNK_SIZE = 100;
/** A run makes about this many requests at most (the API allows 300 a minute per client). */
export const RESOLVE_REQUESTS_PER_RUN = 200;

/**
 * Links per request for a run needing `lookups` lookups: about {@link RESOLVE_REQUESTS_PER_RUN}
 * requests, each of {@link RESOLVE_MIN_CHUNK_SIZE} to {@link RESOLVE_CHUNK_SIZE} links, so a
 * 10,000-place run reports progress 100 times and a 100,000-place one stays within the API's limits.
 */
export function resolveChunkSizeFor(lookups: number): number {
  return Math.min(
    RESOLVE_CHUNK_SIZE,
    Math.max(RESOLVE_MIN_CHUNK_SIZE, Math.ceil(lookups / RESOLVE_REQUESTS_PER_RUN)),
  );
}
/** Requests to the API in flight at once. */
export const RESOLVE_CONCURRENCY = 2;
/** Progress reaches the page at most this often (product.md "Pace"), instead of the seed's 10 ms pause per link. */
export const PROGRESS_INTERVAL_MS = 50;
/** The clock is read once per this many places, so throttling costs nothing on big lists. */
const PROGRESS_CHECK_EVERY = 64;
/** Places without coordinates logged one by one; the rest are counted in one line. */
export const MAX_LOGGED_UNCONVERTED = 20;

/**
 * Pauses before links that came back `throttled` or `unavailable` are sent again, as long as the run
 * stays within {@link RESOLVE_TIMEOUT_MS} of its first lookup (product.md, Outputs).
 */
export const RESOLVE_RETRY_DELAYS_MS: readonly number[] = [5_000, 20_000];

/**
 * What a resolution service answers: original URL → URL carrying coordinates, and for links it
 * could not resolve, why (product.md's reasons). A link in neither is counted `not_found`.
 */
export interface ResolveAnswer {
  results: Record<string, string>;
  failures?: Record<string, LookupFailure>;
}

/** Sends links to be resolved (the API's `POST /api/resolve-urls-batch`, or a local resolver). */
export type ResolveUrls = (
  urls: string[],
  options: { signal: AbortSignal },
) => Promise<ResolveAnswer>;

/**
 * A resolution request the service refused as a whole: `status` is its HTTP status (402/403: the
 * allowance is used; 429/503: busy, worth retrying). The message is the seed's "status: text".
 */
export class ResolveRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ResolveRequestError';
  }
}

/** The reason a whole failed batch gives each of its links. */
function batchFailure(error: unknown, timedOut: boolean): LookupFailure {
  if (timedOut || !(error instanceof ResolveRequestError)) return 'unavailable';
  if (error.status === 402 || error.status === 403) return 'limit';
  if (error.status === 400) return 'not_allowed';
  return 'unavailable';
}

/** Where the converter reports what it skipped or could not do (console by default in the worker). */
export interface Logger {
  warn(message: string, details?: unknown): void;
}

/** A list ready to convert: its archive identity, and its text or an already parsed form. */
export interface ListInput {
  path: string;
  /** The list's text: a saved list's CSV, or `Saved Places.json` when `kind` is `starred`. */
  content: string;
  /** `csv` (the default) or `starred`. */
  kind?: ListKind;
  /** The list's name when it is not its file name (a retry list: "Want to go (failed places)"). */
  name?: string;
  /** A parse made earlier (when the archive was inspected), so the CSV is not parsed twice. */
  parsed?: ParsedCsv | ConverterError;
  /**
   * The name its files are written under (`listOutputNames` over the whole archive, as `readArchive`
   * gives it). Without it, names are told apart among the lists of this run.
   */
  outputName?: string;
}

export interface PipelineOptions {
  resolveUrls?: ResolveUrls;
  resolveTimeoutMs?: number;
  resolveChunkSize?: number;
  onProgress?: (progress: ConversionProgress) => void;
  progressIntervalMs?: number;
  /** Clock for throttling and retry budgets; injected by tests. */
  now?: () => number;
  /** Waits before a retry round; injected by tests (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Pauses before the retry rounds (default {@link RESOLVE_RETRY_DELAYS_MS}). */
  retryDelaysMs?: readonly number[];
  logger?: Logger;
  /** Most placemarks in one file; longer lists are split evenly (default: My Maps' 2,000 a layer). */
  maxPlacemarksPerKml?: number;
  /** The formats files are written in, each list's parts grouped by format (default `['kml']`). */
  formats?: readonly OutputFormat[];
}

/**
 * Parses a list, turning a validation failure into data (the seed skips such a list and goes on).
 * A saved list is CSV; the starred places (`kind` `starred`) are `Saved Places.json`. With a
 * `counter` (one per archive), its places count against the archive's place cap, and past it this
 * throws ConverterError `too-many-places`, the one failure that is not the list's own.
 */
export function parseList(
  content: string,
  kind: ListKind = 'csv',
  counter?: PlaceCounter,
): ParsedCsv | ConverterError {
  try {
    return kind === 'starred'
      ? parseSavedPlacesJson(content, counter)
      : parseSavedPlacesCsv(content, counter);
  } catch (error) {
    // Past the archive's place cap the whole archive is refused, not this list.
    if (error instanceof ConverterError && error.code === 'too-many-places') throw error;
    if (error instanceof ConverterError) return error;
    return new ConverterError(
      'csv-parse',
      error instanceof Error ? error.message : MESSAGES.validationFailed,
    );
  }
}

/** Per-file progress marks (the seed's 25/50/75), `within` moving extracting from 25 towards 50. */
function fileMark(stage: ConversionStage, within: number): number {
  switch (stage) {
    case 'validating':
      return 25;
    case 'extracting':
      return 25 + Math.min(1, within) * 25;
    case 'converting':
      return 75;
    case 'preparing':
      return 100;
  }
}

class ProgressReporter {
  private last = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly options: PipelineOptions,
    private readonly fileCount: number,
  ) {}

  /** Links looked up so far in this run, of all the distinct links it needs looked up. */
  lookups: { done: number; total: number } | undefined;

  report(
    stage: ConversionStage,
    fileIndex: number,
    fileName: string,
    within = 0,
    currentItem?: string,
    force = true,
  ) {
    const { onProgress, now = Date.now, progressIntervalMs = PROGRESS_INTERVAL_MS } = this.options;
    if (!onProgress) return;
    const time = now();
    if (!force && time - this.last < progressIntervalMs) return;
    this.last = time;
    const share = 100 / Math.max(1, this.fileCount);
    const percent =
      stage === 'preparing'
        ? 100
        : Math.min(100, fileIndex * share + (fileMark(stage, within) / 100) * share);
    onProgress({
      stage,
      fileIndex: Math.min(fileIndex, this.fileCount - 1),
      fileCount: this.fileCount,
      fileName,
      percent,
      ...(currentItem ? { currentItem } : {}),
      ...(this.lookups && stage === 'extracting' ? { lookups: { ...this.lookups } } : {}),
    });
  }
}

function statsFor(places: readonly ParsedPlace[]): ConversionStats {
  let converted = 0;
  let withNotes = 0;
  const unplaced: Partial<Record<UnplacedReason, number>> = {};
  for (const place of places) {
    if (place.coordinates) converted += 1;
    else if (place.reason) unplaced[place.reason] = (unplaced[place.reason] ?? 0) + 1;
    if (place.note) withNotes += 1;
  }
  return {
    totalPlaces: places.length,
    withCoordinates: converted,
    withNotes,
    categories: 1,
    processed: places.length,
    converted,
    skipped: places.length - converted,
    unplaced,
  };
}

async function withTimeout(
  resolveUrls: ResolveUrls,
  urls: string[],
  timeoutMs: number,
  logger: Logger,
): Promise<Record<string, string | LookupFailure>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const answer = await resolveUrls(urls, { signal: controller.signal });
    const outcome: Record<string, string | LookupFailure> = {};
    for (const url of urls) {
      const resolved = answer.results[url];
      const failure = answer.failures?.[url];
      if (typeof resolved === 'string') outcome[url] = resolved;
      else outcome[url] = isLookupFailure(failure) ? failure : 'not_found';
    }
    return outcome;
  } catch (error) {
    if (timedOut) logger.warn('Batch URL resolution timeout');
    else
      logger.warn(
        'Batch URL resolution failed; continuing without resolved URLs',
        error instanceof Error ? error.message : error,
      );
    const reason = batchFailure(error, timedOut);
    return Object.fromEntries(urls.map((url) => [url, reason]));
  } finally {
    clearTimeout(timer);
  }
}

/** Shared across the lists of one run, so a place saved in two lists is looked up once: resolved URL or reason. */
type ResolvedCache = Map<string, string | LookupFailure>;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function resolveMissing(
  pending: ReadonlyMap<string, string>,
  cache: ResolvedCache,
  options: PipelineOptions,
  logger: Logger,
  onChunk: (done: number, total: number, url: string, answered: number) => void,
): Promise<void> {
  const {
    resolveUrls,
    resolveTimeoutMs = RESOLVE_TIMEOUT_MS,
    resolveChunkSize = RESOLVE_CHUNK_SIZE,
    now = Date.now,
    sleep = realSleep,
    retryDelaysMs = RESOLVE_RETRY_DELAYS_MS,
  } = options;
  const entries = [...pending].filter(([key]) => !cache.has(key));
  if (!resolveUrls || entries.length === 0) return;
  const started = now();
  const send = async (batch: Array<[string, string]>, timeoutMs: number, report: boolean) => {
    const chunks: Array<Array<[string, string]>> = [];
    for (let i = 0; i < batch.length; i += resolveChunkSize)
      chunks.push(batch.slice(i, i + resolveChunkSize));
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++]!;
        const results = await withTimeout(
          resolveUrls,
          chunk.map(([, url]) => url),
          timeoutMs,
          logger,
        );
        for (const [key, url] of chunk) cache.set(key, results[url] ?? 'not_found');
        done += chunk.length;
        if (report) onChunk(done, batch.length, chunk[chunk.length - 1]![1], chunk.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(RESOLVE_CONCURRENCY, chunks.length) }, worker));
  };
  await send(entries, resolveTimeoutMs, true);
  // Links Google refused or that failed in transit get another try while the run's budget lasts.
  for (const pause of retryDelaysMs) {
    const again = entries.filter(([key]) =>
      RETRYABLE_FAILURES.has(cache.get(key) as UnplacedReason),
    );
    const left = resolveTimeoutMs - (now() - started) - pause;
    if (again.length === 0 || left <= 0) break;
    await sleep(pause);
    await send(again, left, false);
  }
}

/**
 * Converts lists per the seed's "Place conversion": coordinates from the URL first; links without them
 * that the resolver accepts ({@link placeNeed}) are sent, one per distinct place, to `resolveUrls`, and
 * coordinates are read from the resolved URL; a link the resolver would refuse is `not_allowed` at
 * once, never sent. A list that fails validation is skipped with its reason; the others go on.
 * Same-named lists write files told apart by folder (`listOutputNames`), their KML parts and
 * failed-places CSV under the same name.
 */
export async function convertLists(
  lists: readonly ListInput[],
  options: PipelineOptions = {},
): Promise<ConversionResult[]> {
  const logger = options.logger ?? { warn: () => {} };
  const progress = new ProgressReporter(options, lists.length);
  const cache: ResolvedCache = new Map();
  const results: ConversionResult[] = [];
  let unconvertedLogged = 0;
  let unconvertedTotal = 0;
  const outputNames = listOutputNames(lists.map((list) => list.path));
  const parsedLists = lists.map((list) => list.parsed ?? parseList(list.content, list.kind));
  // Each link read once, before the lists: the run's lookups are counted up front, so the page
  // can say "Looking up 212 of 588 places" for the whole run.
  const plans: PlaceNeed[][] = parsedLists.map((parsed) =>
    parsed instanceof ConverterError ? [] : parsed.places.map(placeNeed),
  );
  if (options.resolveUrls) {
    const keys = new Set<string>();
    for (const plan of plans.flat()) if (plan.kind === 'lookup') keys.add(plan.key);
    if (keys.size > 0) progress.lookups = { done: 0, total: keys.size };
    options = {
      ...options,
      resolveChunkSize: options.resolveChunkSize ?? resolveChunkSizeFor(keys.size),
    };
  }

  for (const [index, list] of lists.entries()) {
    const fileName = fileNameFromPath(list.path);
    const listName = list.name ?? listNameFromPath(list.path);
    const outputName = list.outputName ?? outputNames[index]!;
    progress.report('validating', index, fileName);
    const parsed = parsedLists[index]!;
    if (parsed instanceof ConverterError) {
      results.push({
        fileName,
        path: list.path,
        listName,
        outputName,
        stats: statsFor([]),
        places: [],
        files: [],
        skippedReason: parsed.message || MESSAGES.validationFailed,
      });
      continue;
    }

    progress.report('extracting', index, fileName);
    const places: ParsedPlace[] = parsed.places.map((place) => ({ ...place }));
    const pending = new Map<string, string>();
    const waiting: Array<{ place: ParsedPlace; key: string }> = [];
    places.forEach((place, i) => {
      if (i % PROGRESS_CHECK_EVERY === 0) {
        progress.report(
          'extracting',
          index,
          fileName,
          i / places.length / 2,
          place.url || place.title,
          false,
        );
      }
      const plan = plans[index]![i]!;
      if (plan.kind === 'coordinates') place.coordinates = plan.coordinates;
      else if (plan.kind === 'unplaced') place.reason = plan.reason;
      else if (!options.resolveUrls) place.reason = 'not_looked_up';
      else {
        if (!pending.has(plan.key)) pending.set(plan.key, place.url);
        waiting.push({ place, key: plan.key });
      }
    });
    await resolveMissing(pending, cache, options, logger, (done, total, url, answered) => {
      if (progress.lookups) progress.lookups.done += answered;
      progress.report('extracting', index, fileName, 0.5 + done / total / 2, url, false);
    });
    // The count as it stands once the list's lookups are answered (the throttle may have held it back).
    if (progress.lookups && pending.size > 0) progress.report('extracting', index, fileName, 1);
    let resolvedCount = 0;
    for (const { place, key } of waiting) {
      const resolved = cache.get(key) ?? 'not_found';
      const found = isLookupFailure(resolved) ? undefined : extractCoordinates(resolved);
      if (found) {
        place.coordinates = found.coordinates;
        resolvedCount += 1;
      } else {
        place.reason = isLookupFailure(resolved) ? resolved : 'not_found';
      }
    }
    for (const place of places) {
      if (place.coordinates) continue;
      unconvertedTotal += 1;
      if (unconvertedLogged < MAX_LOGGED_UNCONVERTED) {
        unconvertedLogged += 1;
        logger.warn('Could not extract coordinates', {
          title: place.title,
          url: place.url,
          note: place.note,
          comment: place.comment,
          attempted: ['URL extraction', 'resolved-URL extraction', 'no redirect occurred'],
        });
      }
    }

    progress.report('converting', index, fileName);
    const mapped = places.filter((place): place is MappedPlace => place.coordinates !== undefined);
    const failed = places.filter((place) => !place.coordinates);
    const meta = {
      name: listName,
      outputName,
      ...(parsed.description ? { description: parsed.description } : {}),
    };
    const result: ConversionResult = {
      fileName,
      path: list.path,
      listName,
      outputName,
      stats: statsFor(places),
      places,
      files:
        mapped.length > 0
          ? (options.formats ?? DEFAULT_FORMATS).flatMap((format) =>
              writeListFiles(meta, mapped, format, options.maxPlacemarksPerKml),
            )
          : [],
      resolvedCount,
    };
    if (parsed.description) result.description = parsed.description;
    if (failed.length > 0) {
      result.failedCsvContent = buildFailedCsv(failed);
      result.failedCsvFileName = failedCsvFileName(outputName);
    }
    results.push(result);
  }
  if (unconvertedTotal > unconvertedLogged) {
    logger.warn(
      `${unconvertedTotal - unconvertedLogged} more places without coordinates were not logged one by one`,
    );
  }
  progress.report(
    'preparing',
    lists.length,
    lists.at(-1) ? fileNameFromPath(lists.at(-1)!.path) : '',
  );
  return results;
}
