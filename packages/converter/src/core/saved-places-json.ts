import * as v from 'valibot';
import type { ParsedCsv } from './csv.js';
import { ConverterError, MESSAGES } from './errors.js';
import type { PlaceCounter } from './limits.js';
import { toLatLng } from './latlng.js';
import { fileNameFromPath } from './names.js';
import type { LatLng, ParsedPlace } from './types.js';

/** The file Takeout's "Maps (your places)" writes the starred places to. */
export const SAVED_PLACES_JSON_NAME = 'Saved Places.json';

/**
 * The comment Google writes on starred places it has no location for. It is Google's, not the
 * person's, so it is dropped: the pipeline gives such places their own reason when they stay unplaced.
 */
export const NO_LOCATION_COMMENT = 'No location information is available for this saved place';

/** {@link NO_LOCATION_COMMENT} in the languages real exports show it in (English, German). */
const NO_LOCATION_COMMENTS = new Set(
  [NO_LOCATION_COMMENT, 'Für diesen gespeicherten Ort sind keine Informationen verfügbar'].map(
    (text) => text.toLowerCase(),
  ),
);

/** Rounds of dropping invalid fields before a feature is given up as empty. */
const MAX_REPAIR_ROUNDS = 8;

/** True for a path whose file name is `Saved Places.json` (any case, any folder, `/` or `\`). */
export function isSavedPlacesJsonPath(path: string): boolean {
  return fileNameFromPath(path).toLowerCase() === SAVED_PLACES_JSON_NAME.toLowerCase();
}

/** How much of a `.json` file's start {@link looksLikeSavedPlacesJson} reads. */
export const STARRED_SNIFF_BYTES = 16 * 1024;

/** Google's link to a place, in either format of the file. */
const MAPS_URL_FIELD = /"(?:google_maps_url|Google Maps URL)"\s*:/;
/**
 * Fields only reviews have: `Reviews.json` shares the starred file's envelope and link field.
 * Fixed alternatives, so the scan is linear.
 */
const REVIEW_FIELD =
  /"(?:five_star_rating_published|review_text_published|questions|Star Rating|Review Comment)"\s*:/;

/**
 * True when the start of a `.json` file (its first {@link STARRED_SNIFF_BYTES}, as text) is the
 * starred places under another name: Takeout names the file in the account's language
 * (`Gespeicherte Orte.json`, `Adresses enregistrées.json`, …) and keeps its content, a
 * FeatureCollection whose features link to Google Maps; reviews, which link too, are told apart by
 * their rating and text fields.
 */
export function looksLikeSavedPlacesJson(head: string): boolean {
  return (
    head.includes('"FeatureCollection"') && MAPS_URL_FIELD.test(head) && !REVIEW_FIELD.test(head)
  );
}

const CollectionSchema = v.object({
  type: v.literal('FeatureCollection'),
  features: v.array(v.unknown()),
});

// Every field is optional and may be null: the file is untrusted, and a field of the wrong type is
// dropped (and reported) rather than failing the list. Unknown fields are ignored.
const Text = v.nullish(v.string());
const Degrees = v.nullish(v.union([v.number(), v.string()]));

const FeatureSchema = v.object({
  type: v.nullish(v.literal('Feature')),
  geometry: v.nullish(
    v.object({
      type: v.nullish(v.literal('Point')),
      coordinates: v.nullish(v.array(v.union([v.number(), v.string()]))),
    }),
  ),
  properties: v.nullish(
    v.object({
      // Old format (before about 2023).
      Title: Text,
      'Google Maps URL': Text,
      Location: v.nullish(
        v.object({
          'Business Name': Text,
          Address: Text,
          'Geo Coordinates': v.nullish(v.object({ Latitude: Degrees, Longitude: Degrees })),
        }),
      ),
      // New format.
      google_maps_url: Text,
      location: v.nullish(v.object({ name: Text, address: Text })),
      Comment: Text,
    }),
  ),
});

type Feature = v.InferOutput<typeof FeatureSchema>;

const DECIMAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A number, or a string holding a plain decimal (no hex, no `Infinity`); anything else is missing. */
function degrees(value: number | string | null | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && DECIMAL.test(value)) return Number(value);
  return undefined;
}

function latLngOf(
  lat: number | string | null | undefined,
  lng: number | string | null | undefined,
): LatLng | undefined {
  const la = degrees(lat);
  const ln = degrees(lng);
  return la === undefined || ln === undefined ? undefined : toLatLng(la, ln);
}

