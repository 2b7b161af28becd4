import { degreesOf, toLatLng } from './latlng.js';
import type { LatLng } from './types.js';

/** Which form of a URL gave the coordinates, most precise first (product.md "Coordinates"). */
export type CoordinateSource = 'pin' | 'explicit' | 'centre';

export interface ExtractedCoordinates {
  coordinates: LatLng;
  source: CoordinateSource;
}

const NUMBER = String.raw`[-+]?\d{1,3}(?:\.\d+)?`;
/** A plain `lat, lng` decimal pair (optional spaces or `+` after the comma), as in `/maps/search/<lat>,<lng>` or `?q=`. */
const PAIR = new RegExp(String.raw`^\s*(${NUMBER})\s*,[\s+]*(${NUMBER})\s*$`);
/** `@<lat>,<lng>,<zoom>`: the map's centre, the view rather than the pin. */
const CENTRE = new RegExp(String.raw`@(${NUMBER}),(${NUMBER}),(\d+(?:\.\d+)?)`);
/** Query parameters that may hold an explicit pair. */
const PAIR_PARAMS = ['q', 'query', 'll', 'center', 'daddr', 'destination'] as const;

/** Percent-decodes a URL part; a `+` may stay, as PAIR reads it as a space. */
function decode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function pairFrom(text: string | null | undefined): LatLng | undefined {
  if (!text) return undefined;
  const match = PAIR.exec(decode(text));
  return match ? toLatLng(match[1]!, match[2]!) : undefined;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Where a {@link NUMBER} that starts at `at` ends, or -1 when none starts there: an optional sign,
 * one to three digits, then a dot and digits only when a digit follows the dot. Read by hand rather
 * than by a regular expression: every link of a list is read, and a match's array and captures were
 * most of what reading them allocated.
 */
function numberEnd(text: string, at: number): number {
  let i = at;
  const sign = text.charCodeAt(i);
  if (sign === 43 || sign === 45) i += 1;
  const digits = i;
  while (i < digits + 3 && isDigit(text.charCodeAt(i))) i += 1;
  if (i === digits) return -1;
  if (text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(text.charCodeAt(i))) i += 1;
  }
  return i;
}

/**
 * The value of the {@link NUMBER} `text` holds from `start` to `end`, exactly as `Number` reads it:
 * its digits as one integer over a power of ten, both exact doubles, so the one division rounds
 * correctly, as `Number` does. Past 15 digits (where the integer could stop being exact) it asks
 * `Number`.
 */
function numberValue(text: string, start: number, end: number): number {
  let i = start;
  const sign = text.charCodeAt(i);
  if (sign === 43 || sign === 45) i += 1;
  let digits = 0;
  let count = 0;
  let scale = 1;
  let fraction = false;
  for (; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 46) {
      fraction = true;
      continue;
    }
    digits = digits * 10 + (code - 48);
    count += 1;
    if (fraction) scale *= 10;
  }
  if (count > 15) return Number(text.slice(start, end));
  return sign === 45 ? -(digits / scale) : digits / scale;
}

/**
 * `!3d<lat>!4d<lng>` at `at`, exactly as `/!3d(NUMBER)!4d(NUMBER)/y` would match there (the tests
 * compare the two): the place's own pin in a `data=` blob, when valid.
 */
function pinAt(url: string, at: number): LatLng | undefined {
  const lat = at + 3;
  const latEnd = numberEnd(url, lat);
  if (latEnd < 0 || !url.startsWith('!4d', latEnd)) return undefined;
  const lngEnd = numberEnd(url, latEnd + 3);
  if (lngEnd < 0) return undefined;
  return toLatLng(numberValue(url, lat, latEnd), numberValue(url, latEnd + 3, lngEnd));
}

/** The last valid pin of a link: it belongs to the place, not a search. */
function lastPin(url: string): LatLng | undefined {
  for (
    let at = url.lastIndexOf('!3d');
    at >= 0;
    at = at > 0 ? url.lastIndexOf('!3d', at - 1) : -1
  ) {
    const point = pinAt(url, at);
    if (point) return point;
  }
  return undefined;
}

