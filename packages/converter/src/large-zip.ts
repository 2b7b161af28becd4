/**
 * A Takeout archive too large to read whole at ease (past {@link WHOLE_READ_BYTES}, 16 MB): most
 * often a part of an export of the whole account (Takeout splits one into parts of 2 GB by default,
 * up to 50 GB, ZIP64 past 4 GB), of which only the lists matter. It is read by random access from a
 * {@link RangeSource} (a `File`'s slices in the page's worker, a file handle in the CLI): its
 * directory from its end, then only what the list rules read ({@link readLargeZip}), as
 * `ZipContents` that the converter's own ZIP reader then reads as it reads a ZIP held whole: the
 * same directory, the same rules, the same code. So such a part converts at once, instead of the
 * person being sent to export again (which Google takes hours or days to prepare), a phone never
 * holds a whole-account export in memory, and every list, warning and refusal is the whole read's.
 *
 * {@link Repack} serves the CLI's inputs that are not a ZIP (a `.tgz`, an unzipped folder): what
 * the list rules look at is kept as it streams by and read as a ZIP's stored entries, so the lists
 * are chosen, limited and named as in Takeout's ZIP, by the same code.
 */
import {
  chosenZipEntries,
  entryInterest,
  HEADER_SNIFF_BYTES,
  isCsvPath,
  isInSavedFolder,
  isPlaceListPath,
  looksLikeStarredStart,
  NotRead,
  startsWithListHeader,
  tooManyFiles,
} from './core/archive.js';
import { ConverterError, MESSAGES } from './core/errors.js';
import { describeBytes, LIMITS, type Limits } from './core/limits.js';
import { STARRED_SNIFF_BYTES } from './core/saved-places-json.js';
import {
  canUnpack,
  entryDataStart,
  localHeaderLength,
  peekZipData,
  readZipDirectory,
  zipDirectoryExtent,
  type ZipContents,
  type ZipEntry,
} from './core/zip-directory.js';

/** What a person is told to narrow their export to, as the ZIP's limits say it. */
export const EXPORT_LESS =
  'Export only "Saved" and "Maps (your places)" from Google Takeout and try again.';

/** The largest part read: Takeout's largest part is 50 GB. */
export const MAX_PART_BYTES = 64 * 1024 ** 3;

/**
 * The most entries a part may hold: a 50 GB part of photos holds tens of thousands (each with its
 * metadata file), far past what an archive read whole may (`maxEntries`), and its directory alone
 * is read into memory, bounded by its size ({@link MAX_DIRECTORY_BYTES}).
 */
export const MAX_PART_ENTRIES = 1_000_000;

/**
 * The largest ZIP read whole into memory: one past it is read by ranges ({@link readLargeZip}), so
 * the page's worker on a phone never holds an export of the whole account (hundreds of MB even
 * without photos) to use the few MB of its lists, and the CLI's memory follows the lists, not the
 * archive. Takeout's export of "Saved" and "Maps (your places)" alone is far smaller: 100,000
 * places take about 5 MB. Measured in headless Chromium (session 19, medians of 3): a 60 MB export
 * read whole peaked 60 MB higher in the page (242 MB against 183) and took longer (342 ms against
 * 308) than a 70 MB one read by ranges, which held what a 184 KB export holds, as did one of 2 GB.
 */
export const WHOLE_READ_BYTES = 16 * 1024 * 1024;

/**
 * Whether a ZIP of `size` bytes is read by ranges: past {@link WHOLE_READ_BYTES}, or past what
 * `limits` let be read whole when that is less.
 */
export function readsByRanges(
  size: number,
  limits: Pick<Limits, 'maxArchiveBytes'> = LIMITS,
): boolean {
  return size > Math.min(WHOLE_READ_BYTES, limits.maxArchiveBytes);
}

/** Refuses an archive of `size` bytes past {@link MAX_PART_BYTES}, before it is read. */
export function checkPartSize(size: number): void {
  if (size > MAX_PART_BYTES) {
    throw new ConverterError(
      'archive-too-large',
      `This ZIP file is larger than ${MAX_PART_BYTES / 1024 ** 3} GB, more than a Google Takeout part holds. ${EXPORT_LESS}`,
    );
  }
}

