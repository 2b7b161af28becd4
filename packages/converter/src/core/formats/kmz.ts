import { joinChunks, zipFiles, type ZipOptions } from './zip.js';

/** The name of the KML inside a KMZ: Google Earth and My Maps read the first `.kml` entry, `doc.kml` by convention. */
export const KMZ_ENTRY_NAME = 'doc.kml';

/**
 * A KMZ: a ZIP whose single, deflated entry `doc.kml` is the given KML (product.md "Outputs"), whole
 * or in pieces as `kmlChunks` makes them (its whole text then never exists). KML compresses about
 * tenfold, which matters for My Maps' import size limit. Deterministic: the entry's date is
 * `options.modified`, 1 January 1980 by default (see `zipFiles`).
 */
export function buildKmz(kml: string | Iterable<string>, options: ZipOptions = {}): Uint8Array {
  return joinChunks(zipFiles([{ fileName: KMZ_ENTRY_NAME, data: kml }], options));
}
