import {
  strToU8,
  Zip,
  ZipDeflate,
  ZipPassThrough,
  type AsyncFlateStreamHandler,
  type FlateError,
  type ZipInputFile,
} from 'fflate';

/**
 * One file to put in a ZIP: its name inside the archive and its content (text is written as
 * UTF-8), whole or as pieces of text made as they are pulled (a KML's placemarks), so the file's
 * whole text never exists.
 */
export interface ZipInput {
  fileName: string;
  data: string | Uint8Array | Iterable<string>;
  /**
   * The data is compressed already (a KMZ is itself a ZIP): copied as it is, in DEFLATE's stored
   * blocks (level 0). DEFLATE gains nothing on it and costs the most time on such bytes (a
   * "Download all" of 100,000 places as KMZ spent about a fifth of its time deflating them
   * again). Not as a ZIP "stored" entry: fflate streams every entry with its sizes after its data
   * (a data descriptor), which readers that go through a ZIP from its start (Java's and Android's
   * `ZipInputStream`) refuse for a stored entry ("only DEFLATED entries can have EXT descriptor").
   */
  stored?: boolean;
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
 * still compresses about sixfold. The level of every synchronous ZIP and KMZ (`buildKmz`, and the
 * CLI's KMZ, deflated by Node's zlib at this level), and of {@link zipFilesAsync} where the platform
 * has no CompressionStream. Where it has one (the page's worker), its native DEFLATE runs at zlib's
 * default, level 6, and is both faster and smaller than fflate at level 1 (see `zipFilesAsync`).
 */
export const ZIP_LEVEL: DeflateLevel = 1;

/**
 * A file's content in the slices it is pushed in, each with whether it is the last: text as UTF-8,
 * never splitting a surrogate pair, so its encoded copy never exists whole next to the text; bytes
 * as views, so the compressor never copies a whole big file; pieces of text gathered into slices as
 * they are pulled. Lazy, so a file's pieces are made only as fast as they are compressed.
 */
function* slicesOf(data: ZipInput['data']): Generator<[slice: Uint8Array, final: boolean]> {
  if (typeof data !== 'string' && !(data instanceof Uint8Array)) return yield* pieceSlices(data);
  if (data.length === 0) yield [new Uint8Array(0), true];
  for (let start = 0; start < data.length;) {
    let end = Math.min(data.length, start + SLICE);
    if (typeof data === 'string' && end < data.length && isHighSurrogate(data, end - 1)) end -= 1;
    const slice =
      typeof data === 'string' ? strToU8(data.slice(start, end)) : data.subarray(start, end);
    yield [slice, end === data.length];
    start = end;
  }
}

const isHighSurrogate = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff;
};

/**
 * {@link slicesOf} for text in pieces: gathered until a slice's worth, then encoded; a pair of
 * surrogates cut between two pieces is kept together.
 */
function* pieceSlices(pieces: Iterable<string>): Generator<[slice: Uint8Array, final: boolean]> {
  let text = '';
  for (const piece of pieces) {
    text += piece;
    if (text.length < SLICE) continue;
    const carry = isHighSurrogate(text, text.length - 1) ? 1 : 0;
    yield [strToU8(text.slice(0, text.length - carry)), false];
    text = text.slice(text.length - carry);
  }
  yield [strToU8(text), true];
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
 * What {@link zipFiles} and {@link zipFilesAsync} share: fflate's `Zip` with its chunks collected and
 * its first error kept, each file added as an entry named once, dated and marked as a Unix file.
 */
class ZipWriter {
  readonly #chunks: Uint8Array[] = [];
  #failure: Error | undefined;
  readonly #zip = new Zip((error, chunk) => {
    if (error) this.#failure ??= error;
    else this.#chunks.push(chunk);
  });
  readonly #modified: Date;

  /** @throws RangeError for a date a ZIP cannot hold. */
  // By default midnight, 1 January 1980 local time, the first date a ZIP can hold.
  constructor(modified = new Date(1980, 0, 1)) {
    const year = modified.getFullYear();
    if (!(year >= 1980 && year <= 2099)) {
      throw new RangeError(
        `A ZIP entry date must be between 1980 and 2099, got ${String(modified)}`,
      );
    }
    this.#modified = modified;
  }