/**
 * The most files {@link Repack} keeps at once: what an archive read whole may hold
 * (`maxEntries`). Another product's CSVs (Fit's, one a day) are let go once "Saved" is reached; an
 * export holding more lists than this at once is no Takeout export.
 */
export const MAX_KEPT_FILES = LIMITS.maxEntries;

/**
 * How an entry is read when it is wanted ({@link Repack.wanted}): `whole` (a CSV), or judged first
 * by its first {@link STARRED_SNIFF_BYTES} bytes and kept only when they pass (another `.json`).
 */
export type Wanted = 'whole' | ((head: Uint8Array) => boolean);

/**
 * The entries kept of an export that is not a ZIP (the CLI's `.tgz` and folders), as they stream
 * by, for `inspectZipContents` to read as a Takeout ZIP ({@link Repack.contents}), and the checks
 * on what is seen: every entry counts against `maxEntries`; a CSV is kept whole, a `.json` only
 * when its start looks like the starred places (`entryInterest`); the bytes kept are bounded by
 * `maxCsvBytes`, and the files kept by {@link MAX_KEPT_FILES}. A path seen again replaces what was
 * kept of it, as unpacking the archive would. Once a CSV inside a "Saved" folder is seen, CSVs
 * elsewhere are no lists (`choosePlaceLists`): those kept are let go and no more are kept; and
 * CSVs elsewhere that pass the lists' limit before "Saved" is reached (another product's, in an
 * export of the whole account) are let go too, the export refused only if no "Saved" comes.
 */
export class Repack {
  /** By path, in the order found; a path found again is moved to the end with its new bytes. */
  private readonly kept = new Map<string, Uint8Array>();
  private keptBytes = 0;
  private seen = 0;
  private savedSeen = false;
  /** CSVs outside "Saved" passed the lists' limit before it was seen: let go, and no more kept. */
  private overflowed = false;

  /** `noun` names the export in messages: "archive" or "folder". */
  constructor(
    private readonly noun: 'archive' | 'folder',
    private readonly limits: Pick<Limits, 'maxEntries' | 'maxCsvBytes'>,
  ) {}

  /** Counts one more entry (file or folder); past `maxEntries`, refuses the export. */
  count(): void {
    this.seen += 1;
    if (this.seen > this.limits.maxEntries) {
      throw new ConverterError(
        'too-many-entries',
        `This ${this.noun} holds more than ${this.limits.maxEntries.toLocaleString('en-US')} files. ${EXPORT_LESS}`,
      );
    }
  }

  /**
   * Whether a file at `path`, which would keep `size` bytes, is wanted, and how ({@link Wanted});
   * undefined when it is not read at all. A CSV is wanted whole; one inside "Saved" past what may
   * still be kept refuses the export; one outside it, before "Saved" is seen, lets go of those
   * kept from outside it instead. Another JSON is wanted only when its start says it is the starred
   * places (`looksLikeStarredStart`) and it is no larger than a list may be.
   */
  wanted(path: string, size: number, isFile: boolean): Wanted | undefined {
    const interest = isFile ? entryInterest(path) : undefined;
    if (interest === 'whole') {
      if (isCsvPath(path)) {
        const inSaved = isInSavedFolder(path);
        if (this.savedSeen && !inSaved) return undefined;
        if (inSaved && !this.savedSeen) this.letGoOutsideSaved(true);
        if (!inSaved && (this.overflowed || size > this.room(path))) {
          this.overflowed = true;
          this.letGoOutsideSaved(false);
          return undefined;
        }
      }
      if (size > this.room(path)) throw this.tooLarge();
      return 'whole';
    }
    return interest === 'start' && size <= this.limits.maxCsvBytes
      ? looksLikeStarredStart
      : undefined;
  }

