/**
 * Converting lists, in three steps: plan (read each list once, what each place needs, the run's
 * distinct lookups: `plan.ts`), resolve (the run's lookups in batches, the retry rounds and
 * the reasons: `run-lookups.ts`) and write (statistics, files, failed-places CSV: `write-list.ts`),
 * with progress reported from one place (`progress.ts`).
 */
import { ConverterError } from './core/errors.js';
import { checkFormat, type OutputFormat } from './core/formats/output.js';
import type { ConversionProgress, Logger, ResolveUrls } from './core/seams.js';
import type { ConversionResult, ParsedPlace } from './core/types.js';
import { planRun, resolveChunkSizeFor, type ListInput, type RunPlan } from './plan.js';
import type { ParsedCsv } from './core/csv.js';
import { PROGRESS_CHECK_EVERY, RunProgress } from './progress.js';
import {
  placeWaiting,
  RESOLVE_CONCURRENCY,
  RESOLVE_RETRY_DELAY_MS,
  RESOLVE_TIMEOUT_MS,
  RunLookups,
  type Connectivity,
  type Waiting,
} from './run-lookups.js';
import { logUnplaced, skippedList, writeList } from './write-list.js';

const DEFAULT_FORMATS: readonly OutputFormat[] = ['kml'];

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
  /**
   * Where the device's return to the network is heard: a pause before a retry round ends at its
   * `online` event, so lookups that failed while the device was offline go again at once. Default:
   * the global scope where it is an event target (a page, a Web Worker); null: none.
   */
  connectivity?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
}

/** The global scope where it hears `online` events (browsers, Web Workers); none in Node. */
function globalConnectivity(): Connectivity | undefined {
  const scope = globalThis as Partial<Connectivity>;
  return typeof scope.addEventListener === 'function' &&
    typeof scope.removeEventListener === 'function'
    ? (scope as Connectivity)
    : undefined;
}

/** {@link ConversionOptions} and the clock and pauses tests inject. */
export interface PipelineOptions extends ConversionOptions {
  progressIntervalMs?: number;
  /** Clock for throttling and the retry round's budget; injected by tests. */
  now?: () => number;
  /** Waits before each retry round, ending early when `signal` aborts; injected by tests (default: a real timer). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Pause before the first retry round (default {@link RESOLVE_RETRY_DELAY_MS}; the later ones grow from it); null: no retry. */
  retryDelayMs?: number | null;
  /** How long a request may take to settle once its signal aborted (default {@link ABANDON_AFTER_MS}). */
  abandonAfterMs?: number;
}

/**
 * How long a lookup request whose signal aborted (its deadline, a stop) may still take to settle
 * before the run abandons it: a resolver that heeds its signal answers at once, with what it found.
 */
export const ABANDON_AFTER_MS = 10_000;

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

/** Whether `value` is a whole number of at least 1 (or, with `infinite`, Infinity). */
const isCount = (value: unknown, infinite = false): boolean =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 1) ||
  (infinite && value === Infinity);

/**
 * Refuses options a caller in plain JavaScript may get wrong, naming the option, before anything
 * is read or sent: a TypeError for the wrong kind of value, a RangeError for a number no run can
 * honour (a chunk size of 0 looped until the heap was gone; a deadline of 0 called every place
 * interrupted).
 */
export function checkOptions(options: PipelineOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`The options must be an object, got ${String(options)}`);
  }
  const { formats, resolveUrls, resolveChunkSize, resolveTimeoutMs, maxPlacemarksPerFile } =
    options;
  if (formats !== undefined && !Array.isArray(formats)) {
    throw new TypeError(
      `formats must be an array of output formats, e.g. ['kml'], got ${String(formats)}`,
    );
  }
  if (resolveUrls !== undefined && typeof resolveUrls !== 'function') {
    throw new TypeError(`resolveUrls must be a function, got ${typeof resolveUrls}`);
  }
  if (resolveChunkSize !== undefined && !isCount(resolveChunkSize)) {
    throw new RangeError(
      `resolveChunkSize must be a whole number of at least 1, got ${String(resolveChunkSize)}`,
    );
  }
  if (
    resolveTimeoutMs !== undefined &&
    !(typeof resolveTimeoutMs === 'number' && resolveTimeoutMs > 0)
  ) {
    throw new RangeError(`resolveTimeoutMs must be more than 0, got ${String(resolveTimeoutMs)}`);
  }
  if (maxPlacemarksPerFile !== undefined && !isCount(maxPlacemarksPerFile, true)) {
    throw new RangeError(
      `maxPlacemarksPerFile must be a whole number of at least 1 (or Infinity), got ${String(maxPlacemarksPerFile)}`,
    );
  }
  const { connectivity } = options;
  if (
    connectivity != null &&
    (typeof connectivity.addEventListener !== 'function' ||
      typeof connectivity.removeEventListener !== 'function')
  ) {
    throw new TypeError(
      `connectivity must be an event target (a window or a worker's self) or null, got ${String(connectivity)}`,
    );
  }
}

