import type { MappedPlace } from '../kml.js';
import { writtenDegrees } from '../latlng.js';
import { cleanText, describedWithLink, isWebLink, placeName } from './place-text.js';

/** What {@link buildGeoJson} needs of a list: written as the collection's `name` and `description`. */
export interface GeoJsonList {
  name: string;
  description?: string;
}

/** The properties every feature carries, all of them always present so GIS tools see one schema. */
export interface PlaceProperties {
  /** The place's name (`placeName`: cleaned, trimmed, "Dropped pin" when empty). */
  name: string;
  /** The note and comment, `''` when absent. */
  note: string;
  comment: string;
  /** The tag names, `[]` when none. */
  tags: string[];
  /**
   * The place's Google Maps URL as exported, `''` when absent or not http(s): a `javascript:` or
   * `data:` URL is offered by no format (a viewer may make this property a link).
   */
  url: string;
  /**
   * The note, comment, tags and link as one text (`describedWithLink`), `''` when none: the
   * property Organic Maps, geojson.io and uMap show, which read none of the fields above.
   */
  description: string;
}

function feature(place: MappedPlace): string {
  // Degrees as JSON numbers rounded to 7 decimals (about 1 cm), like every other format writes them.
  const { lat, lng } = writtenDegrees(place.coordinates);
  const properties: PlaceProperties = {
    name: placeName(place.title),
    note: cleanText(place.note),
    comment: cleanText(place.comment),
    tags: place.tags ? place.tags.map(cleanText) : [],
    url: isWebLink(place.url) ? cleanText(place.url) : '',
    description: describedWithLink(place),
  };
  return JSON.stringify({
    type: 'Feature',
    geometry: {
      type: 'Point',
      coordinates: [Number(lng), Number(lat)],
    },
    properties,
  });
}

/**
 * An RFC 7946 FeatureCollection of Point features, `[longitude, latitude]` as the RFC orders them,
 * with the list's name and description as foreign members. Text is cleaned as in every format
 * (`cleanText`), so no lone surrogate reaches the file and its UTF-8 encoding is exact. One
 * `JSON.stringify` per feature, joined once: fast enough for 100,000 places, and one feature per line.
 */
export function buildGeoJson(places: readonly MappedPlace[], list?: GeoJsonList): string {
  let head = '{"type":"FeatureCollection"';
  if (list) head += `,"name":${JSON.stringify(cleanText(list.name))}`;
  if (list?.description) head += `,"description":${JSON.stringify(cleanText(list.description))}`;
  const pieces = new Array<string>(places.length);
  for (let i = 0; i < places.length; i += 1) pieces[i] = feature(places[i]!);
  return `${head},"features":[\n${pieces.join(',\n')}\n]}\n`;
}
