import { strToU8, Zip, ZipDeflate } from 'fflate';

/**
 * One file to put in a ZIP: its name inside the archive and its content (text is written as
 * UTF-8), whole or as pieces of text made as they are pulled (a KML's placemarks), so the file's
 * whole text never exists.
 */
export interface ZipInput {
  fileName: string;
  data: string | Uint8Array | Iterable<string>;
}

/** Options of {@link zipFiles}. */
export interface ZipOptions {
  /**
   * The modification time written for every entry (read in local time, as ZIP's DOS dates are; between
   * 1980 and 2099). Core code never reads the clock, so the default is a fixed 1 January 1980 and the
   * same files always give the same bytes; pass the run's date to stamp it.
   */
  modified?: Date;
  /** The DEFLATE level (default {@link ZIP_LEVEL}); the bench compares levels with it. */
  level?: DeflateLevel;
}

/** A DEFLATE level: 0 stores, 1 is fastest, 9 squeezes hardest. */
export type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/**
 * Text is encoded this many UTF-16 units at a time (at most 192 KB of UTF-8), bytes pushed this many
 * at a time: small beside a file, and big enough that DEFLATE writes few blocks (16 K slices made
 * archives 2% bigger and a fifth slower).
 */
const SLICE = 64 * 1024;
/** "Version made by" host 3 (APPNOTE 4.4.2.2): Unix. */
const UNIX = 3;
/** External attributes of a regular file, mode 0644, in the Unix high half. */
const REGULAR_FILE = 0o100644 << 16;
/**
 * DEFLATE level 1, chosen by measurement (`pnpm bench`, 100,000 placed places, 50 KML files of
 * 34.2 MB, fresh processes, median of 3): level 1 writes KMZ in 5.75 MB in about 700 ms and the ZIP of
 * every KML in 5.75 MB in about 760 ms; level 3 in 5.57 MB, about 830 and 790 ms; level 6 (fflate's
 * and zlib's default) in 5.29 MB, about 970 ms each. Level 6 saves 8% of the size for 30% more
 * time, and the size buys nothing here: a 2,000-placemark KMZ is about 115 KB, far below My Maps'
 * import limit, and half a megabyte more on a "Download all" is nothing beside a quarter of a
 * second more of a person waiting (CPU time of the browser's worker, fflate in JavaScript). KML
 * still compresses about sixfold.
 */
export const ZIP_LEVEL: DeflateLevel = 1;

/**
 * Pushes a file into an entry a slice at a time: text as UTF-8, never splitting a surrogate pair, so
 * its encoded copy never exists whole next to the text; bytes as views, so the compressor never
 * copies a whole big file; pieces of text gathered into slices as they are pulled.
 */
function pushData(entry: ZipDeflate, data: ZipInput['data']): void {
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) return pushPieces(entry, data);
  if (data.length === 0) entry.push(new Uint8Array(0), true);
  for (let start = 0; start < data.length;) {
    let end = Math.min(data.length, start + SLICE);
    if (typeof data === 'string' && end < data.length && isHighSurrogate(data, end - 1)) end -= 1;
    const slice =
      typeof data === 'string' ? strToU8(data.slice(start, end)) : data.subarray(start, end);
    entry.push(slice, end === data.length);
    start = end;
  }
}

const isHighSurrogate = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff;
};

/**
 * {@link pushData} for text in pieces: gathered until a slice's worth, then encoded and pushed; a
 * pair of surrogates cut between two pieces is kept together.
 */
function pushPieces(entry: ZipDeflate, pieces: Iterable<string>): void {
  let text = '';
  for (const piece of pieces) {
    text += piece;
    if (text.length < SLICE) continue;
    const carry = isHighSurrogate(text, text.length - 1) ? 1 : 0;
    entry.push(strToU8(text.slice(0, text.length - carry)), false);
    text = text.slice(text.length - carry);
  }
  entry.push(strToU8(text), true);
}

/** `name (n).ext`: the number goes before the extension of the last path segment, if it has one. */
function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const slash = name.lastIndexOf('/');
  return dot > slash + 1 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/**
 * Names given once each. Names that differ only in case (or in Unicode normalisation) count as the
 * same, because Windows and macOS would unzip them onto one file.
 */
function uniqueNames(): (name: string) => string {
  const taken = new Set<string>();
  const key = (name: string) => name.normalize('NFC').toLowerCase();
  return (name) => {
    let unique = name;
    for (let n = 2; taken.has(key(unique)); n += 1) unique = numbered(name, n);
    taken.add(key(unique));
    return unique;
  };
}

/**
 * A ZIP of many files ("Download all"), streamed so a run of 100,000 places never holds two copies of
 * its files: `files` is pulled one file at a time (pass a generator that writes each file when asked),
 * each file is encoded and compressed (DEFLATE) before the next is pulled, and nothing of it is kept
 * but its compressed bytes. Returns the ZIP as chunks, in order: join them into a `Blob` or write them
 * out one after the other. Names are used as given (callers pass safe file names); a name already used
 * (ignoring case) gets ` (2)`, ` (3)`, … before its extension. Synchronous, like all CPU work in core.
 *
 * @throws RangeError for a `modified` date a ZIP cannot hold; fflate's error for a name over 64 KB.
 */
export function zipFiles(files: Iterable<ZipInput>, options: ZipOptions = {}): Uint8Array[] {
  // By default midnight, 1 January 1980 local time, the first date a ZIP can hold.
  const modified = options.modified ?? new Date(1980, 0, 1);
  const level = options.level ?? ZIP_LEVEL;
  const year = modified.getFullYear();
  if (!(year >= 1980 && year <= 2099)) {
    throw new RangeError(`A ZIP entry date must be between 1980 and 2099, got ${String(modified)}`);
  }
  const chunks: Uint8Array[] = [];
  let failure: Error | undefined;
  // With ZipDeflate (not AsyncZipDeflate) fflate calls back synchronously, during push and end.
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else chunks.push(chunk);
  });
  const unique = uniqueNames();
  for (const file of files) {
    const entry = new ZipDeflate(unique(file.fileName), { level });
    entry.mtime = modified;
    // Made on Unix, a plain rw-r--r-- file: with fflate's default (MS-DOS), Info-ZIP's unzip
    // reads names through a DOS code page even when flagged UTF-8, garbling "東京 🍜.kml".
    entry.os = UNIX;
    entry.attrs = REGULAR_FILE;
    zip.add(entry);
    pushData(entry, file.data);
    if (failure) throw failure;
  }
  zip.end();
  if (failure) throw failure;
  return chunks;
}

/** The chunks of {@link zipFiles} as one array, for small archives (a KMZ) that want a single buffer. */
export function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
