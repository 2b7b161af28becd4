export { generateTakeout, DEFAULT_LISTS } from './generate.js';
export {
  coordinatesForCid,
  coordinatesForFtid,
  MAX_GENERATED_LATITUDE,
  type LatLng,
} from './coordinates.js';
export { csvField, csvRow } from './csv.js';
export { HEADER_ROWS } from './csv-file.js';
export { SAVED_FOLDER } from './list.js';
export { ARCHIVE_BROWSER_PATH, NON_PLACE_LIST_NAMES, SAVED_PLACES_JSON_PATH } from './non-place.js';
export {
  makeZipBomb,
  MAX_ZIP_BOMB_BYTES,
  MIN_ZIP_BOMB_BYTES,
  ZIP_BOMB_CHUNK_BYTES,
  ZIP_BOMB_PATH,
} from './zip-bomb.js';
export type {
  GeneratedList,
  GeneratedPlace,
  GeneratedTakeout,
  GenerateTakeoutOptions,
  GeneratedSavedPlace,
  GeneratedSavedPlaces,
  HeaderVariant,
  ListSpec,
  PlaceKind,
  PlaceListKind,
  SavedPlacesJsonFormat,
  SavedPlacesJsonPlace,
  SavedPlaceUrlKind,
} from './types.js';
export { s2CellIdFor, s2LevelOf } from './s2.js';
export {
  generateSavedPlacesJson,
  NO_LOCATION_COMMENT,
  SAVED_PLACES_ZERO_CHANCE,
  savedPlacesJson,
} from './saved-places-json.js';
export { SPARSE_PART_HOLE, writeSparseZip64Part } from './zip64-part.js';
export { withCompression, withDamagedData, zipRecords, type ZipRecord } from './zip-records.js';
