/**
 * fflate's `ZipDeflate` with Node's zlib doing the compressing, for the CLI's KMZ (`lazy-fflate.ts`
 * hands it to the converter's `zipFiles` in place of fflate's own). fflate's DEFLATE is JavaScript,
 * the browser's only choice, and most of a KMZ run's time: at 50,000 places, about 0.5 s of a 1 s
 * run, against about 70 ms for zlib at the same level and a similar size (issue 19).
 *
 * fflate's `Zip` takes any entry that has a name, `compression` (8, DEFLATE), `flag` (the level's
 * bits of the general purpose flag) and, by the last chunk it hands on, `size` and `crc` of the
 * uncompressed bytes, and that passes its compressed bytes to `ondata` as they are made. Bytes are
 * gathered up to {@link DEFLATE_SLICE} and compressed with a sync flush, so the entry's compressed
 * stream is a run of independent pieces, each ending on a byte boundary and the last one final:
 * one valid DEFLATE stream, which never needs a whole file's bytes at once.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { AsyncFlateStreamHandler, DeflateOptions, FlateError } from 'fflate';

/**
 * Uncompressed bytes compressed at a time. Each piece starts with an empty dictionary, so smaller
 * pieces compress a little worse: 64 KB pieces made a 50,000-place KMZ 3% bigger than one piece, a
 * megabyte's the same size to within 0.2%.
 */
export const DEFLATE_SLICE = 1024 * 1024;

/** The general purpose flag's bits 1–2 for a DEFLATE level, as fflate writes them (APPNOTE 4.4.4). */
function levelFlag(level: number): number {
  if (level === 1) return 3; // super fast
  if (level < 6) return 2; // fast
  return level === 9 ? 1 : 0; // maximum, normal
}

/** fflate's level when none is given: 6, zlib's too. */
const DEFAULT_LEVEL = 6;

export class ZipDeflate {
  /** DEFLATE. */
  readonly compression = 8;
  readonly flag: number;
  /** Uncompressed bytes so far, then in all. */
  size = 0;
  /** CRC-32 of the uncompressed bytes so far, then of all. */
  crc = 0;
  /** Where compressed bytes go: set by fflate's `Zip.add`. */
  ondata?: AsyncFlateStreamHandler;
  // Set by the caller before `Zip.add`, read by fflate's `Zip` into the entry's headers.
  mtime?: Date;
  os?: number;
  attrs?: number;
  private readonly level: DeflateOptions['level'];
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(
    readonly filename: string,
    options: DeflateOptions = {},
  ) {
    this.level = options.level ?? DEFAULT_LEVEL;
    this.flag = levelFlag(this.level);
  }

  /** Takes the next uncompressed bytes; `final` with the last (which may be empty). */
  push(chunk: Uint8Array, final = false): void {
    if (!this.ondata) throw new Error('A ZIP entry was written before it was added to a ZIP');
    this.crc = crc32(chunk, this.crc);
    this.size += chunk.length;
    // Kept as it is until compressed: the converter's `zipFiles` never reuses a chunk's memory.
    if (chunk.length > 0) this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (final || this.pendingBytes >= DEFLATE_SLICE) this.compress(final);
  }

  private compress(final: boolean): void {
    const bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let compressed: Buffer;
    try {
      compressed = deflateRawSync(bytes, {
        level: this.level,
        finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
      });
    } catch (error) {
      // fflate's `Zip` hands an entry's error on as it is (its own have a numeric `code`).
      this.ondata!(error as FlateError, new Uint8Array(0), final);
      return;
    }
    // zlib's output is a Buffer of its own (never shared memory).
    this.ondata!(null, compressed as Uint8Array<ArrayBuffer>, final);
  }
}
