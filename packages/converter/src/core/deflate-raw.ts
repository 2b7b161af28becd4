/**
 * The platform's raw DEFLATE streams, as `CompressionStream` and `DecompressionStream` are built
 * (browsers, Web Workers, Node 18 and later): `new Stream('deflate-raw')` takes bytes on its writable
 * side and gives them compressed (or inflated) on its readable side, in native code. Core code reads
 * no platform globals: callers hand the constructors in.
 */
export type DeflateRawStreamConstructor = new (format: 'deflate-raw') => {
  readonly readable: ReadableStream<Uint8Array<ArrayBuffer>>;
  readonly writable: WritableStream<Uint8Array<ArrayBuffer>>;
};

/**
 * Whether the platform's stream takes raw DEFLATE: older ones (Chrome before 103, Safari before
 * 16.4, Firefox before 113) throw a TypeError for the format.
 */
export function makesDeflateRaw(Stream: DeflateRawStreamConstructor | undefined): boolean {
  if (!Stream) return false;
  try {
    new Stream('deflate-raw');
    return true;
  } catch {
    return false;
  }
}