  /** Bytes that may still be kept for `path` (what was kept of it is replaced). */
  private room(path: string): number {
    return this.limits.maxCsvBytes - this.keptBytes + (this.kept.get(path)?.length ?? 0);
  }

  /**
   * Keeps a wanted entry's bytes, in place of any kept under its path; past `maxCsvBytes` in all,
   * or past {@link MAX_KEPT_FILES} files, refuses the export.
   */
  keep(path: string, bytes: Uint8Array): void {
    const earlier = this.kept.get(path);
    if (earlier) {
      this.keptBytes -= earlier.length;
      this.kept.delete(path);
    }
    this.keptBytes += bytes.length;
    if (this.keptBytes > this.limits.maxCsvBytes) throw this.tooLarge();
    if (this.kept.size === MAX_KEPT_FILES) {
      throw new ConverterError(
        'too-many-entries',
        `This ${this.noun} holds more than ${MAX_KEPT_FILES.toLocaleString('en-US')} CSV files. ${EXPORT_LESS}`,
      );
    }
    this.kept.set(path, bytes);
  }

  /**
   * Lets go of the CSVs kept from outside "Saved": from the first CSV inside it on (`saved`),
   * they are no lists; or they passed the lists' limit before it came.
   */
  private letGoOutsideSaved(saved: boolean): void {
    if (saved) this.savedSeen = true;
    for (const [path, bytes] of this.kept) {
      if (isCsvPath(path) && !isInSavedFolder(path)) {
        this.keptBytes -= bytes.length;
        this.kept.delete(path);
      }
    }
  }

  /** The bytes kept under `path`, if any (what a tar's hard link to it holds). */
  keptAt(path: string): Uint8Array | undefined {
    return this.kept.get(path);
  }

  /** How many entries are kept. */
  get size(): number {
    return this.kept.size;
  }

  /**
   * The entries kept, in the order they were found, as the stored entries of a ZIP, for
   * `inspectZipContents`. Refuses the export when CSVs outside "Saved" passed the lists' limit
   * and no "Saved" folder came.
   */
  contents(): ZipContents {
    if (this.overflowed && !this.savedSeen) throw this.tooLarge();
    const data = new Map<ZipEntry, Uint8Array>();
    for (const [name, bytes] of this.kept) {
      const { length } = bytes;
      data.set({ name, compression: 0, size: length, originalSize: length, localOffset: 0 }, bytes);
    }
    return contentsOf([...data.keys()], data, data);
  }

  private tooLarge(): ConverterError {
    return new ConverterError(
      'archive-too-large',
      `The lists in this ${this.noun} add up to more than ${describeBytes(this.limits.maxCsvBytes)} once unpacked. ${EXPORT_LESS}`,
    );
  }
}

/**
 * A file read by ranges: `read` gives `length` bytes from `at` (fewer at its end), and throws (a
 * ConverterError, as it is passed on) when the file cannot be read.
 */
export interface RangeSource {
  size: number;
  read(at: number, length: number): Promise<Uint8Array>;
}

/** Options of {@link readLargeZip}. */
export interface LargeZipOptions {
  /** By default {@link LIMITS}, with at most {@link MAX_PART_ENTRIES} entries. */
  limits?: Limits;
}

/** The limits a part is read with: an archive's, but for its entries ({@link MAX_PART_ENTRIES}). */
export const PART_LIMITS: Limits = { ...LIMITS, maxEntries: MAX_PART_ENTRIES };

/** What is read from the end first: the end-of-directory record and the longest comment. */
const TAIL_BYTES = 65_558 + 20;

/** Compressed bytes read to judge a `.json` file by its start (JSON deflates several times over). */
const PEEK_COMPRESSED_BYTES = 64 * 1024;

/**
 * Compressed bytes read to tell a CSV by its first {@link HEADER_SNIFF_BYTES}: DEFLATE adds at most
 * a few hundred bytes (a block's header) to what it cannot shrink.
 */
const SNIFF_COMPRESSED_BYTES = 8 * 1024;

/**
 * Bytes read past an entry's fixed local header in the same read, for its name and extra field
 * (Takeout's names are far shorter); a longer header is read again.
 */
