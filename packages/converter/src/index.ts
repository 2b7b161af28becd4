/**
 * `@placeport/converter`: turns a Google Takeout archive of saved places (saved lists and starred
 * places) into map files: KML for Google My Maps, KMZ, GPX 1.1, GeoJSON and CSV with coordinates.
 * Pure and framework-free: the same code runs in Node, in a browser and in a Web Worker
 * (`@placeport/converter/worker`). See the README for usage.
 *
 * This entry is the stable API; `@placeport/converter/internal` is PlacePort's own and may change.
 * @packageDocumentation
 */

// Reading and converting whole archives.
export {
  inspectArchive,
  inspectCsv,
  convertArchive,
  listFiles,
  runFiles,
  zipRun,
  zipFileName,
  type ArchiveInspection,
  type ReadOptions,
  type ConvertArchiveOptions,
  type ConvertedArchive,
} from './library.js';
export type { InspectedList } from './inspect.js';
export type { Inflate } from './core/archive.js';
export type { ConversionOptions } from './pipeline.js';

// Writers, each pure: places in, file content out.
export { buildKml, type MappedPlace } from './core/kml.js';
export { buildKmz } from './core/formats/kmz.js';
export { buildGpx } from './core/formats/gpx.js';
export { buildGeoJson } from './core/formats/geojson.js';
export { buildCoordinatesCsv } from './core/formats/coordinates-csv.js';
export { buildFailedCsv } from './core/failed-csv.js';
export {
  OUTPUT_FORMATS,
  FORMAT_INFO,
  isOutputFormat,
  splitEvenly,
  writeListFiles,
  type OutputFormat,
  type OutputFile,
  type OutputPart,
  type ListMeta,
} from './core/formats/output.js';
export { zipFiles } from './core/formats/zip.js';

// Reading single lists.
export { parseSavedPlacesCsv, type ParsedCsv } from './core/csv.js';
export { parseSavedPlacesJson } from './core/saved-places-json.js';

// Lookups: what a custom resolver receives and answers.
export {
  isDeadline,
  ResolveRequestError,
  type ResolveUrls,
  type ResolveAnswer,
  type Logger,
  type ConversionProgress,
  type ConversionStage,
} from './core/seams.js';
export { extractCoordinates, resolvedUrlFor } from './core/coordinates.js';

// Errors, reasons, limits and the data types above.
export { ConverterError, MESSAGES, type ConverterErrorCode } from './core/errors.js';
export {
  REASON_TEXT,
  LOOKUP_FAILURES,
  type LookupFailure,
  type UnplacedReason,
} from './core/reasons.js';
export { LIMITS, type Limits } from './core/limits.js';
export type {
  LatLng,
  ParsedPlace,
  ListKind,
  ListSummary,
  ListIdentity,
  ConversionStats,
  ConversionResult,
} from './core/types.js';
