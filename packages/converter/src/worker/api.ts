import { FREE_TIER_MAX_URLS } from '@placeport/contract';
import * as Comlink from 'comlink';
import { ConverterError, MESSAGES, toErrorShape } from '../core/errors.js';
import { LIMITS, type Limits } from '../core/limits.js';
import { checkFormat, type OutputPart } from '../core/formats/output.js';
import { placeName } from '../core/formats/place-text.js';
import { CSV_MIME_TYPE } from '../core/names.js';
import type { Logger } from '../core/seams.js';
import type { ConversionResult, Result } from '../core/types.js';
import type { InspectedList } from '../inspect.js';
import type { Connectivity } from '../run-lookups.js';
import {
  archiveBytesOf,
  convertArchive,
  inspectArchive,
  inspectZipContents,
  listFilesAsync,
  summaryOf,
  zipFileName,
  zipRunAsync,
} from '../library.js';
import { checkPartSize, MAX_PART_ENTRIES, readLargeZip, readsByRanges } from '../large-zip.js';
import { retryLists } from '../retry.js';
import { createResolveClient } from './resolve-client.js';
import type {
  ConversionSummary,
  ConverterWorkerApi,
  ListOutcome,
  ListPoints,
  MapOutputFile,
} from './types.js';

/** What the worker API takes from its host; tests pass their own fetch, logger and limits. */
export interface WorkerDependencies {
  fetch?: typeof fetch;
  logger?: Logger;
  limits?: Limits;
  /** The clock that dates "Download all"'s files (their extracted files show it). */
  now?: () => Date;
  /**
   * Where the device's return online is heard: a retry round's pause ends at its `online` event
   * (default: the worker's global scope, which some browsers never tell; a page forwards its own).
   */
  connectivity?: Connectivity;
}

const encoder = new TextEncoder();

function encode(data: string | Uint8Array): ArrayBuffer {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  // A view over part of a buffer is copied, so only its own bytes are transferred.
  return (
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.slice().buffer
  ) as ArrayBuffer;
}

function mapFile({ data, ...part }: OutputPart): MapOutputFile {
  return { ...part, bytes: encode(data) };
}

/**
 * Reads the archive, and gives what inspects it once this run is known to be still the latest. A
 * `File` is measured before it is read:
 * one past what is read whole (`WHOLE_READ_BYTES`, 16 MB: most often a part of an export of the
 * whole account, 2 GB by default, which cannot even be read into one buffer) is read by random
 * access from its slices, its directory and only its lists ({@link readLargeZip}), and one past
 * {@link checkPartSize} is refused at once. A file the browser cannot read (moved, deleted, a
 * folder named .zip) is said so in words, not with the browser's own message.
 */
async function inspectInput(
  input: Blob | ArrayBuffer | Uint8Array,
  limits: Limits,
  logger: Logger,
): Promise<() => InspectedList[]> {
  if (!(input instanceof Blob)) {
    const bytes = archiveBytesOf(input);
    return () => inspectArchive(bytes, { limits, logger }).lists;
  }
  const unreadable = (error: unknown) => {
    logger.warn('The chosen file could not be read', error);
    return new ConverterError('unreadable-file', MESSAGES.fileUnreadable);
  };
  if (readsByRanges(input.size, limits)) {
    checkPartSize(input.size);
    const read = async (at: number, length: number) => {
      try {
        return new Uint8Array(await input.slice(at, at + length).arrayBuffer());
      } catch (error) {
        throw unreadable(error);
      }
    };
    const partLimits = { ...limits, maxEntries: MAX_PART_ENTRIES };
    const contents = await readLargeZip({ size: input.size, read }, { limits: partLimits });
    return () => inspectZipContents(contents, { limits: partLimits, logger }).lists;
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await input.arrayBuffer());
  } catch (error) {
    throw unreadable(error);
  }
  return () => inspectArchive(bytes, { limits, logger }).lists;
}