/** The first of `texts` that is non-empty once trimmed, trimmed; undefined when none is. */
function firstText(...texts: Array<string | null | undefined>): string | undefined {
  for (const text of texts) {
    const trimmed = text?.trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Drops what an issue points at, so the feature can be read without it: the whole geometry (its type
 * and coordinates only make sense together), else the deepest field that sits in an object (a bad
 * coordinate array goes as a whole). Returns false when the issue points at nothing droppable.
 */
function dropIssueTarget(feature: Record<string, unknown>, issue: v.BaseIssue<unknown>): boolean {
  const path = issue.path ?? [];
  if (path[0]?.key === 'geometry') return delete feature.geometry;
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const item = path[i]!;
    if (
      isObject(item.input) &&
      typeof item.key === 'string' &&
      Object.hasOwn(item.input, item.key)
    ) {
      return delete item.input[item.key];
    }
  }
  return false;
}

/**
 * Validates one feature, dropping fields that fail until the rest passes. Works on the value
 * `JSON.parse` made, which nothing else holds. Returns the feature (empty when nothing could be
 * kept).
 */
function checkFeature(value: unknown): Feature {
  if (!isObject(value)) return {};
  for (let round = 0; round < MAX_REPAIR_ROUNDS; round += 1) {
    const checked = v.safeParse(FeatureSchema, value);
    if (checked.success) return checked.output;
    let dropped = false;
    for (const issue of checked.issues) {
      if (dropIssueTarget(value, issue)) dropped = true;
    }
    if (!dropped) break;
  }
  return {};
}

function commentOf(text: string | null | undefined): string | undefined {
  const comment = text?.trim();
  if (!comment) return undefined;
  const bare = comment.endsWith('.') ? comment.slice(0, -1) : comment;
  return NO_LOCATION_COMMENTS.has(bare.toLowerCase()) ? undefined : comment;
}

function placeOf(feature: Feature): ParsedPlace {
  const properties = feature.properties ?? {};
  const location = properties.location ?? {};
  const old = properties.Location ?? {};
  const coordinates = feature.geometry?.coordinates ?? [];
  const geo = old['Geo Coordinates'] ?? {};
  // Every place gets the same fields in the same order as parseSavedPlacesCsv's.
  return {
    title: firstText(location.name, old['Business Name'], properties.Title) ?? '',
    url: firstText(properties.google_maps_url, properties['Google Maps URL']) ?? '',
    note: firstText(location.address, old.Address),
    comment: commentOf(properties.Comment),
    tags: undefined,
    // GeoJSON order is [lng, lat]; [0, 0] is Takeout's "unknown" and toLatLng treats it as missing.
    coordinates: latLngOf(coordinates[1], coordinates[0]) ?? latLngOf(geo.Latitude, geo.Longitude),
  };
}

/**
 * Reads Takeout's `Saved Places.json` (starred places, a GeoJSON FeatureCollection) in both its old
 * (`Title`, `Google Maps URL`, `Location`) and new (`location`, `google_maps_url`, `Comment`) formats,
 * per product.md "Starred places". Every feature is one place, even one with no title or URL: title =
 * the place's name, note = its address, url = the Maps URL, comment = `Comment` (Google's
 * {@link NO_LOCATION_COMMENT} dropped). Coordinates come from the geometry, else from the old
 * format's `Geo Coordinates`, else stay undefined for the pipeline to read from the URL or resolve.
 * Fields of the wrong type are dropped.
 * Throws ConverterError `json-parse` for text that is not a FeatureCollection, and `csv-empty` with its own message (the
 * CSV parser's "no places" error) for one without features; with a `counter`, its features count
 * against the archive's place cap (`too-many-places`) before any place is built.
 */
export function parseSavedPlacesJson(text: string, counter?: PlaceCounter): ParsedCsv {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let json: unknown;
  try {
    json = JSON.parse(input);
  } catch {
    throw new ConverterError('json-parse', MESSAGES.jsonParse);
  }
  const collection = v.safeParse(CollectionSchema, json);
  if (!collection.success) throw new ConverterError('json-parse', MESSAGES.jsonParse);
  const { features } = collection.output;
  if (features.length === 0) throw new ConverterError('csv-empty', MESSAGES.jsonEmpty);
  counter?.add(features.length);

  return { places: features.map((feature) => placeOf(checkFeature(feature))), columns: [] };
}
