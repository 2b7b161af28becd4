/**
 * Reading a ZIP's central directory ourselves (as fflate's `unzipSync` reads it, ZIP64 included),
 * so each entry's compressed bytes can be handed to whichever {@link Inflate} the caller chose:
 * fflate's by default (the browser and the worker), or Node's native zlib, which inflates the same
 * bytes in about a third of the time.
 */
import { Inflate as StreamingInflate, inflateSync } from 'fflate';
import { crc32 } from './crc32.js';

/** One entry of the directory: where its data is and what it unpacks to (as declared). */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 DEFLATE; anything else cannot be read. */
  compression: number;
  /** Compressed size. */
  size: number;
  /** Uncompressed size, as the directory declares it. */
  originalSize: number;
  /** Offset of the entry's local header. */
  localOffset: number;
  /** The CRC-32 of its bytes, as the directory declares it (none for an entry made in memory). */
  crc?: number;
  /** Protected with a password (flag bit 0, ZipCrypto or AES): its bytes cannot be read. */
  encrypted?: true;
}

/**
 * Inflates one entry's raw DEFLATE data. `size` is what the directory declares it unpacks to: the
 * result must never be longer (a lying directory must not unpack a bomb), and may be shorter.
 * Throws when the data is not valid DEFLATE.
 */
export type Inflate = (compressed: Uint8Array, size: number) => Uint8Array;

/** Computes the CRC-32 of some bytes (zlib's `crc32` in Node; {@link crc32} in JavaScript). */
export type Crc32 = (data: Uint8Array) => number;

/** fflate's inflate into a buffer of the declared size: the default, pure JavaScript, as the browser runs it. */
export const fflateInflate: Inflate = (compressed, size) =>
  inflateSync(compressed, { out: new Uint8Array(size) });

const u16 = (d: Uint8Array, at: number) => d[at]! | (d[at + 1]! << 8);
const u32 = (d: Uint8Array, at: number) =>
  (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) >>> 0;
const u64 = (d: Uint8Array, at: number) => u32(d, at) + u32(d, at + 4) * 2 ** 32;

const MAX_U32 = 0xffffffff;
const utf8 = new TextDecoder();
/** UTF-8 that refuses bytes that are not: a name whose flag is clear may be UTF-8 or not. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Code page 437's characters for the bytes 0x80-0xFF (below that it is ASCII). */
const CP437_HIGH =
  '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5' +
  '\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192' +
  '\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb' +
  '\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510' +
  '\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567' +
  '\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580' +
  '\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229' +
  '\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0';

/**
 * An entry's name. With the language-encoding flag (bit 11) set it is UTF-8. Without it the ZIP
 * specification says code page 437, but many tools (Info-ZIP, Python's zipfile for some names,
 * archives zipped again) write UTF-8 without setting the flag: a name that is valid UTF-8 is read
 * as UTF-8 (code page 437 text is almost never valid UTF-8), any other as code page 437. Never as
 * Latin-1, which turned UTF-8 bytes into invisible C1 control characters in list and file names.
 */
function entryName(bytes: Uint8Array, isUtf8: boolean): string {
  if (isUtf8) return utf8.decode(bytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let name = '';
    for (const byte of bytes) {
      name += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80]!;
    }
    return name;
  }
}

/** The sizes and offset a ZIP64 extra field (id 1) holds for the fields marked 0xFFFFFFFF. */
function zip64Values(
  d: Uint8Array,
  start: number,
  length: number,
  values: [size: number, originalSize: number, offset: number],
): [number, number, number] {
  const [size, originalSize, offset] = values;
  const wide = [originalSize === MAX_U32, size === MAX_U32, offset === MAX_U32];
  if (!wide.some(Boolean)) return values;
  for (let at = start; at + 4 <= start + length; at += 4 + u16(d, at + 2)) {
    if (u16(d, at) !== 1) continue;
    let field = at + 4;
    const next = () => {
      const value = u64(d, field);
      field += 8;
      return value;
    };
    const original = wide[0] ? next() : originalSize;
    const compressed = wide[1] ? next() : size;
    return [compressed, original, wide[2] ? next() : offset];
  }
  throw new RangeError('ZIP64 sizes missing');
}

/**
 * Where the directory of the ZIP whose end is `d` (from offset `base` of the file) starts, and how
 * many entries it holds, from the end-of-directory record (ZIP64's when there is one). When the
 * ZIP64 record itself lies before `d`, `zip64End` is where it is: read from there and ask again.
 */
