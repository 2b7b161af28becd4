/**
 * Google Takeout delivers an export as a `.zip` or, when the person chooses that file type, as a
 * `.tgz` (a gzipped tar). The CLI reads both: a tar is read as a stream, only the entries the
 * converter's list rules look at are kept (the converter's `Repack`) and read by
 * `inspectZipContents` as a ZIP's stored entries. So every rule of a Takeout ZIP (which files are
 * lists, the starred places, the limits, the messages) holds for a `.tgz` unchanged.
 *
 * A tar has no directory to read first, so the whole file is unpacked on the way, photos and all,
 * though only the lists are kept: a `.tgz` part of an export of the whole account (2 GB by default,
 * up to 50 GB) is read through in seconds to minutes, its progress shown. What is unpacked is bounded
 * ({@link maxTarBytesFor}), as are the entries counted (`MAX_PART_ENTRIES`) and the bytes kept
 * (the converter's `maxCsvBytes`).
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ConverterError, LIMITS, type Limits } from '@placeport/converter';
import {
  describeBytes,
  EXPORT_LESS,
  MAX_PART_BYTES,
  MAX_PART_ENTRIES,
  Repack,
  STARRED_SNIFF_BYTES,
  type Wanted,
  type ZipContents,
} from '@placeport/converter/internal';

/**
 * The fewest bytes a tar may always hold once ungzipped: 2 GiB, whatever the file's size
 * ({@link maxTarBytesFor}).
 */
export const MAX_TAR_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * How many times its own size a `.tgz` may unpack to. Takeout's parts are mostly photos and videos,
 * which gzip does not shrink; its JSON (Location History, several GB in some accounts) shrinks about
 * tenfold. A gzip bomb of a few MB can hold terabytes of zeros: past this it is refused as it is
 * read, so the time spent reading follows the file's size, not what it claims to hold.
 */
export const MAX_TAR_GROWTH = 16;

/** The most bytes a tar file of `size` bytes may unpack to. */
export function maxTarBytesFor(size: number): number {
  return Math.max(MAX_TAR_BYTES, MAX_TAR_GROWTH * size);
}

/** How much of the file is read, and ungzipped, at a time. */
const PIECE_BYTES = 1024 * 1024;

/** How a tar is wrapped: gzipped (`.tgz`, `.tar.gz`, what Takeout gives) or plain (`.tar`). */
export type TarKind = 'tgz' | 'tar';

/** The kind of tar a file's name says it is; undefined for any other file. */
export function tarKindOf(file: string): TarKind | undefined {
  if (/\.(?:tgz|tar\.gz)$/i.test(file)) return 'tgz';
  return /\.tar$/i.test(file) ? 'tar' : undefined;
}

/**
 * Refuses a tar file (`kind`, as its name says) of `size` bytes past the largest Takeout part
 * (`MAX_PART_BYTES`), before it is read.
 */
export function checkTarSize(size: number, kind: TarKind): void {
  if (size > MAX_PART_BYTES) {
    throw new ConverterError(
      'archive-too-large',
      `This ${tarName(kind)} file is larger than ${MAX_PART_BYTES / 1024 ** 3} GB, more than a Google Takeout part holds. ${EXPORT_LESS}`,
    );
  }
}