const LOCAL_HEADER_ROOM = 1024;

/**
 * The most bytes a directory is read in: 1,000,000 entries ({@link MAX_PART_ENTRIES}) with names
 * of about 200 bytes; Takeout's paths are about 100.
 */
const MAX_DIRECTORY_BYTES = 256 * 1024 * 1024;

/** A head judged to say nothing (not the starred places, no list's header): it says the same. */
const NOTHING = new Uint8Array(0);

/**
 * The {@link ZipContents} of the ZIP `source`, read by ranges: its directory, then only what the
 * list rules read of it, for `inspectZipContents` (or `eachCsvEntry`) to choose and unpack its
 * lists exactly as in the ZIP read whole, by the same code: the start of each `.json` file that may
 * be the starred places and, when no CSV is in a "Saved" folder, of each CSV that may be a list
 * (`HEADER_SNIFF_BYTES`); then the data, still compressed, of the lists and starred places chosen
 * (`chosenZipEntries`). A start that says nothing is not kept, so a part of tens of thousands of
 * files holds only its lists. An entry that cannot be read (its header missing, its data past the
 * file's end) keeps the error the whole read gives, and is answered as there: skipped with a
 * warning, or not taken for a list. Throws ConverterError: `not-a-zip` / `incomplete-zip` as a ZIP
 * read whole would (no directory at its end: not a ZIP, or a download cut short);
 * `too-many-entries` past `limits.maxEntries` or a directory past {@link MAX_DIRECTORY_BYTES};
 * what choosing the lists throws (`no-csv`, `no-place-lists`, the lists' limits); and whatever
 * `source.read` throws as a ConverterError.
 */
export async function readLargeZip(
  source: RangeSource,
  options: LargeZipOptions = {},
): Promise<ZipContents> {
  const limits = options.limits ?? PART_LIMITS;
  const entries = await directoryOf(source, limits.maxEntries);
  const heads = new Map<ZipEntry, Uint8Array | Error>();
  const data = new Map<ZipEntry, Uint8Array | Error>();
  const contents = contentsOf(entries, data, heads);
  const isListCsv = (entry: ZipEntry) =>
    isCsvPath(entry.name) && entryInterest(entry.name) === 'whole';
  const sniffCsvs = !entries.some((entry) => isListCsv(entry) && isInSavedFolder(entry.name));
  for (const entry of entries) {
    const interest = entryInterest(entry.name);
    if (interest === 'start' && entry.originalSize <= limits.maxCsvBytes) {
      heads.set(
        entry,
        await judged(
          source,
          entry,
          STARRED_SNIFF_BYTES,
          PEEK_COMPRESSED_BYTES,
          looksLikeStarredStart,
        ),
      );
    } else if (sniffCsvs && isListCsv(entry) && isPlaceListPath(entry.name)) {
      heads.set(
        entry,
        await judged(
          source,
          entry,
          HEADER_SNIFF_BYTES,
          SNIFF_COMPRESSED_BYTES,
          startsWithListHeader,
        ),
      );
    }
  }
  for (const entry of chosenZipEntries(contents, limits)) {
    data.set(entry, await orError(readData(source, entry, dataLength(entry))));
  }
  return contents;
}

/**
 * `entries` as {@link ZipContents} over what was read of them: each one's data as stored, and the
 * start it unpacks to (`heads`), or the error reading it gave; {@link NotRead} for what was not.
 */
function contentsOf(
  entries: readonly ZipEntry[],
  data: ReadonlyMap<ZipEntry, Uint8Array | Error>,
  heads: ReadonlyMap<ZipEntry, Uint8Array | Error>,
): ZipContents {
  const readOf = (read: typeof data, entry: ZipEntry) => {
    const found = read.get(entry);
    if (found === undefined) throw new NotRead(`${entry.name} was not read`);
    if (found instanceof Error) throw found;
    return found;
  };
  return {
    entries,
    data: (entry) => readOf(data, entry),
    head: (entry, length) => readOf(heads, entry).subarray(0, length),
  };
}