function locateDirectory(
  d: Uint8Array,
  base: number,
): { count: number; at: number; zip64End?: number } {
  if (!Number.isSafeInteger(d.length)) throw new RangeError('not bytes: no length to read');
  let end = d.length - 22;
  for (; end < 0 || u32(d, end) !== 0x06054b50; end -= 1) {
    if (end <= 0 || d.length - end > 65558) throw new RangeError('no ZIP directory');
  }
  const plain = { count: u16(d, end + 10), at: u32(d, end + 16) };
  if (end < 20 || u32(d, end - 20) !== 0x07064b50) return plain;
  const zip64End = u64(d, end - 12);
  if (zip64End < base) return { ...plain, zip64End };
  if (u32(d, zip64End - base) !== 0x06064b50) return plain;
  return { count: u64(d, zip64End - base + 32), at: u64(d, zip64End - base + 48) };
}

/**
 * Where a ZIP's directory starts in the file, and how many entries it declares, from the file's
 * last bytes `d` (at least the last 65,558, or all of a smaller file) read from offset `base`: how
 * much of a file too large to read whole must be read for {@link readZipDirectory}. When a ZIP64
 * record lies before `d`, `start` is where that record is and the count is not known yet: read
 * from there and ask again. Throws as {@link readZipDirectory} does when there is no directory.
 */
export function zipDirectoryExtent(d: Uint8Array, base: number): { start: number; count?: number } {
  const { at, count, zip64End } = locateDirectory(d, base);
  return zip64End === undefined ? { start: at, count } : { start: zip64End };
}

/**
 * The entries of a ZIP, in directory order, without inflating anything. Throws (a RangeError or
 * the like) when the directory at the end of the file is missing or cut short, and at once when
 * `d` has no length to scan back from (an `ArrayBuffer` passed as if it were bytes): the scan
 * below ends only on integer bounds. `d` is the whole file, or (a file too large to read whole:
 * the CLI's Takeout parts of several GB) its end from offset `base` of the file on, which must
 * hold the directory; the entries' offsets are the file's either way.
 */
export function readZipDirectory(d: Uint8Array, base = 0): ZipEntry[] {
  const found = locateDirectory(d, base);
  const { count } = found;
  let at = found.at - base;
  if (found.zip64End !== undefined || at < 0) {
    throw new RangeError('ZIP directory before the bytes given');
  }
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > d.length || u32(d, at) !== 0x02014b50) throw new RangeError('ZIP directory cut');
    const nameLength = u16(d, at + 28);
    const extraLength = u16(d, at + 30);
    const nameStart = at + 46;
    if (nameStart + nameLength > d.length) throw new RangeError('ZIP directory cut');
    const [size, originalSize, localOffset] = zip64Values(d, nameStart + nameLength, extraLength, [
      u32(d, at + 20),
      u32(d, at + 24),
      u32(d, at + 42),
    ]);
    const flags = u16(d, at + 8);
    entries.push({
      name: entryName(d.subarray(nameStart, nameStart + nameLength), (flags & 0x800) !== 0),
      compression: u16(d, at + 10),
      size,
      originalSize,
      localOffset,
      crc: u32(d, at + 16),
      ...((flags & 1) !== 0 ? { encrypted: true as const } : {}),
    });
    at = nameStart + nameLength + extraLength + u16(d, at + 32);
  }
  return entries;
}

/**
 * Whether an entry's data can be unpacked: stored (0) or DEFLATE (8), what Takeout writes, and
 * not protected with a password.
 */
export function canUnpack(entry: ZipEntry): boolean {
  return !entry.encrypted && (entry.compression === 0 || entry.compression === 8);
}

/**
 * An entry's bytes, unpacked by `inflate` (a stored entry is copied). Throws when its local header
 * is missing, its data is cut short or not valid DEFLATE, or its compression is neither.
 */
export function readZipEntry(
  d: Uint8Array,
  entry: ZipEntry,
  inflate: Inflate,
  check: Crc32 = crc32,
): Uint8Array {
  return unpackZipData(entryData(d, entry), entry, inflate, check);
}

/**
 * An entry's bytes from its `data` as stored (`ZipContents.data`), unpacked by `inflate` (a stored
 * entry is copied) and checked against the CRC-32 the directory declares (by `check`). Throws when
 * the data is not valid DEFLATE, the compression is neither, or the bytes are not the ones the
 * archive was made with (a damaged download or disk: one changed digit of a pin is a wrong pin,
 * and DEFLATE itself often unpacks damaged data without a word).
 */
