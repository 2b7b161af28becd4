import { formatDegrees, toLatLng } from './latlng.js';
import type { LatLng } from './types.js';

/** Which form of a URL gave the coordinates, most precise first (product.md "Coordinates"). */
export type CoordinateSource = 'pin' | 'explicit' | 'centre';

export interface ExtractedCoordinates {
  coordinates: LatLng;
  source: CoordinateSource;
}

const NUMBER = String.raw`[-+]?\d{1,3}(?:\.\d+)?`;
/** `!3d<lat>!4d<lng>`: the place's own pin in a `data=` blob. The last one wins: it belongs to the place, not a search. */
const PIN = new RegExp(String.raw`!3d(${NUMBER})!4d(${NUMBER})`, 'y');
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

function lastPin(url: string): LatLng | undefined {
  for (
    let at = url.lastIndexOf('!3d');
    at >= 0;
    at = at > 0 ? url.lastIndexOf('!3d', at - 1) : -1
  ) {
    PIN.lastIndex = at;
    const match = PIN.exec(url);
    const point = match ? toLatLng(match[1]!, match[2]!) : undefined;
    if (point) return point;
  }
  return undefined;
}

const SEARCH_PATH = /\/maps\/search\/([^/?#]+)/;

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
 */
export function resolvedUrlFor(coordinates: LatLng, placeId?: string): string {
  const query = `api=1&query=${formatDegrees(coordinates.lat)},${formatDegrees(coordinates.lng)}`;
  const place = placeId ? `&query_place_id=${encodeURIComponent(placeId)}` : '';
  return `https://www.google.com/maps/search/?${query}${place}`;
}