/** How many different valid pins (`!3d<lat>!4d<lng>`) a text writes: a place's URL writes one. */
export function distinctPins(text: string): number {
  const seen = new Set<string>();
  for (let at = text.indexOf('!3d'); at >= 0; at = text.indexOf('!3d', at + 3)) {
    const point = pinAt(text, at);
    if (point) seen.add(`${point.lat},${point.lng}`);
  }
  return seen.size;
}

const SEARCH_PATH = /\/maps\/search\/([^/?#]+)/;

/** Whether a text is a decimal pair of zeros (`0,0`, `0.0, -0.0`, `0,+0`): no place (product.md). */
function isZeroPair(text: string): boolean {
  const match = PAIR.exec(decode(text));
  return match !== null && Number(match[1]) === 0 && Number(match[2]) === 0;
}

/**
 * Whether every explicit pair a URL writes (its `/maps/search/<pair>`, and its `q`, `query`, `ll`,
 * `center`… values) is (0, 0), and it writes one at least: a search for the point Takeout gives a
 * place it has no location for, however it is spelt (`0,0`, `0,+0`, `0.0,0.0`, `?q=0,0` of a
 * starred place, `?entry=ttu` after it). A query for anything else (`?q=Cafe+Nord`) makes it a
 * search worth looking up.
 */
export function writesOnlyZeroPairs(url: URL): boolean {
  const texts: string[] = [];
  const search = SEARCH_PATH.exec(url.pathname)?.[1];
  if (search !== undefined) texts.push(search);
  for (const name of PAIR_PARAMS) texts.push(...url.searchParams.getAll(name));
  return texts.length > 0 && texts.every(isZeroPair);
}

function explicitPair(url: string): LatLng | undefined {
  const fromPath = pairFrom(SEARCH_PATH.exec(url)?.[1]);
  if (fromPath) return fromPath;
  if (!url.includes('?') && /^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL at all: the seed's first pattern is a plain pair anywhere in the text.
    return pairFrom(url);
  }
  for (const name of PAIR_PARAMS) {
    const fromParam = pairFrom(parsed.searchParams.get(name));
    if (fromParam) return fromParam;
  }
  return undefined;
}

/**
 * Reads coordinates from a place URL, most precise form first: the pin (`!3d!4d`), an explicit pair
 * (`/maps/search/<lat>,<lng>`, `q=`, `query=`, `ll=`, `center=`), then the map centre (`@lat,lng,zoom`).
 * Values outside the Earth's ranges and (0, 0) are ignored. Returns undefined when nothing valid is found.
 */
export function extractCoordinates(url: string): ExtractedCoordinates | undefined {
  if (!url) return undefined;
  const pin = lastPin(url);
  if (pin) return { coordinates: pin, source: 'pin' };
  const explicit = explicitPair(url);
  if (explicit) return { coordinates: explicit, source: 'explicit' };
  const centre = CENTRE.exec(url);
  const centrePoint = centre ? toLatLng(centre[1]!, centre[2]!) : undefined;
  if (centrePoint) return { coordinates: centrePoint, source: 'centre' };
  return undefined;
}

/**
 * The URL the API returns for a place it resolved: it carries the coordinates as an explicit pair the
 * converter reads back, and the place id so Google Maps opens the same place.
 *
 * @throws RangeError for coordinates that are not a place (`NaN`, a latitude past ±90, a longitude
 * past ±180, or 0, 0): answer such a link `not_found` instead.
 */
export function resolvedUrlFor(coordinates: LatLng, placeId?: string): string {
  const { lat, lng } = degreesOf(
    coordinates,
    'Answer the link as not_found instead of making a URL for it.',
  );
  const query = `api=1&query=${lat},${lng}`;
  const place = placeId ? `&query_place_id=${encodeURIComponent(placeId)}` : '';
  return `https://www.google.com/maps/search/?${query}${place}`;
}
