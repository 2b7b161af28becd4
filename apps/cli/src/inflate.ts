/**
 * Node's own zlib for the lists in an archive: the converter's default inflate is fflate's pure
 * JavaScript (the browser's only choice), which takes about three times as long on a cold start.
 */
import * as zlib from 'node:zlib';
import type { Inflate, ReadOptions } from '@placeport/converter';

const { inflateRawSync } = zlib;

/**
 * Inflates raw DEFLATE into one buffer of the size the archive's directory declares: never more
 * (zlib stops with an error past `maxOutputLength`, so a lying directory cannot unpack a bomb), and
 * one chunk a byte longer than that, so the output is neither gathered from 16 KB pieces nor, as a
 * chunk filled to the last byte makes zlib do, followed by a second chunk of the same size.
 */
export const zlibInflate: Inflate = (compressed, size) =>
  inflateRawSync(compressed, { maxOutputLength: size, chunkSize: Math.max(64, size + 1) });

/**
 * zlib's CRC-32, native (Node 20.15 and later), for the check of each list's bytes against the
 * archive's: the converter's own, in JavaScript, takes about 2 ms a MB. Undefined on an older Node,
 * which then uses the converter's.
 */
export const zlibCrc32: ReadOptions['crc32'] =
  typeof (zlib as Partial<typeof zlib>).crc32 === 'function'
    ? (data) => zlib.crc32(data)
    : undefined;

/**
 * Smallest buffer {@link releaseBytes} frees. Node's `Buffer` pool (8 KB, shared by every small
 * buffer of the process) can be transferred too, and must never be: buffers this small are left to
 * the garbage collector, which is all they cost anyway.
 */
export const RELEASE_MIN_BYTES = 64 * 1024;

/**
 * Frees the memory under `bytes` at once, for buffers this process made and no one reads again
 * (the archive once read, each list once parsed). Left alone, a buffer read for longer than a few
 * young collections moves to V8's old generation and is freed only by a full collection, which a
 * run may not make before it ends: at 50,000 places the archive and its lists' text were ~10 MB of
 * the run's peak (issue 19). `structuredClone` with `transfer` moves the memory, without copying,
 * into a new buffer that is dropped at once, and V8 frees a young buffer at its next young
 * collection; `bytes` is left empty. A buffer that cannot be transferred is left as it is.
 */
export function releaseBytes(bytes: Uint8Array): void {
  const { buffer } = bytes;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < RELEASE_MIN_BYTES) return;
  try {
    structuredClone(buffer, { transfer: [buffer] });
  } catch {
    // Not transferable (already detached, or marked so by its maker): the collector frees it.
  }
}
