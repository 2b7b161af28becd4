import { extractCoordinates } from './core/coordinates.js';
import { ConverterError, MESSAGES } from './core/errors.js';
import { buildFailedCsv } from './core/failed-csv.js';
import { type MappedPlace } from './core/kml.js';
import { writeListFiles, type OutputFormat } from './core/formats/output.js';
import { placeNeed, type PlaceNeed } from './core/link-need.js';
import {
  failedCsvFileName,
  fileNameFromPath,
  listNameFromPath,
  listOutputNames,
} from './core/names.js';
import type { ParsedCsv } from './core/csv.js';
import type { UnplacedReason } from './core/reasons.js';
import { RunLookups } from './run-lookups.js';
import { parseList } from './inspect.js';
import type { ConversionProgress, ConversionStage, Logger, ResolveUrls } from './core/seams.js';
import type { ConversionResult, ConversionStats, ListKind, ParsedPlace } from './core/types.js';

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
/** Requests to the API in flight at once, across all the lists of a run. */
export const RESOLVE_CONCURRENCY = 2;
/** Progress reaches the page at most this often (product.md "Pace"), instead of the seed's 10 ms pause per link. */
export const PROGRESS_INTERVAL_MS = 50;
/** The clock is read once per this many places, so throttling costs nothing on big lists. */
const PROGRESS_CHECK_EVERY = 64;
/** Places without coordinates logged one by one; the rest are counted in one line. */
export const MAX_LOGGED_UNCONVERTED = 20;

/**
 * Pause before the run's one retry of the links that came back `throttled` or `unavailable`: they
 * are sent again together at the end of the run (not list by list), the round within one request
 * deadline ({@link RESOLVE_TIMEOUT_MS}, product.md "Outputs"), so each link is sent at most twice.
 */
export const RESOLVE_RETRY_DELAY_MS = 5_000;

/** A list ready to convert: its archive identity, and its text or an already parsed form (one of them). */
export interface ListInput {
  path: string;
  /** The list's text: a saved list's CSV, or `Saved Places.json` when `kind` is `starred`. */
  content?: string;
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

/**
 * How lists are converted: the formats written, where links without coordinates are looked up,
 * and what the caller hears. {@link convertArchive} takes these beside the archive's own options.
 */
export interface ConversionOptions {
  /** The formats to write, each list's parts grouped by format (default `['kml']`). */
  formats?: readonly OutputFormat[];
  /**
   * Looks up links that carry no coordinates (most real ones). Without it such places are listed as
   * failed with the reason `not_looked_up`.
   */
  resolveUrls?: ResolveUrls;
  /** Links per request to `resolveUrls` (default: sized to the run, {@link resolveChunkSizeFor}). */
  resolveChunkSize?: number;
  /** Deadline of one request to `resolveUrls` (default {@link RESOLVE_TIMEOUT_MS}). */
  resolveTimeoutMs?: number;
  /** Progress, at most about every 50 ms. */
  onProgress?: (progress: ConversionProgress) => void;
  /**
   * Stops the run's lookups (Ctrl-C, Cancel): nothing more is sent, requests in flight are
   * abandoned (what they already found is kept), and every place not yet answered gets
   * `interrupted`. The lists are still converted with what has coordinates.
   */
  signal?: AbortSignal;
  /** Where places left without coordinates and failed requests are reported (default: nowhere). */
  logger?: Logger;
  /** Most placemarks per file; longer lists are split evenly (default 2,000, a My Maps layer). */
  maxPlacemarksPerFile?: number;
}

/** {@link ConversionOptions} and the clock and pauses tests inject. */
export interface PipelineOptions extends ConversionOptions {
  progressIntervalMs?: number;
  /** Clock for throttling and the retry round's budget; injected by tests. */
  now?: () => number;
  /** Waits before the retry round, ending early when `signal` aborts; injected by tests (default: a real timer). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Pause before the retry round (default {@link RESOLVE_RETRY_DELAY_MS}); null: no retry. */
  retryDelayMs?: number | null;
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
  /** The highest percent reported: the bar never goes back (lists converted after the retry round). */
  private highest = 0;
  constructor(
    private readonly options: PipelineOptions,
    private readonly fileCount: number,
  ) {}

