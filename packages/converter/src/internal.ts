/**
 * What PlacePort's own apps (web, CLI, resolver, API tests) need beyond the main entry, by name: the
 * link rules the resolver shares with the converter, the file names the CLI writes, the retry
 * lists. Not a stable API: other projects use the package's main entry (`@placeport/converter`).
 * Names the main entry exports are not repeated here: apps import those from the main entry.
 */

// Links: which need a lookup, the allowlist, place ids, and coordinates (the resolver's rules).
export { GOOGLE_SUPPORTED_DOMAINS } from './core/google-domains.js';
export { isAllowedFetchUrl, isGooglePlaceLink, isShortLink } from './core/allowlist.js';
export { linkNeed, placeNeed, type LinkNeed } from './core/link-need.js';
export {
  cacheKeyOf,
  cidFromFtid,
  namesPlace,
  parseFtid,
  placeIdFromFtid,
  placeIdsOf,
  type PlaceIds,
} from './core/place-ids.js';
export {
  distanceMetres,
  isPlausibleForFtid,
  s2CellOfFtid,
  WEAK_EVIDENCE_MAX_METRES,
} from './core/s2.js';
export { isValidCoordinate } from './core/latlng.js';
export { distinctPins } from './core/coordinates.js';
export { describeBytes, MAX_URL_LENGTH } from './core/limits.js';
export { checkArchiveSize, entryInterest, type ListEntry, type PickLists } from './core/archive.js';
export { STARRED_SNIFF_BYTES } from './core/saved-places-json.js';
export {
  checkPartSize,
  EXPORT_LESS,
  MAX_PART_BYTES,
  MAX_PART_ENTRIES,
  PART_LIMITS,
  readLargeZip,
  readsByRanges,
  Repack,
  WHOLE_READ_BYTES,
  type RangeSource,
  type Wanted,
} from './large-zip.js';
export { decodeCsvFile, type CsvFileEncoding } from './core/csv.js';

// File names and text as the CLI writes them.
export {
  anotherPartSentence,
  DEFAULT_FILE_STEM,
  FAILED_CSV_SUFFIX,
  failedCsvFileName,
  labelledStem,
  safeFileStem,
  takeoutPartOf,
} from './core/names.js';
export { outputFileName } from './core/formats/output.js';
export { UNTITLED_PLACE_NAME } from './core/kml.js';
export { stripForbiddenXmlChars } from './core/xml.js';
export {
  inspectZipContents,
  pickLists,
  sameListName,
  unwrittenListFiles,
  type UnwrittenFile,
} from './library.js';
export type { ZipContents } from './core/zip-directory.js';

// Reasons.
export { RETRYABLE_AGAIN } from './core/reasons.js';