export function unpackZipData(
  data: Uint8Array,
  entry: ZipEntry,
  inflate: Inflate,
  check: Crc32 = crc32,
): Uint8Array {
  let bytes: Uint8Array;
  if (entry.compression === 0) bytes = data.slice(0, entry.originalSize);
  else if (entry.compression === 8) {
    bytes = entry.originalSize === 0 ? new Uint8Array(0) : inflate(data, entry.originalSize);
  } else throw new RangeError(`unknown compression type ${entry.compression}`);
  if (entry.crc !== undefined && check(bytes) !== entry.crc) {
    throw new RangeError('its bytes do not match the check sum the archive holds for them');
  }
  return bytes;
}

/** An entry's data as stored (compressed or not); throws when its local header or data is missing. */
function entryData(d: Uint8Array, entry: ZipEntry): Uint8Array {
  const start = entryDataStart(d, entry, 0, d.length);
  return d.subarray(start, start + entry.size);
}

/**
 * Where an entry's data starts in a file of `fileSize` bytes, from `d`, the file's bytes from
 * offset `base` on, which hold at least the entry's local header (its 30 bytes, its name and extra
 * field). Throws a RangeError, as a ZIP read whole says it, when the header is missing
 * (`ZIP entry header missing`) or the data runs past the file's end (`ZIP entry cut short`).
 */
export function entryDataStart(
  d: Uint8Array,
  entry: ZipEntry,
  base: number,
  fileSize: number,
): number {
  const local = entry.localOffset - base;
  if (entry.localOffset + 30 > fileSize || local < 0 || local + 30 > d.length) {
    throw new RangeError(HEADER_MISSING);
  }
  if (u32(d, local) !== 0x04034b50) throw new RangeError(HEADER_MISSING);
  const start = entry.localOffset + 30 + u16(d, local + 26) + u16(d, local + 28);
  if (start + entry.size > fileSize) throw new RangeError('ZIP entry cut short');
  return start - base;
}

const HEADER_MISSING = 'ZIP entry header missing';

/** Bytes an entry's local header takes: its fixed part, its name and extra field (`entryDataStart`). */
export function localHeaderLength(header: Uint8Array): number {
  return header.length < 30 ? 30 : 30 + u16(header, 26) + u16(header, 28);
}

/**
 * Compressed bytes handed to the streaming inflate at a time by {@link peekZipEntry}: small, so a
 * crafted entry (DEFLATE unpacks up to about 1,000 times) makes at most about half a megabyte
 * before the peek stops.
 */
const PEEK_STEP = 512;

/**
 * The first `length` bytes of an entry (fewer when it is shorter), inflating only as much as that
 * takes: how a file is told by its content without unpacking all of it. Throws as
 * {@link readZipEntry} does.
 */
export function peekZipEntry(d: Uint8Array, entry: ZipEntry, length: number): Uint8Array {
  return peekZipData(entryData(d, entry), entry, length);
}

/**
 * {@link peekZipEntry} from the entry's `data` as stored, or from its start only (enough of it to
 * unpack `length` bytes).
 */
export function peekZipData(data: Uint8Array, entry: ZipEntry, length: number): Uint8Array {
  const wanted = Math.min(length, entry.originalSize);
  if (entry.compression === 0) return data.subarray(0, wanted);
  if (entry.compression !== 8)
    throw new RangeError(`unknown compression type ${entry.compression}`);
  const out = new Uint8Array(wanted);
  let filled = 0;
  const stream = new StreamingInflate((chunk) => {
    const taken = Math.min(chunk.length, wanted - filled);
    out.set(chunk.subarray(0, taken), filled);
    filled += taken;
  });
  for (let at = 0; at < data.length && filled < wanted; at += PEEK_STEP) {
    stream.push(data.subarray(at, at + PEEK_STEP), at + PEEK_STEP >= data.length);
  }
  return out.subarray(0, filled);
}

/**
 * A ZIP's entries and their data as stored: the whole file in memory ({@link zipContentsOf}), or
 * what was read of a file too large to read whole (the converter's `readLargeZip`). Either answers
 * as the whole file does: the same entries, the same data, the same errors.
 */
export interface ZipContents {
  /** The directory's entries, in its order. */
  readonly entries: readonly ZipEntry[];
  /**
   * An entry's data as stored; throws a RangeError when its local header is missing or its data
   * runs past the file's end, as {@link readZipEntry} does.
   */
  data(entry: ZipEntry): Uint8Array;
  /**
   * The first `length` bytes an entry unpacks to (fewer when it is shorter), as
   * {@link peekZipEntry}; throws as it does.
   */
  head(entry: ZipEntry, length: number): Uint8Array;
}

/** The contents of the ZIP whose whole file is `d`; throws as {@link readZipDirectory} does. */
export function zipContentsOf(d: Uint8Array): ZipContents {
  return {
    entries: readZipDirectory(d),
    data: (entry) => entryData(d, entry),
    head: (entry, length) => peekZipEntry(d, entry, length),
  };
}