/** The run's lookups, started at once for every list together; undefined when there are none to make. */
function startLookups(
  plan: RunPlan,
  options: PipelineOptions,
  logger: Logger,
  progress: RunProgress,
): RunLookups | undefined {
  const { lookups: entries, titles } = plan;
  if (!options.resolveUrls || entries.length === 0) return undefined;
  progress.trackLookups(entries.length);
  return new RunLookups(entries, {
    resolveUrls: options.resolveUrls,
    chunkSize: options.resolveChunkSize ?? resolveChunkSizeFor(entries.length),
    concurrency: RESOLVE_CONCURRENCY,
    timeoutMs: options.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS,
    retryDelayMs:
      options.retryDelayMs === undefined ? RESOLVE_RETRY_DELAY_MS : options.retryDelayMs,
    abandonAfterMs: options.abandonAfterMs ?? ABANDON_AFTER_MS,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? realSleep,
    signal: options.signal,
    connectivity:
      options.connectivity === null ? undefined : (options.connectivity ?? globalConnectivity()),
    logger,
    onSettled: (count, url, unsent) => progress.settled(count, titles.get(url) ?? url, unsent),
    onRetrying: (places, at) => progress.retrying(places, at),
  });
}

/**
 * Converts lists per the seed's "Place conversion": coordinates from the URL first; links without them
 * that the resolver accepts (`placeNeed`) are sent, one per distinct place, to `resolveUrls`, and
 * coordinates are read from the resolved URL; a link the resolver would refuse is `not_allowed` at
 * once, never sent. The run's lookups start at once for every list together (a few requests in
 * flight, each up to `RESOLVE_CHUNK_SIZE` links whatever list they come from), and links that
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
  checkOptions(options);
  // A format asked for twice is written once (twice, its files would have the same names).
  const formats = [...new Set((options.formats ?? DEFAULT_FORMATS).map(checkFormat))];
  const logger = options.logger ?? { warn: () => {} };
  const plan = planRun(lists);
  const progress = new RunProgress(
    options,
    plan.lists.map((list) => list.fileName),
  );
  const lookups = startLookups(plan, options, logger, progress);
  const results: ConversionResult[] = [];
  const log = { logged: 0, total: 0 };

  /** Writes list `index` once its places have their final answers. */
  const finish = (
    index: number,
    parsed: ParsedCsv,
    places: ParsedPlace[],
    waiting: readonly Waiting[],
  ) => {
    const resolvedCount = placeWaiting(waiting, lookups);
    logUnplaced(places, logger, log);
    progress.converting(index);
    const { fileName, outputName } = plan.lists[index]!;
    const { path, name, origin } = lists[index]!;
    const identity = { path, name, origin, fileName, outputName };
    results[index] = writeList(identity, parsed, places, {
      formats,
      maxPerFile: options.maxPlacemarksPerFile,
      resolvedCount,
    });
  };

  /** Lists whose places wait for the retry round, written after it. */
  const deferred: Array<() => void> = [];
  for (const [index, planned] of plan.lists.entries()) {
    progress.validating(index);
    const { parsed, needs } = planned;
    if (parsed instanceof ConverterError) {
      const { path, name, origin } = lists[index]!;
      results[index] = skippedList({ path, name, origin, ...planned }, parsed);
      continue;
    }

    progress.extracting(0);
    // A place with coordinates as read is used as it is; the others are the run's own copies, so
    // the parsed places stay as read and a list can be converted again.
    const read = parsed.places;
    const places = new Array<ParsedPlace>(read.length);
    const waiting: Waiting[] = [];
    for (let i = 0; i < read.length; i += 1) {
      const place: ParsedPlace = read[i]!.coordinates ? read[i]! : { ...read[i]! };
      places[i] = place;
      if (i % PROGRESS_CHECK_EVERY === 0) {
        progress.reading(i, read.length, place.title.trim() || place.url);
      }
      if (place.coordinates) continue;
      const need = needs[i]!;
      if (need.kind === 'coordinates') place.coordinates = need.coordinates;
      else if (need.kind === 'unplaced') place.reason = need.reason;
      else if (!lookups) place.reason = 'not_looked_up';
      else waiting.push({ place, key: need.key });
    }
    if (lookups && waiting.length > 0) {
      await lookups.firstAnswers(waiting.map(({ key }) => key));
      // The count as it stands once the list's first answers are in (the throttle may have held it back).
      progress.extracting(1);
      if (waiting.some(({ key }) => !lookups.isFinal(key))) {
        deferred.push(() => finish(index, parsed, places, waiting));
        continue;
      }
    }
    finish(index, parsed, places, waiting);
  }
  if (lookups) {
    await lookups.finish();
    progress.extracting(1);
  }
  for (const write of deferred) write();
  if (log.total > log.logged) {
    logger.warn(
      `${log.total - log.logged} more places without coordinates were not logged one by one`,
    );
  }
  progress.preparing();
  return results;
}
