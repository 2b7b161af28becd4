/**
 * A Takeout ZIP too large to read whole (past the converter's `maxArchiveBytes`, 512 MB): a part of
 * an export of the whole account (Takeout splits one into parts of 2 GB by default, up to 50 GB,
 * ZIP64 past 4 GB), of which only the lists matter. It is read by random access: its directory from
 * its end, then only the entries the list rules look at (`src/repack.ts`), each inflated by zlib,
 * and those are repacked as a ZIP in memory read as a Takeout ZIP is. So such a part converts at
 * once, instead of the person being sent to export again (which Google takes hours or days to
 * prepare). The page still refuses such a file: a browser tab cannot hold it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { ConverterError, LIMITS, MESSAGES, type Limits } from '@placeport/converter';
import {
  canUnpack,
  compressionName,
  entryInterest,
  peekZipEntry,
  readZipDirectory,
  readZipEntry,
  STARRED_SNIFF_BYTES,
  unsupportedCompressionMessage,
  zipDirectoryOffset,
  type ZipEntry,
} from '@placeport/converter/internal';
import { zlibInflate } from './inflate.js';
import { EXPORT_LESS, Repack } from './repack.js';

/** The largest part read: Takeout's largest part is 50 GB. */
export const MAX_PART_BYTES = 64 * 1024 ** 3;

/** What is read from the end first: the end-of-directory record and the longest comment. */
const TAIL_BYTES = 65_558 + 20;

/** Compressed bytes read to judge a `.json` file by its start (JSON deflates several times over). */
const PEEK_COMPRESSED_BYTES = 64 * 1024;

/** Refuses a ZIP of `size` bytes past {@link MAX_PART_BYTES}, before it is read. */
export function checkPartSize(size: number): void {
  if (size > MAX_PART_BYTES) {
    throw new ConverterError(
      'archive-too-large',
      `This ZIP file is larger than ${MAX_PART_BYTES / 1024 ** 3} GB, more than a Google Takeout part holds. ${EXPORT_LESS}`,
    );
  }
}

/** Options of {@link readLargeZip}; tests pass smaller limits. */
export interface LargeZipOptions {
  limits?: Pick<Limits, 'maxEntries' | 'maxCsvBytes'>;
}

/**
 * The lists and starred places of the ZIP at `file` (`size` bytes), as a ZIP that stores them, for
 * `inspectArchive`. Throws ConverterError: `not-a-zip` / `incomplete-zip` as a ZIP read whole
 * would (no directory at its end: not a ZIP, or a download cut short); `unsupported-compression`
 * for a CSV packed otherwise than stored or DEFLATE; `incomplete-zip` for an entry that cannot be
 * read or inflated; the limits of `Repack`.
 */
export async function readLargeZip(
  file: string,
  size: number,
  options: LargeZipOptions = {},
): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const entries = await directoryOf(handle, size);
    const repack = new Repack('archive', options.limits ?? LIMITS);
    for (const entry of entries) {
      repack.count();
      if (entryInterest(entry.name) === undefined) continue;
      const wanted = repack.wanted(entry.name, entry.originalSize, true);
      if (wanted === undefined) continue;
      if (!canUnpack(entry)) {
        // A JSON that cannot be unpacked is not the starred places; a CSV may be a list.
        if (entryInterest(entry.name) === 'start') continue;
        throw new ConverterError(
          'unsupported-compression',
          unsupportedCompressionMessage(compressionName(entry.compression)),
        );
      }
      // A CSV is taken whole; a JSON is judged by its start first.
      const judge = entryInterest(entry.name) === 'start' ? wanted : undefined;
      const bytes = await readEntry(handle, entry, judge);
      if (bytes !== undefined) repack.keep(entry.name, bytes);
    }
    return repack.zip();
  } finally {
    await handle.close();
  }
}

/** `length` bytes of the file from `at` (fewer at its end). */
async function readAt(handle: FileHandle, at: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, at + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}

/** The ZIP's directory, read from its end: what a ZIP read whole would say when there is none. */
async function directoryOf(handle: FileHandle, size: number): Promise<ZipEntry[]> {
  try {
    let base = Math.max(0, size - TAIL_BYTES);
    let end = await readAt(handle, base, size - base);
    // The directory (and a ZIP64 record) lies before the tail: read from where it starts.
    for (let start = zipDirectoryOffset(end, base); start < base;) {
      if (start < 0 || size - start > MAX_DIRECTORY_BYTES)
        throw new RangeError('directory too large');
      base = start;
      end = await readAt(handle, base, size - base);
      start = zipDirectoryOffset(end, base);
    }
    return readZipDirectory(end, base);
  } catch {
    const head = await readAt(handle, 0, 2);
    if (head[0] !== 0x50 || head[1] !== 0x4b)
      throw new ConverterError('not-a-zip', MESSAGES.notAZipInside);
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
}

/**
 * The most bytes a directory is read in: far more than 50,000 entries (`maxEntries`) with long
 * names take, so a directory that claims more is a damaged one.
 */
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;

/**
 * An entry's bytes, unpacked; with `wanted`, only when it passes the entry's first
 * {@link STARRED_SNIFF_BYTES} (judged from at most {@link PEEK_COMPRESSED_BYTES} of its compressed
 * bytes), else undefined.
 */
async function readEntry(
  handle: FileHandle,
  entry: ZipEntry,
  wanted: ((head: Uint8Array) => boolean) | undefined,
): Promise<Uint8Array | undefined> {
  try {
    const header = await readAt(handle, entry.localOffset, 30);
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (header.length < 30 || view.getUint32(0, true) !== 0x04034b50) {
      throw new RangeError('ZIP entry header missing');
    }
    // DEFLATE adds a few bytes a block to what it cannot shrink: a directory that declares more
    // compressed bytes than that lies, and is not read into memory.
    if (entry.size > entry.originalSize + entry.originalSize / 100 + 1024) {
      throw new RangeError('ZIP entry larger than it unpacks to');
    }
    const start = entry.localOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
    // The entry as a little ZIP of its own bytes: the converter's readers take it so.
    const local = { ...entry, localOffset: 0 };
    const sized = async (length: number) => {
      const data = await readAt(handle, start, length);
      const bytes = new Uint8Array(30 + data.length);
      bytes.set(header.subarray(0, 26));
      bytes.set(data, 30);
      return { bytes, entry: { ...local, size: data.length } };
    };
    if (wanted) {
      const peek = await sized(Math.min(entry.size, PEEK_COMPRESSED_BYTES));
      let head: Uint8Array;
      try {
        head = peekZipEntry(peek.bytes, peek.entry, STARRED_SNIFF_BYTES);
      } catch {
        head = new Uint8Array(0);
      }
      if (!wanted(head)) return undefined;
    }
    const whole = await sized(entry.size);
    return readZipEntry(whole.bytes, whole.entry, zlibInflate);
  } catch {
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
}