/** A list's placed places as one flat `lng,lat` buffer and their names; null when none is placed. */
function listPoints(list: ConversionResult): ListPoints | null {
  const placed = list.places.filter((place) => place.coordinates !== undefined);
  if (placed.length === 0) return null;
  const coordinates = new Float64Array(placed.length * 2);
  const names: string[] = [];
  placed.forEach((place, index) => {
    coordinates[2 * index] = place.coordinates!.lng;
    coordinates[2 * index + 1] = place.coordinates!.lat;
    names.push(placeName(place.title));
  });
  return {
    path: list.path,
    name: list.name,
    ...(list.origin ? { origin: list.origin } : {}),
    coordinates,
    names,
  };
}

function fail<T>(error: unknown, fallback: string): Result<T> {
  return { ok: false, error: toErrorShape(error, fallback) };
}

/**
 * The object the worker exposes through Comlink. It keeps the archive's lists in the worker, sends the
 * page only summaries, and returns files as transferable buffers. Every method resolves: failures come
 * back as `{ ok: false, error: { code, message } }` because Comlink drops custom error fields.
 */
export function createConverterWorkerApi(
  dependencies: WorkerDependencies = {},
): ConverterWorkerApi {
  const logger = dependencies.logger ?? console;
  let lists: InspectedList[] = [];
  let converted: ConversionResult[] = [];
  let running: AbortController | undefined;
  /**
   * Counts the archives chosen and the resets: work begun for an earlier one (a 500 MB read the
   * person removed, then chose a small file) must not put its lists in place of the newer ones.
   */
  let generation = 0;
  const superseded = () =>
    new ConverterError('superseded', 'Another file was chosen meanwhile; this one was let go.');
  /** Files written for a run that another replaced while they were compressed. */
  const replaced = () =>
    new ConverterError('superseded', 'Another conversion replaced this one meanwhile.');

  return {
    async inspect(input, fileName) {
      const mine = ++generation;
      lists = [];
      converted = [];
      try {
        if (!/\.zip$/i.test(fileName)) throw new ConverterError('not-a-zip', MESSAGES.notAZip);
        const limits = dependencies.limits ?? LIMITS;
        const inspectRead = await inspectInput(input, limits, logger);
        if (mine !== generation) throw superseded();
        const inspected = inspectRead();
        lists = inspected;
        return { ok: true, value: { lists: inspected.map(summaryOf) } };
      } catch (error) {
        return fail(error, MESSAGES.extractFailed);
      }
    },

    async convert(options, onProgress) {
      try {
        if (lists.length === 0) throw new ConverterError('no-archive', MESSAGES.noArchive);
        if (options.paths.length === 0)
          throw new ConverterError('no-lists-chosen', MESSAGES.noListsChosen);
        const byPath = new Map(lists.map((list) => [list.path, list]));
        const chosen = options.paths.map((path) => {
          const list = byPath.get(path);
          if (!list)
            throw new ConverterError('unknown-list', `The list "${path}" is not in this archive.`);
          return list;
        });
        const format = checkFormat(options.format ?? 'kml');
        const mine = generation;
        converted = [];
        const run = new AbortController();
        running = run;
        const { lists: results, totals } = await convertArchive(
          { lists: chosen },
          {
            signal: run.signal,
            formats: [format],
            ...(options.resolve
              ? {
                  resolveUrls: createResolveClient(options.resolve, dependencies.fetch),
                  resolveTimeoutMs: options.resolve.timeoutMs,
                  // Without a payment the API takes at most this many links a request.
                  ...(options.resolve.paymentIntentId
                    ? {}
                    : { resolveChunkSize: FREE_TIER_MAX_URLS }),
                }
              : {}),
            ...(onProgress ? { onProgress } : {}),
            ...(dependencies.connectivity ? { connectivity: dependencies.connectivity } : {}),
            logger,
          },
        );
        const outcomes: ListOutcome[] = results.map((result) => {
          const outcome: ListOutcome = {
            path: result.path,
            fileName: result.fileName,
            name: result.name,
            outputName: result.outputName,
            stats: result.stats,
            files: result.files.map(mapFile),
            resolvedCount: result.resolvedCount ?? 0,
          };
          if (result.skippedReason) outcome.skippedReason = result.skippedReason;
          if (result.empty) outcome.empty = true;
          if (result.failedCsvContent && result.failedCsvFileName) {
            outcome.failedCsv = {
              fileName: result.failedCsvFileName,
              mimeType: CSV_MIME_TYPE,
              bytes: encode(result.failedCsvContent),
              count: result.stats.skipped,
            };
          }
          return outcome;
        });
        if (mine !== generation) throw superseded();
        // Kept (without their files) so the page can ask for other formats and for one ZIP.
        converted = results.map((result) => ({ ...result, files: [] }));
        const value: ConversionSummary = { lists: outcomes, totals };
        const buffers = outcomes.flatMap((outcome) => [
          ...outcome.files.map((file) => file.bytes),
          ...(outcome.failedCsv ? [outcome.failedCsv.bytes] : []),
        ]);
        return Comlink.transfer({ ok: true, value }, buffers);
      } catch (error) {
        return fail(error, 'An error occurred during conversion.');
      } finally {
        running = undefined;
      }
    },

    async cancel() {
      running?.abort();
    },

    async files(format) {
      try {
        const chosen = checkFormat(format);
        if (converted.length === 0) throw new ConverterError('no-archive', MESSAGES.noArchive);
        const run = converted;
        const byList: Record<string, MapOutputFile[]> = {};
        for (const list of run) {
          const files = (await listFilesAsync(list, chosen)).map(mapFile);
          if (files.length > 0) byList[list.path] = files;
        }
        // Written while the page's compressor worked: files of a run another has replaced since
        // are not given as that one's.
        if (converted !== run) throw replaced();
        const buffers = Object.values(byList).flatMap((files) => files.map((file) => file.bytes));
        return Comlink.transfer({ ok: true, value: { lists: byList } }, buffers);
      } catch (error) {
        return fail(error, 'The files could not be written.');
      }
    },

    async zipAll(format) {
      try {
        const chosen = checkFormat(format);
        if (converted.length === 0) throw new ConverterError('no-archive', MESSAGES.noArchive);
        // Dated now, as files downloaded one by one are, not 1 January 1980.
        const modified = (dependencies.now ?? (() => new Date()))();
        const run = converted;
        const chunks = (await zipRunAsync(run, chosen, { modified })).map(encode);
        if (converted !== run) throw replaced();
        return Comlink.transfer(
          { ok: true, value: { fileName: zipFileName(chosen), chunks } },
          chunks,
        );
      } catch (error) {
        return fail(error, 'The ZIP file could not be written.');
      }
    },

    async points() {
      try {
        if (converted.length === 0) throw new ConverterError('no-archive', MESSAGES.noArchive);
        const lists = converted.flatMap((list) => listPoints(list) ?? []);
        return Comlink.transfer(
          { ok: true, value: { lists } },
          lists.map((list) => list.coordinates.buffer as ArrayBuffer),
        );
      } catch (error) {
        return fail(error, 'The map could not be prepared.');
      }
    },

    async prepareRetry() {
      try {
        if (converted.length === 0) throw new ConverterError('no-archive', MESSAGES.noArchive);
        const retries = retryLists(converted, lists);
        // The archive's own lists stay; earlier retry lists give way to these.
        lists = [...lists.filter((list) => !list.origin), ...retries];
        return { ok: true, value: { lists: retries.map(summaryOf) } };
      } catch (error) {
        return fail(error, 'The failed places could not be prepared.');
      }
    },

    async reset() {
      generation += 1;
      running?.abort();
      lists = [];
      converted = [];
    },
  };
}