  /**
   * Adds each file as an entry made by `open` and yields it with the file's data, to be pushed before
   * the loop goes on: the next file is pulled only then, so one file's content exists at a time.
   */
  *entries<E extends ZipInputFile>(
    files: Iterable<ZipInput>,
    open: (name: string, data: ZipInput['data']) => E,
  ): Generator<[entry: E | ZipDeflate, data: ZipInput['data']]> {
    const unique = uniqueNames();
    for (const file of files) {
      const name = unique(file.fileName);
      const { data } = file;
      const entry = file.stored ? new ZipDeflate(name, { level: 0 }) : open(name, data);
      entry.mtime = this.#modified;
      // Made on Unix, a plain rw-r--r-- file: with fflate's default (MS-DOS), Info-ZIP's unzip
      // reads names through a DOS code page even when flagged UTF-8, garbling "東京 🍜.kml".
      entry.os = UNIX;
      entry.attrs = REGULAR_FILE;
      this.#zip.add(entry);
      yield [entry, data];
    }
  }

  /** Throws the first error fflate reported (a name over 64 KB, a failed compressor). */
  check(): void {
    if (this.#failure) throw this.#failure;
  }

  /** Writes the central directory and returns the whole ZIP's chunks. */
  end(): Uint8Array[] {
    this.#zip.end();
    this.check();
    return this.#chunks;
  }

  /** Stops every entry's compressor, after an error. */
  terminate(): void {
    this.#zip.terminate();
  }
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
  const level = options.level ?? ZIP_LEVEL;
  const writer = new ZipWriter(options.modified);
  for (const [entry, data] of writer.entries(files, (name) => new ZipDeflate(name, { level }))) {
    // With ZipDeflate (not AsyncZipDeflate) fflate calls back synchronously, during push and end.
    for (const [slice, final] of slicesOf(data)) entry.push(slice, final);
    writer.check();
  }
  return writer.end();
}

/**
 * The platform's DEFLATE compressor as `CompressionStream` is built (browsers, Web Workers, Node 18
 * and later): `new CompressionStream('deflate-raw')` takes bytes on its writable side and gives raw
 * DEFLATE on its readable side.
 */
export type DeflateRawStreamConstructor = new (format: 'deflate-raw') => {
  readonly readable: ReadableStream<Uint8Array<ArrayBuffer>>;
  readonly writable: WritableStream<Uint8Array<ArrayBuffer>>;
};

/** Options of {@link zipFilesAsync}. */
export interface ZipAsyncOptions {
  /** The modification time of every entry, as in {@link ZipOptions.modified}. */
  modified?: Date;
  /**
   * The platform's compressor, `globalThis.CompressionStream` (core reads no platform globals, so the
   * caller hands it in). Without one, or with one that refuses 'deflate-raw' (Chrome before 103,
   * Safari before 16.4), every entry is compressed by fflate at {@link ZIP_LEVEL}, as by
   * {@link zipFiles}.
   */
  CompressionStream?: DeflateRawStreamConstructor | undefined;
}

/**
 * The general purpose flag's compression option (APPNOTE 4.4.4, bits 1 and 2) of an entry that the
 * platform compressed: 0, "normal". CompressionStream takes no level: Chromium and Node call zlib at
 * its default, level 6, which fflate's own flag for level 6 also calls normal.
 */
const NATIVE_FLAG = 0;

const ignore = () => {};

/**
 * A ZIP entry compressed by the platform (`CompressionStream('deflate-raw')`), in native code rather
 * than in JavaScript. fflate's `Zip` takes any entry with a name, `compression` and `flag`, that hands
 * its compressed bytes to `ondata` whenever they come (as its own `AsyncZipDeflate` does), with `size`
 * and `crc` of the uncompressed bytes set by the last. A `ZipPassThrough` inside counts those (fflate
 * exports no CRC of its own) and hands each slice on to the compressor. Inside, not extended: the CLI's
 * bundle gives fflate's classes as functions that load fflate on first use, and they cannot be extended.
 */
class NativeZipDeflate implements ZipInputFile {
  readonly compression = 8; // DEFLATE
  readonly flag = NATIVE_FLAG;
  size = 0;
  crc = 0;
  /** Where compressed bytes go: set by fflate's `Zip.add` (as the date and attributes are by ZipWriter). */
  ondata?: AsyncFlateStreamHandler;
  /**
   * Settles once the entry's last compressed bytes, or its compressor's error, went to the ZIP. It
   * never rejects: an error reaches the ZIP's callback, which {@link ZipWriter.check} throws.
   */
  readonly finished: Promise<void>;
  readonly #counter: ZipPassThrough;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array<ArrayBuffer>>;

  constructor(
    readonly filename: string,
    Stream: DeflateRawStreamConstructor,
  ) {
    const stream = new Stream('deflate-raw');
    this.#writer = stream.writable.getWriter();
    this.#counter = new ZipPassThrough(filename);
    // A failed write or close errors the readable side too, where #forward reports it; the writable
    // side's error reaches `write` through `ready`.
    this.#counter.ondata = (_error, slice, final) => {
      this.#writer.write(slice).catch(ignore);
      if (final) this.#writer.close().catch(ignore);
    };
    this.finished = this.#forward(stream.readable.getReader());
  }

