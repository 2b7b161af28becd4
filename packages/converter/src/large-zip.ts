/**
 * A Takeout archive too large to read whole at ease (past {@link WHOLE_READ_BYTES}, 64 MB): most
 * often a part of an export of the whole account (Takeout splits one into parts of 2 GB by default,
 * up to 50 GB, ZIP64 past 4 GB), of which only the lists matter. It is read by random access from a
 * {@link RangeSource} (a `File`'s slices in the page's worker, a file handle in the CLI): its
 * directory from its end, then only the entries the list rules look at ({@link Repack}), copied as
 * they are compressed into a ZIP in memory that `inspectArchive` reads as a Takeout ZIP. So such a
 * part converts at once, instead of the person being sent to export again (which Google takes hours
 * or days to prepare), and a phone never holds a whole-account export in memory. As the copies are
 * unpacked by `inspectArchive` itself, a list that fails to unpack, or is packed by a method it
 * cannot unpack, is answered exactly as in the ZIP read whole.
 *
 * {@link Repack} also serves the CLI's other inputs that are not a ZIP (a `.tgz`, an unzipped
 * folder): whatever they come from, the lists are chosen, limited and named as in the ZIP.
 */
import {
  entryInterest,
  isCsvPath,
  isInSavedFolder,
  looksLikeStarredStart,
} from './core/archive.js';
import { ConverterError, MESSAGES } from './core/errors.js';
import { joinChunks, zipFiles, type ZipInput } from './core/formats/zip.js';
import { describeBytes, LIMITS, type Limits } from './core/limits.js';
import { STARRED_SNIFF_BYTES } from './core/saved-places-json.js';
import {
  canUnpack,
  peekZipEntry,
  readZipDirectory,
  zipDirectoryOffset,
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
 * archive. Takeout's export of "Saved" and "Maps (your places)" alone is far smaller.
 */
export const WHOLE_READ_BYTES = 64 * 1024 * 1024;

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
 * How an entry is read when it is wanted ({@link Repack.wanted}): `whole` (a CSV), or judged first
 * by its first {@link STARRED_SNIFF_BYTES} bytes and kept only when they pass (another `.json`).
 */
export type Wanted = 'whole' | ((head: Uint8Array) => boolean);

/**
 * The entries kept of an export, and the checks on what is seen: every entry counts against
 * `maxEntries`; a CSV is kept whole, a `.json` only when its start looks like the starred places
 * (`entryInterest`), and the bytes kept (unpacked, or as compressed when copied from a ZIP) are
 * bounded by `maxCsvBytes`. Once a CSV inside a "Saved" folder is seen, CSVs elsewhere are no
 * lists (`choosePlaceLists`): those kept are let go and no more are kept, so another product's CSVs
 * in an export of the whole account count against the lists' limit only until "Saved" is reached.
 */
export class Repack {
  private readonly kept: Array<{ path: string; bytes: Uint8Array; packed?: ZipInput['packed'] }> =
    [];
  private keptBytes = 0;
  private seen = 0;
  private savedSeen = false;

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
   * undefined when it is not read at all. A CSV is wanted whole, and past what may still be kept it
   * refuses the export (it may be a list); another JSON only when its start says it is the starred
   * places (`looksLikeStarredStart`) and it is no larger than a list may be.
   */
  wanted(path: string, size: number, isFile: boolean): Wanted | undefined {
    const interest = isFile ? entryInterest(path) : undefined;
    if (interest === 'whole') {
      if (isCsvPath(path)) {
        const inSaved = isInSavedFolder(path);
        if (this.savedSeen && !inSaved) return undefined;
        if (inSaved && !this.savedSeen) this.letGoOutsideSaved();
      }
      if (size > this.limits.maxCsvBytes - this.keptBytes) throw this.tooLarge();
      return 'whole';
    }
    return interest === 'start' && size <= this.limits.maxCsvBytes
      ? looksLikeStarredStart
      : undefined;
  }

  /**
   * Keeps a wanted entry's bytes: unpacked, or as they were compressed in a ZIP (`packed`, copied
   * as they are); past `maxCsvBytes` in all, refuses the export.
   */
  keep(path: string, bytes: Uint8Array, packed?: ZipInput['packed']): void {
    this.keptBytes += bytes.length;
    if (this.keptBytes > this.limits.maxCsvBytes) throw this.tooLarge();
    this.kept.push(packed ? { path, bytes, packed } : { path, bytes });
  }

  /** From the first CSV inside "Saved" on: the CSVs kept from elsewhere are no lists. */
  private letGoOutsideSaved(): void {
    this.savedSeen = true;
    for (let at = this.kept.length - 1; at >= 0; at -= 1) {
      const { path, bytes } = this.kept[at]!;
      if (isCsvPath(path) && !isInSavedFolder(path)) {
        this.keptBytes -= bytes.length;
        this.kept.splice(at, 1);
      }
    }
  }

  /** How many entries were kept. */
  get size(): number {
    return this.kept.length;
  }

  /** The entries kept, in the order they were found, as a ZIP: stored, or copied as compressed. */
  zip(): Uint8Array {
    return joinChunks(
      zipFiles(
        this.kept.map(({ path, bytes, packed }) =>
          packed
            ? { fileName: path, data: bytes, packed }
            : { fileName: path, data: bytes, stored: true },
        ),
      ),
    );
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
  /** By default the lists' limit of {@link LIMITS} and at most {@link MAX_PART_ENTRIES} entries. */
  limits?: Pick<Limits, 'maxEntries' | 'maxCsvBytes'>;
}

/** What is read from the end first: the end-of-directory record and the longest comment. */
const TAIL_BYTES = 65_558 + 20;

/** Compressed bytes read to judge a `.json` file by its start (JSON deflates several times over). */
const PEEK_COMPRESSED_BYTES = 64 * 1024;

/**
 * The most bytes a directory is read in: far more than 50,000 entries (`maxEntries`) with long
 * names take, so a directory that claims more is a damaged one.
 */
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;

/**
 * The lists and starred places of the ZIP `source`, copied as they are compressed into a ZIP for
 * `inspectArchive`, which unpacks them. When the directory holds a CSV inside a "Saved" folder,
 * only the CSVs there are read, as only they can be lists (`choosePlaceLists`); otherwise every
 * CSV, as the rules that choose among them read them. Throws ConverterError: `not-a-zip` /
 * `incomplete-zip` as a ZIP read whole would (no directory at its end: not a ZIP, or a download cut
 * short); `incomplete-zip` for an entry read whose header or data is missing, or whose declared
 * sizes cannot be; the limits of {@link Repack} (what is kept is counted as compressed: the lists'
 * own limit, as unpacked, is `inspectArchive`'s); and whatever `source.read` throws as a
 * ConverterError.
 */
export async function readLargeZip(
  source: RangeSource,
  options: LargeZipOptions = {},
): Promise<Uint8Array> {
  const entries = await directoryOf(source);
  const limits = options.limits ?? {
    maxEntries: MAX_PART_ENTRIES,
    maxCsvBytes: LIMITS.maxCsvBytes,
  };
  const repack = new Repack('archive', limits);
  const isListCsv = (entry: ZipEntry) =>
    isCsvPath(entry.name) && entryInterest(entry.name) === 'whole';
  const savedOnly = entries.some((entry) => isListCsv(entry) && isInSavedFolder(entry.name));
  for (const entry of entries) {
    repack.count();
    if (savedOnly && isListCsv(entry) && !isInSavedFolder(entry.name)) continue;
    // DEFLATE adds a few bytes a block to what it cannot shrink: a directory that declares more
    // compressed bytes than that for a CSV is damaged, and said so (rather than past a limit).
    if (
      canUnpack(entry) &&
      entry.size > entry.originalSize + entry.originalSize / 100 + 1024 &&
      entryInterest(entry.name) === 'whole'
    ) {
      throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
    }
    const wanted = repack.wanted(entry.name, entry.size, true);
    // A JSON that cannot be unpacked, or larger than a list may be, is not the starred places.
    if (
      wanted === undefined ||
      (wanted !== 'whole' && (!canUnpack(entry) || entry.originalSize > limits.maxCsvBytes))
    ) {
      continue;
    }
    const bytes = await readEntry(source, entry, wanted);
    if (bytes !== undefined) {
      const { compression, crc, originalSize } = entry;
      repack.keep(entry.name, bytes, { compression, crc, originalSize });
    }
  }
  return repack.zip();
}

/** The ZIP's directory, read from its end: what a ZIP read whole would say when there is none. */
async function directoryOf(source: RangeSource): Promise<ZipEntry[]> {
  const { size } = source;
  try {
    let base = Math.max(0, size - TAIL_BYTES);
    let end = await source.read(base, size - base);
    // The directory (and a ZIP64 record) lies before the tail: read from where it starts.
    for (let start = zipDirectoryOffset(end, base); start < base;) {
      if (start < 0 || size - start > MAX_DIRECTORY_BYTES) {
        throw new RangeError('directory too large');
      }
      base = start;
      end = await source.read(base, size - base);
      start = zipDirectoryOffset(end, base);
    }
    return readZipDirectory(end, base);
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    const head = await source.read(0, 2);
    if (head[0] !== 0x50 || head[1] !== 0x4b) {
      throw new ConverterError('not-a-zip', MESSAGES.notAZipInside);
    }
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
}

/**
 * An entry's data as it is compressed; when `wanted` judges it, only when it passes the entry's
 * first {@link STARRED_SNIFF_BYTES} (unpacked from at most {@link PEEK_COMPRESSED_BYTES} of its
 * compressed bytes), else undefined.
 */
async function readEntry(
  source: RangeSource,
  entry: ZipEntry,
  wanted: Wanted,
): Promise<Uint8Array | undefined> {
  try {
    const header = await source.read(entry.localOffset, 30);
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (header.length < 30 || view.getUint32(0, true) !== 0x04034b50) {
      throw new RangeError('ZIP entry header missing');
    }
    const start = entry.localOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
    if (wanted !== 'whole') {
      // Its start, as a little ZIP of its own (its header without name or extra field, then
      // its data): the directory's readers take it so.
      const data = await source.read(start, Math.min(entry.size, PEEK_COMPRESSED_BYTES));
      const peek = new Uint8Array(30 + data.length);
      peek.set(header.subarray(0, 26));
      peek.set(data, 30);
      let head: Uint8Array;
      try {
        head = peekZipEntry(
          peek,
          { ...entry, localOffset: 0, size: data.length },
          STARRED_SNIFF_BYTES,
        );
      } catch {
        head = new Uint8Array(0);
      }
      if (!wanted(head)) return undefined;
    }
    const data = await source.read(start, entry.size);
    if (data.length < entry.size) throw new RangeError('ZIP entry cut short');
    return data;
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
}
