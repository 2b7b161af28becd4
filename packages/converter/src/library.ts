/**
 * The converter as a library: open a Takeout archive, convert its lists to map files, and bundle
 * them. Everything here works the same in Node and in a Web Worker (no DOM, no fetch, no timers of
 * its own: lookups go through the `resolveUrls` you pass).
 */
import type { Crc32, Inflate, PickLists } from './core/archive.js';
import { ConverterError } from './core/errors.js';
import {
  checkFormat,
  eachListFile,
  listParts,
  partList,
  writeListFilesAsync,
  writePlacesChunks,
  FORMAT_INFO,
  type ListMeta,
  type OutputFile,
  type OutputFormat,
  type OutputPart,
} from './core/formats/output.js';
import { zipFiles, zipFilesAsync, type ZipInput } from './core/formats/zip.js';
import type { MappedPlace } from './core/kml.js';
import { LIMITS, type Limits } from './core/limits.js';
import { CSV_MIME_TYPE, failedCsvFileName } from './core/names.js';
import type { Logger } from './core/seams.js';
import type { ConversionResult, ListSummary } from './core/types.js';
import type { ZipContents } from './core/zip-directory.js';
import { readArchive, readCsvFile, type InspectedList } from './inspect.js';
import { PART_LIMITS } from './large-zip.js';
import { checkOptions, convertLists, type ConversionOptions } from './pipeline.js';

/**
 * What {@link inspectArchive} finds in an archive, and what {@link convertArchive} converts: the
 * place lists, saved lists first and the starred places last, in archive order, each read once.
 */
export interface ArchiveInspection {
  lists: InspectedList[];
}

/** Options of {@link inspectArchive}, {@link inspectCsv} and {@link convertArchive}. */
export interface ReadOptions {
  /** Bounds on what the archive may ask (sizes, counts); the defaults suit any real Takeout export. */
  limits?: Partial<Limits>;
  /** Where entries skipped while reading the archive are reported (default: nowhere). */
  logger?: Logger;
  /**
   * Inflates the archive's lists (default: fflate's, pure JavaScript, as in a browser). In Node,
   * pass zlib's `inflateRawSync` within the declared size, about three times faster:
   * `(data, size) => inflateRawSync(data, { maxOutputLength: size })`.
   */
  inflate?: Inflate;
  /**
   * Checks each list's bytes against the CRC-32 the archive holds for them (default: in
   * JavaScript, about 2 ms a MB). In Node, pass zlib's `crc32`, native. A list whose bytes do not
   * match is skipped as damaged, as one that does not inflate is.
   */
  crc32?: Crc32;
  /**
   * Handed each list's unpacked bytes (what `inflate` gave, or a stored entry's own copy) once the
   * list is read: nothing the converter returns refers to them. A caller that can free memory at
   * once may do so here (the CLI does, `apps/cli/src/inflate.ts`); otherwise they are left to the
   * garbage collector, which frees bytes read long enough to grow old only in a full collection.
   */
  release?: (bytes: Uint8Array) => void;
  /**
   * Chooses the lists to read from every place list of the archive (each `{ path, name, kind }`),
   * before any is unpacked: returns the paths of those to read. The others are neither unpacked
   * nor parsed, nor counted against `limits.maxPlaces`, so some lists of an archive past the cap
   * can be read. Each list keeps the output name it has when every list is read. What it throws
   * is thrown. `convertArchive`'s `lists` picks so when it is given the archive's bytes.
   */
  pick?: PickLists;
}

function limitsOf(options: ReadOptions): Limits {
  return { ...LIMITS, ...options.limits };
}

/**
 * An archive's bytes as the library takes them: a `Uint8Array` (a Node `Buffer` is one), an
 * `ArrayBuffer` (what `Blob.arrayBuffer()` and `fetch` give), or any other view of one (a
 * `DataView`, another typed array).
 */
export type ArchiveBytes = ArrayBufferLike | ArrayBufferView;

/** Whether `value` is an `ArrayBuffer` or a `SharedArrayBuffer`, from this realm or another. */
function isBuffer(value: unknown): value is ArrayBufferLike {
  const tag = Object.prototype.toString.call(value);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

/** Whether `value` is {@link ArchiveBytes}. */
function isArchiveBytes(value: unknown): value is ArchiveBytes {
  return ArrayBuffer.isView(value) || isBuffer(value);
}

/** What a caller passed instead of bytes, named for a message. */
function kindOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  return (value as object).constructor?.name ?? 'object';
}

/** What {@link ArchiveBytes} are, in a message's words. */
const BYTES_WORDS =
  "the ZIP file's bytes (a Uint8Array, an ArrayBuffer or another ArrayBufferView)";