  /** Places of this run with their final answer, of all the distinct places it needs looked up. */
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
    this.highest = Math.max(this.highest, percent);
    onProgress({
      stage,
      fileIndex: Math.min(fileIndex, this.fileCount - 1),
      fileCount: this.fileCount,
      fileName,
      percent: this.highest,
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

/** A timer that ends early when `signal` aborts, so a stopped run never waits out a pause. */
function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A place of a list waiting for its lookup, under its lookup key. */
interface Waiting {
  place: ParsedPlace;
  key: string;
}

/**
 * Converts lists per the seed's "Place conversion": coordinates from the URL first; links without them
 * that the resolver accepts ({@link placeNeed}) are sent, one per distinct place, to `resolveUrls`, and
 * coordinates are read from the resolved URL; a link the resolver would refuse is `not_allowed` at
 * once, never sent. The run's lookups start at once for every list together (a few requests in
 * flight, each up to {@link RESOLVE_CHUNK_SIZE} links whatever list they come from), and links that
 * came back `throttled` or `unavailable` are retried once, together, at the end of the run
 * ({@link RunLookups}); a list whose answers are all final is converted as soon as they are, the
 * others after the retry. A list that fails validation is skipped with its reason; a list with no
 * place is `empty`; the others go on. Same-named lists write files told apart by folder
 * (`listOutputNames`), their parts and failed-places CSV under the same name.
 */
export async function convertLists(
  lists: readonly ListInput[],
  options: PipelineOptions = {},
): Promise<ConversionResult[]> {
  const logger = options.logger ?? { warn: () => {} };
  const progress = new ProgressReporter(options, lists.length);
  const results: ConversionResult[] = [];
  const log = { logged: 0, total: 0 };
  const outputNames = listOutputNames(lists.map((list) => list.path));
  const parsedLists = lists.map((list) => list.parsed ?? parseList(list.content ?? '', list.kind));
  // Each link read once, before the lists: the run's lookups are counted up front, so the page
  // can say "Looking up 212 of 588 places" for the whole run, and they all start at once.
  const plans: PlaceNeed[][] = parsedLists.map((parsed) =>
    parsed instanceof ConverterError ? [] : parsed.places.map(placeNeed),
  );
  let lookups: RunLookups | undefined;
  /** The list whose places are being waited for, named in progress reports. */
  let current = { index: 0, fileName: lists[0] ? fileNameFromPath(lists[0].path) : '' };
  if (options.resolveUrls) {
    // Each distinct place once, under the link it first appears with, in list order; progress
    // names a place by its title (a person reads names, not links), its link only without one.
    const entries = new Map<string, string>();
    const titles = new Map<string, string>();
    parsedLists.forEach((parsed, index) => {
      if (parsed instanceof ConverterError) return;
      plans[index]!.forEach((plan, i) => {
        const place = parsed.places[i]!;
        if (plan.kind === 'lookup' && !entries.has(plan.key)) {
          entries.set(plan.key, place.url);
          if (place.title.trim()) titles.set(place.url, place.title.trim());
        }
      });
    });
    if (entries.size > 0) {
      const tracked = { done: 0, total: entries.size };
      progress.lookups = tracked;
      lookups = new RunLookups([...entries], {
        resolveUrls: options.resolveUrls,
        chunkSize: options.resolveChunkSize ?? resolveChunkSizeFor(entries.size),
        concurrency: RESOLVE_CONCURRENCY,
        timeoutMs: options.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS,
        retryDelayMs:
          options.retryDelayMs === undefined ? RESOLVE_RETRY_DELAY_MS : options.retryDelayMs,
        now: options.now ?? Date.now,
        sleep: options.sleep ?? realSleep,
        signal: options.signal,
        logger,
        onSettled: (count, url) => {
          tracked.done += count;
          const within = 0.5 + tracked.done / tracked.total / 2;
          const item = titles.get(url) ?? url;
          progress.report('extracting', current.index, current.fileName, within, item, false);
        },
      });
    }
  }

  /** Converts list `index` once its places have their final answers. */
  const finishList = (index: number, places: ParsedPlace[], waiting: readonly Waiting[]) => {
    const list = lists[index]!;
    const parsed = parsedLists[index] as ParsedCsv;
    const fileName = fileNameFromPath(list.path);
    const listName = list.name ?? listNameFromPath(list.path);
    const outputName = list.outputName ?? outputNames[index]!;
    let resolvedCount = 0;
    for (const { place, key } of waiting) {
      const answer = lookups?.answer(key) ?? { reason: 'not_found' };
      const found = 'url' in answer ? extractCoordinates(answer.url) : undefined;
      if (found) {
        place.coordinates = found.coordinates;
        resolvedCount += 1;
      } else {
        place.reason = 'reason' in answer ? answer.reason : 'not_found';
      }
    }
    logUnplaced(places, logger, log);
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
              writeListFiles(meta, mapped, format, options.maxPlacemarksPerFile),
            )
          : [],
      resolvedCount,
    };
    if (places.length === 0) result.empty = true;
    if (parsed.description) result.description = parsed.description;
    if (failed.length > 0) {
      result.failedCsvContent = buildFailedCsv(failed, parsed.columns);
      result.failedCsvFileName = failedCsvFileName(outputName);
    }
    results[index] = result;
  };

  /** Lists whose places wait for the retry round, converted after it. */
  const deferred: Array<() => void> = [];
  for (const [index, list] of lists.entries()) {
    const fileName = fileNameFromPath(list.path);
    current = { index, fileName };
    progress.report('validating', index, fileName);
    const parsed = parsedLists[index]!;
    if (parsed instanceof ConverterError) {
      results[index] = {
        fileName,
        path: list.path,
        listName: list.name ?? listNameFromPath(list.path),
        outputName: list.outputName ?? outputNames[index]!,
        stats: statsFor([]),
        places: [],
        files: [],
        skippedReason: parsed.message || MESSAGES.validationFailed,
      };
      continue;
    }

    progress.report('extracting', index, fileName);
    const places: ParsedPlace[] = parsed.places.map((place) => ({ ...place }));
    const waiting: Waiting[] = [];
    places.forEach((place, i) => {
      if (i % PROGRESS_CHECK_EVERY === 0) {
        progress.report(
          'extracting',
          index,
          fileName,
          i / places.length / 2,
          place.title.trim() || place.url,
          false,
        );
      }
      const plan = plans[index]![i]!;
      if (plan.kind === 'coordinates') place.coordinates = plan.coordinates;
      else if (plan.kind === 'unplaced') place.reason = plan.reason;
      else if (!lookups) place.reason = 'not_looked_up';
      else waiting.push({ place, key: plan.key });
    });
    if (lookups && waiting.length > 0) {
      await lookups.firstAnswers(waiting.map(({ key }) => key));
      // The count as it stands once the list's first answers are in (the throttle may have held it back).
      progress.report('extracting', index, fileName, 1);
      if (waiting.some(({ key }) => !lookups.isFinal(key))) {
        deferred.push(() => finishList(index, places, waiting));
        continue;
      }
    }
    finishList(index, places, waiting);
  }
  if (lookups) {
    await lookups.finish();
    progress.report('extracting', current.index, current.fileName, 1);
  }
  for (const finish of deferred) finish();
  if (log.total > log.logged) {
    logger.warn(
      `${log.total - log.logged} more places without coordinates were not logged one by one`,
    );
  }
  progress.report(
    'preparing',
    lists.length,
    lists.at(-1) ? fileNameFromPath(lists.at(-1)!.path) : '',
  );
  return results;
}

/** Logs places left without coordinates with what was tried, the first {@link MAX_LOGGED_UNCONVERTED} one by one. */
function logUnplaced(
  places: readonly ParsedPlace[],
  logger: Logger,
  log: { logged: number; total: number },
): void {
  for (const place of places) {
    if (place.coordinates) continue;
    log.total += 1;
    if (log.logged >= MAX_LOGGED_UNCONVERTED) continue;
    log.logged += 1;
    logger.warn('Could not extract coordinates', {
      title: place.title,
      url: place.url,
      note: place.note,
      comment: place.comment,
      attempted: ['URL extraction', 'resolved-URL extraction', 'no redirect occurred'],
    });
  }
}
