import { randomPosition, type LatLng } from './coordinates.js';
import { randomIdentity } from './ftid.js';
import { ADDRESSES, COMMENTS } from './pools.js';
import { Random, seedFrom, WeightTable } from './random.js';
import { TITLE_STYLES, titleText } from './text.js';
import type {
  GeneratedSavedPlace,
  GeneratedSavedPlaces,
  SavedPlacesJsonFormat,
  SavedPlacesJsonPlace,
  SavedPlaceUrlKind,
} from './types.js';
import { cidUrl } from './urls.js';

/** What Takeout writes as the `Comment` of a starred place it has no location for. */
export const NO_LOCATION_COMMENT = 'No location information is available for this saved place';

/** Share of generated places written at `[0, 0]`: 7 of 2,191 in a real export. */
export const SAVED_PLACES_ZERO_CHANCE = 1 / 300;

/** The random stream of {@link generateSavedPlacesJson}, apart from the lists' (0, 1, 2, …). */
const SAVED_PLACES_STREAM = 0x7fff_0001;

const DATE_BASE = Date.UTC(2019, 2, 10, 18, 20, 49);
const HOUR_MS = 3_600_000;

/** New-format URL kinds of located places; old-format files hold `?cid=` only. */
const NEW_URL_KINDS = new WeightTable<SavedPlaceUrlKind>([
  ['cid', 80],
  ['ftid', 15],
  ['latlng', 5],
]);

const ADDRESS_CHANCE = 0.8;
const COMMENT_CHANCE = 0.12;

/** Encodes `?q=` text as Google does: spaces become `+`, commas stay literal. */
function encodeQuery(text: string): string {
  return encodeURIComponent(text).replaceAll('%20', '+').replaceAll('%2C', ',');
}

function defaultUrlKind(place: SavedPlacesJsonPlace): SavedPlaceUrlKind | undefined {
  if (place.cid !== undefined) return 'cid';
  if (place.ftid !== undefined) return 'ftid';
  if (place.lat !== undefined) return 'latlng';
  return undefined;
}

/** The place's Maps URL, or '' when it has none. Throws when the URL kind lacks its data. */
function urlOf(place: SavedPlacesJsonPlace): string {
  const kind = place.urlKind ?? defaultUrlKind(place);
  switch (kind) {
    case undefined:
      return '';
    case 'cid':
      if (place.cid === undefined) throw new RangeError('a cid URL needs a cid');
      return cidUrl(place.cid);
    case 'ftid': {
      if (place.ftid === undefined) throw new RangeError('an ftid URL needs an ftid');
      const q = place.address ?? place.title;
      return `http://maps.google.com/?${q ? `q=${encodeQuery(q)}&` : ''}ftid=${place.ftid}`;
    }
    case 'latlng':
      if (place.lat === undefined || place.lng === undefined) {
        throw new RangeError('a latlng URL needs lat and lng');
      }
      return `http://maps.google.com/?q=${place.lat},${place.lng}`;
  }
}

function dateText(index: number): string {
  return new Date(DATE_BASE + index * 37 * HOUR_MS).toISOString().replace('.000', '');
}

/** The entries without undefined values; callers list keys sorted, as Takeout writes them. */
function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

function feature(
  place: SavedPlacesJsonPlace,
  index: number,
  format: SavedPlacesJsonFormat,
): object {
  if ((place.lat === undefined) !== (place.lng === undefined)) {
    throw new RangeError('give both lat and lng, or neither');
  }
  const located = place.lat !== undefined && place.lng !== undefined && !place.zero;
  const coordinates = located ? [place.lng, place.lat] : [0, 0];
  const url = urlOf(place);
  const date = dateText(index);
  const properties =
    format === 'new'
      ? defined({
          Comment: place.comment,
          date,
          google_maps_url: url || undefined,
          location:
            place.address !== undefined || place.title !== undefined
              ? defined({ address: place.address, name: place.title })
              : undefined,
        })
      : defined({
          'Google Maps URL': url || undefined,
          Location: defined({
            Address: place.address,
            'Business Name': place.title,
            'Geo Coordinates': located
              ? { Latitude: String(place.lat), Longitude: String(place.lng) }
              : undefined,
          }),
          Published: date,
          Title: place.title,
          Updated: date,
        });
  return { geometry: { coordinates, type: 'Point' }, properties, type: 'Feature' };
}