/** Options of {@link readTarLists}; tests pass smaller limits. */
export interface TarOptions {
  /** By default the lists' limit of `LIMITS` and at most `MAX_PART_ENTRIES` entries. */
  limits?: Pick<Limits, 'maxEntries' | 'maxCsvBytes'>;
  /** By default {@link maxTarBytesFor} the file's size. */
  maxTarBytes?: number;
  /** Told the bytes of the file read so far, as they are read, and the file's size. */
  onRead?: (read: number, size: number) => void;
  /** Stops the read: it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Reads the tar at `file` and returns the entries the converter looks at, to be read by
 * `inspectZipContents` as a Takeout ZIP is. `kind` is what the file's name
 * says, for the messages; the file is read as what its first bytes are. Throws ConverterError:
 * `not-a-zip` when it is neither gzip nor a tar; `incomplete-zip` when it ends early or is damaged
 * (a download cut short); `archive-too-large` past {@link maxTarBytesFor} unpacked or past
 * `maxCsvBytes` kept; `too-many-entries` past `maxEntries`; and rejects with `signal`'s reason
 * when it is aborted.
 */
export async function readTarLists(
  file: string,
  kind: TarKind,
  options: TarOptions = {},
): Promise<ZipContents> {
  const limits = options.limits ?? {
    maxEntries: MAX_PART_ENTRIES,
    maxCsvBytes: LIMITS.maxCsvBytes,
  };
  const wrapping = await wrappingOf(file);
  if (wrapping === undefined) throw notATar(kind);
  // Loaded here, so a run of a ZIP (most runs) never reads the tar reader's module.
  const { createTarDecoder } = await import('modern-tar');
  const size = (await stat(file)).size;
  const maxTarBytes = options.maxTarBytes ?? maxTarBytesFor(size);
  const { onRead, signal } = options;
  signal?.throwIfAborted();
  // Node's zlib, in megabyte pieces: the web DecompressionStream read a 200 MB .tgz seven times
  // slower. `pipeline` hands an error of either stream (an abort too) on to the last, so it ends
  // the read; each stream is in a pipeline as soon as it is made, so no error goes unheard.
  const source = createReadStream(file, {
    highWaterMark: PIECE_BYTES,
    ...(signal ? { signal } : {}),
  });
  const read = onRead ? pipeline(source, counting(size, onRead), () => {}) : source;
  const bytes =
    wrapping === 'tgz' ? pipeline(read, createGunzip({ chunkSize: PIECE_BYTES }), () => {}) : read;
  onRead?.(0, size);
  const entries = (Readable.toWeb(bytes) as ReadableStream<Uint8Array>)
    .pipeThrough(byteCap(maxTarBytes))
    .pipeThrough(createTarDecoder({ strict: true }));
  const repack = new Repack('archive', limits);
  try {
    for await (const entry of entries) {
      repack.count();
      const path = pathOf(entry.header.name);
      if (entry.header.type === 'link') {
        await readBody(entry.body, undefined);
        keepHardLink(repack, path, entry.header.linkname);
        continue;
      }
      const wanted = repack.wanted(path, entry.header.size, entry.header.type === 'file');
      // Every body is read to its end, kept or not (see readBody).
      const bytes = await readBody(entry.body, wanted);
      if (bytes !== undefined) repack.keep(path, bytes);
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw tarError(error, kind);
  }
  return repack.contents();
}

/** A member's path as a ZIP's would be: without the `./` tar writes before it. */
const pathOf = (name: string) => name.replace(/^(?:\.\/)+/, '');

/**
 * A hard link (`tar` writes one for a file it was given twice, by another name) kept as the bytes
 * of the file it names, when that file was kept and the link's path is wanted as the file's would be.
 */
function keepHardLink(repack: Repack, path: string, linkname: string | undefined): void {
  const target = linkname === undefined ? undefined : repack.keptAt(pathOf(linkname));
  if (target === undefined) return;
  const wanted = repack.wanted(path, target.length, true);
  if (wanted === 'whole' || (wanted !== undefined && wanted(target))) repack.keep(path, target);
}

/** The start of a tar ("ustar" at byte 257, POSIX and GNU alike) and of gzip. */
const USTAR = Buffer.from('ustar');
const GZIP = Buffer.from([0x1f, 0x8b]);

/**
 * What a file's first bytes say it is, whatever its name says: a ZIP (a local header, or the end
 * record of an empty one), gzip (Takeout's `.tgz`), a plain tar (a browser or a download manager
 * may have ungzipped a `.tgz` and kept its name), or none of them (undefined).
 */
export async function archiveKindOf(file: string): Promise<'zip' | TarKind | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const signature = bytesRead >= 4 ? head.readUInt32LE(0) : 0;
    if (signature === 0x04034b50 || signature === 0x06054b50) return 'zip';
    if (bytesRead >= 2 && head.subarray(0, 2).equals(GZIP)) return 'tgz';
    return bytesRead === 512 && head.subarray(257, 262).equals(USTAR) ? 'tar' : undefined;
  } finally {
    await handle.close();
  }
}

/** How the file really is wrapped: gzip, a plain tar, or neither (undefined; a ZIP is neither). */
async function wrappingOf(file: string): Promise<TarKind | undefined> {
  const kind = await archiveKindOf(file);
  return kind === 'zip' ? undefined : kind;
}

/** What a tar of `kind` is called in messages: `.tgz` or `.tar`. */
export function tarName(kind: TarKind): string {
  return kind === 'tgz' ? '.tgz' : '.tar';
}

function notATar(kind: TarKind): ConverterError {
  return new ConverterError(
    'not-a-zip',
    `This file is not a ${tarName(kind)} archive. Choose the file you downloaded from Google Takeout (its name starts with "takeout-").`,
  );
}

/**
 * A body read to its end, and kept when it is wanted: whole, or when `wanted` judges it, if it
 * passes its first {@link STARRED_SNIFF_BYTES} bytes (or all of it, if shorter); else undefined. A body not kept is still read
 * through, never cancelled: modern-tar 0.8.6 leaves a later body's read waiting forever when the
 * archive turns out to be cut short after an earlier body was cancelled (the tests cut a `.tgz` at
 * every few hundred bytes), and a tar's bytes must be read past anyway to reach the next entry.
 */
async function readBody(
  body: ReadableStream<Uint8Array>,
  wanted: Wanted | undefined,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  let parts: Uint8Array[] | undefined = wanted === undefined ? undefined : [];
  let judge = wanted === 'whole' ? undefined : wanted;
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (parts && !done) {
      parts.push(value);
      length += value.length;
    }
    if (parts && judge && (done || length >= STARRED_SNIFF_BYTES)) {
      if (!judge(Buffer.concat(parts, length))) parts = undefined;
      judge = undefined;
    }
    if (done) return parts && Buffer.concat(parts, length);
  }
}

/** Passes the file's bytes on, telling `onRead` how many have gone through of `size`. */
function counting(size: number, onRead: NonNullable<TarOptions['onRead']>): Transform {
  let read = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      onRead(read, size);
      done(null, chunk);
    },
  });
}

/** Passes bytes on until more than `max` have gone through, then fails the stream. */
function byteCap(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.length;
      if (seen > max) {
        controller.error(
          new ConverterError(
            'archive-too-large',
            `This archive unpacks to more than ${describeBytes(max)}. ${EXPORT_LESS}`,
          ),
        );
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/**
 * What a failure while reading a tar means to the person: our own refusals as they are; any other
 * (gzip or tar ending early, damaged bytes, a tar header that fails its checksum) as a download
 * cut short, since the file did start as a tar or as gzip ({@link wrappingOf}).
 */
function tarError(error: unknown, kind: TarKind): ConverterError {
  if (error instanceof ConverterError) return error;
  return new ConverterError(
    'incomplete-zip',
    `This file is not a complete ${tarName(kind)} archive. Download it again from Google Takeout.`,
  );
}
