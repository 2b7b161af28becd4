/**
 * fflate as the CLI's bundle sees it (`build.mjs` points the converter's `fflate` here): the same
 * functions and classes, with fflate's own module run only when one is first used. fflate builds its
 * Huffman tables as its module runs, which cost every run ~6 ms of CPU (issue 19), while a run
 * inflates with Node's zlib (`inflate.ts`) and needs fflate only for a KMZ's ZIP container (its
 * DEFLATE is zlib's too, `zip-deflate.ts`). Only what the
 * converter imports is here (and in `fflate-parts.ts`): a name it starts to import fails the build,
 * never a run.
 */
import type * as Fflate from 'fflate';

let loaded: typeof Fflate | undefined;

/**
 * fflate itself, run on first call. esbuild bundles `fflate-parts.ts`, which this `require`s, as a
 * function it calls here, not when the bundle loads (see `build.mjs`).
 */
function fflate(): typeof Fflate {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundled require is what runs fflate lazily
  return (loaded ??= require('./fflate-parts.js') as typeof Fflate);
}

export const inflateSync = ((data: Uint8Array, opts?: Fflate.InflateOptions) =>
  fflate().inflateSync(data, opts)) as typeof Fflate.inflateSync;

export const strToU8: typeof Fflate.strToU8 = (text, latin1) => fflate().strToU8(text, latin1);

/** `new Zip(...)` makes fflate's own Zip: a constructor that returns an object gives that object. */
export const Zip = function Zip(callback?: Fflate.AsyncFlateStreamHandler) {
  return new (fflate().Zip)(callback);
} as unknown as typeof Fflate.Zip;

/**
 * `new ZipPassThrough(...)` makes fflate's own: the converter's stored entries (a KMZ inside a ZIP),
 * and the CRC and size of entries compressed by a CompressionStream.
 */
export const ZipPassThrough = function ZipPassThrough(filename: string) {
  return new (fflate().ZipPassThrough)(filename);
} as unknown as typeof Fflate.ZipPassThrough;

/**
 * Node's zlib in fflate's place for a ZIP entry's DEFLATE (`zip-deflate.ts`): the same level and
 * the same entry, written several times faster.
 */
export { ZipDeflate } from './zip-deflate.js';

/** `new Inflate(...)` makes fflate's own streaming Inflate (the converter's ZIP directory reads it). */
export const Inflate = function Inflate(
  opts?: Fflate.InflateStreamOptions | Fflate.FlateStreamHandler,
  callback?: Fflate.FlateStreamHandler,
) {
  // fflate reads a function first argument as the callback, as its own overloads do.
  return new (fflate().Inflate)(opts as Fflate.InflateStreamOptions, callback);
} as unknown as typeof Fflate.Inflate;