/**
 * The archive's bytes as the `Uint8Array` the reader works on: a `Uint8Array` as it is, any other
 * {@link ArchiveBytes} as a view over the same memory (nothing is copied).
 *
 * @throws TypeError for anything else, saying what was passed and what to pass instead.
 */
export function archiveBytesOf(input: unknown): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) {
    return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }
  if (isBuffer(input)) return new Uint8Array(input);
  throw new TypeError(
    `The archive must be ${BYTES_WORDS}, not what was given (${kindOf(input)}). Read a Blob or File first with its arrayBuffer() method.`,
  );
}

/**
 * Opens a Google Takeout archive (the ZIP's bytes: {@link ArchiveBytes}) and lists its place lists
 * without converting them: name, path (a list's identity, since names repeat across folders),
 * places, how many are placed without a lookup and how many need one, and why a list cannot be
 * converted. Each list keeps its places as read (`parsed`), so converting the inspection reads
 * nothing twice.
 *
 * @throws {@link ConverterError} for an archive that cannot be used, with a message fit for people
 * (`code` is one of `incomplete-zip`, `no-csv`, `no-place-lists`, `archive-too-large`,
 * `too-many-entries`, `too-many-places`, `not-a-zip`, `unsupported-compression`), and a TypeError
 * when `bytes` are not bytes.
 *
 * @example
 * ```ts
 * const { lists } = inspectArchive(new Uint8Array(await readFile('takeout.zip')));
 * for (const list of lists) console.log(list.name, list.rowCount, list.needsLookup);
 * ```
 */
export function inspectArchive(bytes: ArchiveBytes, options: ReadOptions = {}): ArchiveInspection {
  return {
    lists: readArchive(archiveBytesOf(bytes), { ...options, limits: limitsOf(options) }),
  };
}

/**
 * {@link inspectArchive} for a ZIP too large to read whole, from what `readLargeZip` read of it:
 * the same lists, warnings and refusals as the ZIP read whole. `options.limits` are those it was
 * read with (by default `PART_LIMITS`).
 */
export function inspectZipContents(
  contents: ZipContents,
  options: ReadOptions = {},
): ArchiveInspection {
  return {
    lists: readArchive(contents, {
      ...options,
      limits: { ...PART_LIMITS, ...options.limits },
    }),
  };
}

/**
 * One CSV file as an inspection of one list: a saved list exported on its own, or the
 * failed-places CSV of an earlier run (its formula guards taken off, its files named after the list
 * it came from), ready for {@link convertArchive}.
 *
 * @throws {@link ConverterError} when the CSV cannot be read as a list (the seed's messages) or
 * holds more than `limits.maxPlaces` places.
 */
export function inspectCsv(
  text: string,
  fileName: string,
  options: ReadOptions = {},
): ArchiveInspection {
  return { lists: [readCsvFile(text, fileName, { limits: limitsOf(options) })] };
}

/** A list without its places: what crosses a worker boundary or goes into a report. */
export function summaryOf(list: InspectedList): ListSummary {
  const { parsed: _parsed, ...summary } = list;
  return summary;
}

/** Options of {@link convertArchive}: which lists, and how they are converted. */
export interface ConvertArchiveOptions extends ReadOptions, ConversionOptions {
  /**
   * The lists to convert, by path or by name, in that order; every list when absent. A name shared
   * by lists in different folders is refused (use the path). Given the archive's bytes, only these
   * lists are read, so they may be some of an archive past `limits.maxPlaces`.
   */
  lists?: readonly string[];
}

/** What {@link convertArchive} returns. */
export interface ConvertedArchive {
  /** Per list: its places (with coordinates or the reason they have none), statistics and files. */
  lists: ConversionResult[];
  /** Every file of the run: each list's files in each format, then its failed-places CSV. */
  files: OutputFile[];
  totals: { total: number; converted: number; skipped: number };
}

/** Whether two list names (or paths) are the same text, whatever their Unicode form. */
export const sameListName = (a: string, b: string): boolean =>
  a === b || a.normalize('NFC') === b.normalize('NFC');

/**
 * Picks lists by path or name, the same text whatever its Unicode form (a name typed is NFC; one
 * from a ZIP made again on a Mac may be NFD). Paths win; a name shared by several lists is refused
 * with the paths to choose from.
 */
export function pickLists<T extends { path: string; name: string }>(
  lists: readonly T[],
  wanted: readonly string[],
): T[] {
  return wanted.map((want) => {
    const byPath = lists.find((list) => sameListName(list.path, want));
    if (byPath) return byPath;
    const named = lists.filter((list) => sameListName(list.name, want));
    if (named.length === 1) return named[0]!;
    if (named.length > 1) {
      throw new ConverterError(
        'ambiguous-list',
        `${named.length} lists are named "${want}"; choose one by its path: ${named.map((list) => list.path).join(', ')}`,
      );
    }
    throw new ConverterError(
      'unknown-list',
      `No list named "${want}" in this archive. Lists: ${lists.map((list) => list.name).join(', ')}`,
    );
  });
}