/** A read's bytes, or the error it failed with; a ConverterError (the file unreadable) is thrown. */
async function orError(read: Promise<Uint8Array>): Promise<Uint8Array | Error> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * The first `length` bytes an entry unpacks to, read from at most `compressed` bytes of its data,
 * when `passes` takes them; {@link NOTHING} when not; the error when they cannot be read.
 */
async function judged(
  source: RangeSource,
  entry: ZipEntry,
  length: number,
  compressed: number,
  passes: (head: Uint8Array) => boolean,
): Promise<Uint8Array | Error> {
  if (!canUnpack(entry)) return new RangeError(`unknown compression type ${entry.compression}`);
  const start = await orError(readData(source, entry, Math.min(entry.size, compressed)));
  if (start instanceof Error) return start;
  try {
    const head = peekZipData(start, entry, length);
    return passes(head) ? head : NOTHING;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Bytes of an entry's data that unpacking it reads: a stored entry's declared size, or as much as
 * DEFLATE can take to make it; a directory that claims more (a damaged one) is not read past that.
 */
function dataLength(entry: ZipEntry): number {
  const most =
    entry.compression === 0
      ? entry.originalSize
      : entry.originalSize + Math.ceil(entry.originalSize / 100) + 1024;
  return Math.min(entry.size, most);
}

/**
 * The first `length` bytes of an entry's data as stored, read with its local header. Throws a
 * RangeError as the whole read does (`entryDataStart`), or what `source.read` throws.
 */
async function readData(source: RangeSource, entry: ZipEntry, length: number): Promise<Uint8Array> {
  let block = await read(source, entry.localOffset, 30 + LOCAL_HEADER_ROOM + length);
  if (localHeaderLength(block) > 30 + LOCAL_HEADER_ROOM) {
    block = await read(source, entry.localOffset, localHeaderLength(block) + length);
  }
  const start = entryDataStart(block, entry, entry.localOffset, source.size);
  const data = block.subarray(start, start + length);
  // The file grew shorter while it was read.
  if (data.length < length) throw new RangeError('ZIP entry cut short');
  return data;
}

/** `source.read`, its failures other than a ConverterError said as a file that is not whole. */
async function read(source: RangeSource, at: number, length: number): Promise<Uint8Array> {
  try {
    return await source.read(at, Math.max(0, Math.min(length, source.size - at)));
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
}

/**
 * The ZIP's directory, read from its end: what a ZIP read whole would say when there is none, and
 * `too-many-entries` past `maxEntries` (known from the end record before the directory is read) or
 * a directory past {@link MAX_DIRECTORY_BYTES}.
 */
async function directoryOf(source: RangeSource, maxEntries: number): Promise<ZipEntry[]> {
  const { size } = source;
  let entries: ZipEntry[];
  try {
    let base = Math.max(0, size - TAIL_BYTES);
    let end = await read(source, base, size - base);
    // The directory (and a ZIP64 record) lies before the tail: read from where it starts.
    for (
      let found = zipDirectoryExtent(end, base);
      found.start < base;
      found = zipDirectoryExtent(end, base)
    ) {
      if (found.start < 0) throw new RangeError('directory before the file');
      if (found.count !== undefined && found.count > maxEntries) throw tooManyFiles(maxEntries);
      if (size - found.start > MAX_DIRECTORY_BYTES) {
        if (found.count === undefined) throw new RangeError('directory too large');
        throw new ConverterError(
          'too-many-entries',
          `This ZIP file's list of its files is larger than ${describeBytes(MAX_DIRECTORY_BYTES)}. ${EXPORT_LESS}`,
        );
      }
      base = found.start;
      end = await read(source, base, size - base);
    }
    entries = readZipDirectory(end, base);
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    const head = await read(source, 0, 2);
    if (head[0] !== 0x50 || head[1] !== 0x4b) {
      throw new ConverterError('not-a-zip', MESSAGES.notAZipInside);
    }
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
  if (entries.length > maxEntries) throw tooManyFiles(maxEntries);
  return entries;
}
