/**
 * Node's own zlib for the lists in an archive: the converter's default inflate is fflate's pure
 * JavaScript (the browser's only choice), which takes about three times as long on a cold start.
 */
import { inflateRawSync } from 'node:zlib';
import type { Inflate } from '@placeport/converter';

/**
 * Inflates raw DEFLATE into one buffer of the size the archive's directory declares: never more
 * (zlib stops with an error past `maxOutputLength`, so a lying directory cannot unpack a bomb), and
 * one chunk a byte longer than that, so the output is neither gathered from 16 KB pieces nor, as a
 * chunk filled to the last byte makes zlib do, followed by a second chunk of the same size.
 */
export const zlibInflate: Inflate = (compressed, size) =>
  inflateRawSync(compressed, { maxOutputLength: size, chunkSize: Math.max(64, size + 1) });
