/**
 * Everything the converter has, for PlacePort's own apps (web, CLI, resolver). Not a stable API:
 * other projects use the package's main entry (`@placeport/converter`), which is.
 */
export * from './core/types.js';
export * from './core/reasons.js';
export * from './core/errors.js';
export * from './core/limits.js';
export * from './core/latlng.js';
export * from './core/coordinates.js';
export * from './core/place-ids.js';
export * from './core/s2.js';
export * from './core/google-domains.js';
export * from './core/allowlist.js';
export * from './core/link-need.js';
export * from './core/names.js';
export * from './core/archive.js';
export * from './core/csv.js';
export * from './core/xml.js';
export * from './core/kml.js';
export * from './core/failed-csv.js';
export * from './inspect.js';
export * from './pipeline.js';
export * from './core/saved-places-json.js';
export * from './core/formats/output.js';
export * from './core/formats/gpx.js';
export * from './core/formats/geojson.js';
export * from './core/formats/coordinates-csv.js';
export * from './core/formats/kmz.js';
export * from './core/formats/zip.js';
export * from './library.js';
export * from './retry.js';