/**
 * Writes a `Saved Places.json` as Takeout does (a GeoJSON FeatureCollection, `[lng, lat]`, sorted
 * keys, two-space indent), in the old or new format. A place without coordinates, or marked `zero`,
 * is written at `[0, 0]`. Throws `RangeError` when a URL kind lacks its data or only one of lat/lng
 * is given.
 */
export function savedPlacesJson(options: {
  format: SavedPlacesJsonFormat;
  places: readonly SavedPlacesJsonPlace[];
}): string {
  const features = options.places.map((place, i) => feature(place, i, options.format));
  return `${JSON.stringify({ type: 'FeatureCollection', features }, null, 2)}\n`;
}

function latLng({ lat, lng }: LatLng): LatLng {
  return { lat, lng };
}

/** One starred place: mostly `?cid=` places with a position, rarely a dropped pin or `[0, 0]`. */
function randomSavedPlace(random: Random, format: SavedPlacesJsonFormat): GeneratedSavedPlace {
  const zero = random.chance(SAVED_PLACES_ZERO_CHANCE);
  let urlKind: SavedPlaceUrlKind = 'cid';
  if (format === 'new') {
    urlKind = zero ? random.pick(['ftid', 'latlng'] as const) : NEW_URL_KINDS.draw(random);
  }
  // Google's comment on places it has no location for; old-format files have no comments.
  const noLocation = zero && format === 'new' ? { comment: NO_LOCATION_COMMENT } : {};
  if (urlKind === 'latlng') {
    const pin = randomPosition(random);
    const place: SavedPlacesJsonPlace = {
      lat: pin.lat,
      lng: pin.lng,
      zero,
      urlKind,
      ...noLocation,
    };
    return { ...place, url: urlOf(place), expected: latLng(pin) };
  }
  const { ftid, cid, position } = randomIdentity(random);
  const place: SavedPlacesJsonPlace = {
    title: titleText(TITLE_STYLES.draw(random), random),
    lat: position.lat,
    lng: position.lng,
    cid,
    // The ftid only when the URL carries it (the CID is always its low half).
    ...(urlKind === 'ftid' ? { ftid } : {}),
    zero,
    urlKind,
    ...noLocation,
  };
  if (random.chance(ADDRESS_CHANCE)) place.address = random.pick(ADDRESSES);
  if (!zero && format === 'new' && random.chance(COMMENT_CHANCE)) {
    place.comment = random.pick(COMMENTS);
  }
  const resolvable = latLng(position);
  return { ...place, url: urlOf(place), resolvable, ...(zero ? {} : { expected: resolvable }) };
}

/**
 * A realistic `Saved Places.json` of `count` starred places, deterministic for a seed. New format:
 * mostly `?cid=` URLs, some `?q=<address>&ftid=`, a few dropped pins `?q=<lat>,<lng>`; old format:
 * `?cid=` with `Geo Coordinates`. About 1 place in 300 is at `[0, 0]` (new format: with Google's
 * {@link NO_LOCATION_COMMENT} and an ftid or `?q=<lat>,<lng>` URL). Every place with a CID lies where
 * `coordinatesForCid` says. Throws `RangeError` on a bad seed or count.
 */
export function generateSavedPlacesJson(
  seed: number,
  count: number,
  format: SavedPlacesJsonFormat,
): GeneratedSavedPlaces {
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(`count must be an integer ≥ 0, got ${count}`);
  }
  const random = new Random(seedFrom(seed, SAVED_PLACES_STREAM));
  const places = Array.from({ length: count }, () => randomSavedPlace(random, format));
  return { format, text: savedPlacesJson({ format, places }), places };
}
