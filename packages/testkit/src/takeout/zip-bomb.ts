import { crc32 } from 'node:zlib';
import { Deflate, deflateSync, Zip, type AsyncFlateStreamHandler, type ZipInputFile } from 'fflate';
import { fixedMtime } from './archive.js';
import { crc32Combine, crc32Repeat } from './crc32.js';

/** The one entry of a zip bomb: a list the product would find and try to read. */
export const ZIP_BOMB_PATH = 'Takeout/Saved/Bomb.csv';

const HEADER = 'Title,Note,URL,Comment\n';
const ROW = 'Dropped pin,,https://www.google.com/maps/search/48.858370,2.294481,\n';

/** The smallest bomb: just the header row. */
export const MIN_ZIP_BOMB_BYTES = HEADER.length;

/** The largest size a ZIP without ZIP64 can state (0xFFFFFFFF means "see ZIP64"). */
export const MAX_ZIP_BOMB_BYTES = 0xffff_fffe;

/** After the header, the content repeats chunks of this many bytes: whole rows, then blank lines. */
export const ZIP_BOMB_CHUNK_BYTES = 1 << 20;

/** DEFLATE method number in ZIP headers. */
const DEFLATE_METHOD = 8;

/** `bytes` bytes of whole rows, padded with blank lines: every line stays a valid CSV line. */
function rowsThenBlankLines(bytes: number): Uint8Array {
  const rows = Math.floor(bytes / ROW.length);
  return new TextEncoder().encode(ROW.repeat(rows) + '\n'.repeat(bytes - rows * ROW.length));
}

/**
 * Compresses `data` on its own into byte-aligned, non-final DEFLATE blocks (a sync flush). Such a
 * segment never refers to bytes before it, so copies of it can be concatenated.
 */
function standaloneSegment(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out: Uint8Array[] = [];
  const deflate = new Deflate({ level: 9 }, (chunk) => out.push(chunk));
  deflate.push(data);
  deflate.flush(true);
  return concat(out);
}

/** A ZIP entry fed with DEFLATE data we compressed ourselves, with CRC and size set by us. */
class PrecompressedEntry implements ZipInputFile {
  readonly filename = ZIP_BOMB_PATH;
  readonly compression = DEFLATE_METHOD;
  readonly mtime = fixedMtime();
  size = 0;
  crc = 0;
  ondata?: AsyncFlateStreamHandler;

  /** Hands one compressed segment to the archive, which it then holds by reference. */
  write(compressed: Uint8Array<ArrayBuffer>, final: boolean): void {
    this.ondata?.(null, compressed, final);
  }
}

/**
 * A ZIP with one CSV entry of exactly `uncompressedBytes` (the header, one dropped-pin row
 * repeated, blank lines to pad) that deflates to about 1/300 of that; its central directory
 * states the full size, so an extractor can refuse it before inflating. One chunk of content is
 * compressed once, its bytes repeated and its CRC combined, so any size takes milliseconds and the
 * content never exists in memory. Throws `RangeError` outside [{@link MIN_ZIP_BOMB_BYTES},
 * {@link MAX_ZIP_BOMB_BYTES}].
 */
export function makeZipBomb(uncompressedBytes: number): Uint8Array {
  if (
    !Number.isSafeInteger(uncompressedBytes) ||
    uncompressedBytes < MIN_ZIP_BOMB_BYTES ||
    uncompressedBytes > MAX_ZIP_BOMB_BYTES
  ) {
    throw new RangeError(
      `zip bomb size must be an integer in [${MIN_ZIP_BOMB_BYTES}, ${MAX_ZIP_BOMB_BYTES}], got ${uncompressedBytes}`,
    );
  }
  const header = new TextEncoder().encode(HEADER);
  const chunk = rowsThenBlankLines(ZIP_BOMB_CHUNK_BYTES);
  const body = uncompressedBytes - header.length;
  const repeats = Math.floor(body / chunk.length);
  const tail = rowsThenBlankLines(body % chunk.length);

  const entry = new PrecompressedEntry();
  entry.size = uncompressedBytes;
  const repeated = crc32Repeat(crc32(chunk), chunk.length, repeats);
  const headerAndChunks = crc32Combine(crc32(header), repeated, chunk.length * repeats);
  entry.crc = crc32Combine(headerAndChunks, crc32(tail), tail.length);

  const parts: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    parts.push(data);
  });
  zip.add(entry);
  entry.write(standaloneSegment(header), false);
  const compressedChunk = standaloneSegment(chunk);
  for (let i = 0; i < repeats; i++) entry.write(compressedChunk, false);
  entry.write(deflateSync(tail, { level: 9 }), true);
  zip.end();
  return concat(parts);
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