/**
 * Converts the lists of a Takeout archive (its bytes, or what {@link inspectArchive} or
 * {@link inspectCsv} made of it) to map files: coordinates from the file or the link, and for links
 * without them, from `resolveUrls`. A list that cannot be read is reported with its reason
 * (`skippedReason`) and the others go on.
 *
 * @throws {@link ConverterError} as {@link inspectArchive} does, `unknown-list` /
 * `ambiguous-list` for a `lists` entry that names no list or several, and `unknown-format` for a
 * `formats` entry that is not one of `OUTPUT_FORMATS` (before anything is looked up); a TypeError
 * when `input` is neither bytes nor an inspection.
 *
 * @example
 * ```ts
 * const run = await convertArchive(bytes, { formats: ['kml', 'gpx'] });
 * for (const file of run.files) await writeFile(file.fileName, file.data);
 * ```
 */
export async function convertArchive(
  input: ArchiveBytes | ArchiveInspection,
  options: ConvertArchiveOptions = {},
): Promise<ConvertedArchive> {
  checkOptions(options);
  const wanted = options.lists;
  if (wanted !== undefined && !Array.isArray(wanted)) {
    throw new TypeError(`lists must be an array of list names or paths, got ${String(wanted)}`);
  }
  // From the bytes, only the lists asked for are read (and counted against the place cap).
  const { lists: all } = isArchiveBytes(input)
    ? inspectArchive(
        input,
        wanted && wanted.length > 0 && !options.pick
          ? { ...options, pick: (lists) => pickLists(lists, wanted).map((list) => list.path) }
          : options,
      )
    : inspectionOf(input);
  const chosen = wanted ? pickLists(all, wanted) : all;
  const lists = await convertLists(chosen, {
    ...options,
    maxPlacemarksPerFile: options.maxPlacemarksPerFile ?? limitsOf(options).maxPlacemarksPerKml,
  });
  const files: OutputFile[] = [];
  for (const list of lists) {
    files.push(...list.files);
    const failed = failedFileOf(list);
    if (failed) files.push(failed);
  }
  return { lists, files, totals: totalsOf(lists) };
}

/** What {@link convertArchive} got when it is not bytes: an inspection, or a TypeError saying so. */
function inspectionOf(input: unknown): ArchiveInspection {
  if (Array.isArray((input as Partial<ArchiveInspection> | null)?.lists)) {
    return input as ArchiveInspection;
  }
  throw new TypeError(
    `convertArchive takes ${BYTES_WORDS} or what inspectArchive or inspectCsv returned, not what was given (${kindOf(input)}).`,
  );
}

/** The failed-places CSV of a converted list, when some of its places have no coordinates. */
export function failedFileOf(list: ConversionResult): OutputFile | undefined {
  if (list.failedCsvContent === undefined) return undefined;
  return {
    fileName: list.failedCsvFileName ?? failedCsvFileName(list.outputName),
    mimeType: CSV_MIME_TYPE,
    data: list.failedCsvContent,
  };
}

/** Places, converted and not, over all lists of a run. */
export function totalsOf(lists: readonly ConversionResult[]): ConvertedArchive['totals'] {
  const totals = { total: 0, converted: 0, skipped: 0 };
  for (const { stats } of lists) {
    totals.total += stats.totalPlaces;
    totals.converted += stats.converted;
    totals.skipped += stats.skipped;
  }
  return totals;
}

/**
 * The files of one list in a format, written from its places now (so a run converted once can be
 * downloaded in any format): parts of at most `maxPerFile` placemarks, split evenly.
 */
export function listFiles(
  list: ConversionResult,
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): OutputPart[] {
  return Array.from(eachFileOf(list, format, maxPerFile));
}

/**
 * {@link listFiles}, with each KMZ compressed by the platform's `CompressionStream` where it has one
 * (`writeListFilesAsync`): the page's worker writes its files so. Other formats are {@link listFiles}'s.
 */
export async function listFilesAsync(
  list: ConversionResult,
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): Promise<OutputPart[]> {
  const source = writableOf(list);
  if (!source) return [];
  return writeListFilesAsync(source.meta, source.mapped, format, maxPerFile, {
    CompressionStream: globalThis.CompressionStream,
  });
}