  /**
   * Pushes a slice once the compressor has taken the one before, so at most a slice waits in it and
   * the slices of a big file (or of a whole run) are never all queued at once.
   */
  async write(slice: Uint8Array, final: boolean): Promise<void> {
    await this.#writer.ready;
    this.#counter.push(slice, final);
  }

  /** Called by fflate's `Zip.terminate` when another entry failed, or by {@link ZipWriter.terminate}. */
  terminate(): void {
    this.#writer.abort().catch(ignore);
  }

  async #forward(reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>): Promise<void> {
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        this.ondata!(null, read.value, false);
      }
      this.size = this.#counter.size;
      this.crc = this.#counter.crc;
      this.ondata!(null, new Uint8Array(0), true);
    } catch (error) {
      const failure =
        error instanceof Error ? error : new Error(`DEFLATE failed: ${String(error)}`);
      this.ondata!(failure as FlateError, new Uint8Array(0), true);
    }
  }
}

/**
 * Whether a file is under one slice (64 K characters of text, 64 KB of bytes). fflate compresses
 * such a file sooner than the platform's stream, whose every entry costs a stream and a few turns
 * of the event loop: in Node,
 * 300 KML files of 10 KB zip in 78 ms with fflate and 118 ms natively; from about 60 KB on, native
 * DEFLATE's speed wins. Text in pieces (a list's whole KML) is never small.
 */
function isSmall(data: ZipInput['data']): boolean {
  return (typeof data === 'string' || data instanceof Uint8Array) && data.length < SLICE;
}

/** What {@link makesDeflateRaw} found of each compressor: asked once, not once per KMZ. */
const takesDeflateRaw = new WeakMap<DeflateRawStreamConstructor, boolean>();

/** Whether the platform's compressor makes raw DEFLATE; older ones throw a TypeError for the format. */
function makesDeflateRaw(Stream: DeflateRawStreamConstructor): boolean {
  let takes = takesDeflateRaw.get(Stream);
  if (takes === undefined) {
    try {
      new Stream('deflate-raw');
      takes = true;
    } catch {
      takes = false;
    }
    takesDeflateRaw.set(Stream, takes);
  }
  return takes;
}

/**
 * {@link zipFiles} compressed by the platform's DEFLATE (`CompressionStream`) when the caller passes
 * it, with the same entries, names, dates and attributes, pulling one file at a time as well: each
 * file's slices wait for the compressor, so only one file's content exists at a time and the ZIP holds
 * only compressed bytes. Files under 64 KB go to fflate at {@link ZIP_LEVEL}, which is quicker for
 * them ({@link isSmall}). Without a compressor that makes 'deflate-raw' it is {@link zipFiles}.
 *
 * Chosen over fflate by measurement (`pnpm bench`, 100,000 placed places, 50 KML files of 34.2 MB,
 * fresh processes, median of 5, Node 20 on 2 cores): the ZIP of every KML takes 866 ms and 4.81 MB
 * with Node's CompressionStream against 1,089 ms and 5.75 MB with fflate at level 1, so it is both
 * faster and 16% smaller. DEFLATE alone on the same text is 330 ms for zlib at level 6 against 560 ms
 * for fflate at level 1; the rest of either ZIP, about 400 ms, is writing the KML, encoding it and its
 * CRC, which the compressor cannot speed up, so the whole is a fifth faster, not several times.
 *
 * @throws (rejects with) RangeError for a `modified` date a ZIP cannot hold; fflate's error for a
 * name over 64 KB; the compressor's error if it fails.
 */
export async function zipFilesAsync(
  files: Iterable<ZipInput>,
  options: ZipAsyncOptions = {},
): Promise<Uint8Array[]> {
  const Stream = options.CompressionStream;
  if (!Stream || !makesDeflateRaw(Stream)) return zipFiles(files, { modified: options.modified });
  const writer = new ZipWriter(options.modified);
  try {
    for (const [entry, data] of writer.entries(files, (name, data) =>
      isSmall(data)
        ? new ZipDeflate(name, { level: ZIP_LEVEL })
        : new NativeZipDeflate(name, Stream),
    )) {
      if (entry instanceof NativeZipDeflate) {
        for (const [slice, final] of slicesOf(data)) await entry.write(slice, final);
        await entry.finished;
      } else {
        // Stored (compressed already) or small: fflate takes it synchronously, as in zipFiles.
        for (const [slice, final] of slicesOf(data)) entry.push(slice, final);
      }
      writer.check();
    }
  } catch (error) {
    writer.terminate();
    throw error;
  }
  return writer.end();
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