/** A converted list's placed places and what the writers need of it; undefined when none is placed. */
function writableOf(list: ConversionResult): { meta: ListMeta; mapped: MappedPlace[] } | undefined {
  const mapped = list.places.filter((place): place is MappedPlace => !!place.coordinates);
  if (mapped.length === 0) return undefined;
  const meta = {
    name: list.name,
    outputName: list.outputName,
    ...(list.description ? { description: list.description } : {}),
  };
  return { meta, mapped };
}

/** {@link listFiles}, one part at a time as they are pulled. */
function* eachFileOf(
  list: ConversionResult,
  format: OutputFormat,
  maxPerFile: number,
): Generator<OutputPart> {
  const source = writableOf(list);
  if (source) yield* eachListFile(source.meta, source.mapped, format, maxPerFile);
}

/** A file of a converted list, named and counted but not written yet. */
export interface UnwrittenFile extends Omit<OutputPart, 'data'> {
  /** The file's content, made piece by piece as it is pulled (see `writePlacesChunks`). */
  chunks(): Iterable<string | Uint8Array>;
}

/**
 * {@link listFiles} without writing them: every file's name and size now, its content only when
 * its chunks are pulled, so a caller saving files one after the other (the CLI) never holds a run's
 * text, nor even one whole file's.
 */
export function unwrittenListFiles(
  list: ConversionResult,
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): UnwrittenFile[] {
  const source = writableOf(list);
  if (!source) return [];
  return listParts(source.meta, source.mapped, format, maxPerFile).map(({ places, ...part }) => ({
    ...part,
    chunks: () => writePlacesChunks(format, places, partList(source.meta, part.part, part.parts)),
  }));
}

/**
 * Every file of a run in one format, one at a time: each list's parts, then its failed-places CSV
 * (the one with the `Reason` column). Files are written only when pulled, so a ZIP of 100,000 places
 * never holds the whole run twice.
 */
export function* runFiles(
  lists: readonly ConversionResult[],
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): Generator<OutputFile> {
  for (const list of lists) {
    yield* eachFileOf(list, format, maxPerFile);
    const failed = failedFileOf(list);
    if (failed) yield failed;
  }
}

/** A run's files as entries of its ZIP: KMZ files, ZIPs themselves, stored as they are. */
function* zipInputsOf(files: Iterable<OutputFile>): Generator<ZipInput> {
  for (const file of files) {
    yield file.mimeType === FORMAT_INFO.kmz.mimeType ? { ...file, stored: true } : file;
  }
}

/** {@link runFiles} as one array, each KMZ written by {@link listFilesAsync}. */
async function runFilesAsync(
  lists: readonly ConversionResult[],
  format: OutputFormat,
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const list of lists) {
    files.push(...(await listFilesAsync(list, format, maxPerFile)));
    const failed = failedFileOf(list);
    if (failed) files.push(failed);
  }
  return files;
}

/**
 * "Download all": one ZIP of every file of a run in a format, streamed (see {@link runFiles}). The
 * ZIP comes back as chunks; join them into a `Blob` or write them out one after the other.
 */
export function zipRun(
  lists: readonly ConversionResult[],
  format: OutputFormat,
  options: { maxPerFile?: number; modified?: Date } = {},
): Uint8Array[] {
  return zipFiles(
    zipInputsOf(runFiles(lists, format, options.maxPerFile)),
    options.modified ? { modified: options.modified } : {},
  );
}

/**
 * {@link zipRun} compressed by the platform's `CompressionStream` where it has one (browsers, Web
 * Workers, Node 18 and later), in native code rather than fflate's JavaScript, and by fflate where it
 * has not: the same entries either way, text files pulled one at a time; KMZ files are those of
 * {@link listFilesAsync}, stored. The worker's "Download all" uses it.
 */
export async function zipRunAsync(
  lists: readonly ConversionResult[],
  format: OutputFormat,
  options: { maxPerFile?: number; modified?: Date } = {},
): Promise<Uint8Array[]> {
  // KMZ files are made first, each compressed natively ({@link listFilesAsync}), then stored: all
  // of a run's KMZ together are its compressed size, a few MB at 100,000 places.
  const files =
    checkFormat(format) === 'kmz'
      ? await runFilesAsync(lists, format, options.maxPerFile)
      : runFiles(lists, format, options.maxPerFile);
  return zipFilesAsync(zipInputsOf(files), {
    modified: options.modified,
    CompressionStream: globalThis.CompressionStream,
  });
}

/**
 * The file name "Download all" suggests: the format in the name, so several can sit side by side.
 * Throws ConverterError `unknown-format` for a format that is not one of `OUTPUT_FORMATS`.
 */
export function zipFileName(format: OutputFormat): string {
  return `PlacePort ${FORMAT_INFO[checkFormat(format)].name} files.zip`;
}
