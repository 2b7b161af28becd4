import type { LatLng } from './types.js';

/** Latitude and longitude inside the Earth's ranges; (0, 0) is what Takeout writes for "no location", so it counts as missing. */
export function isValidCoordinate(lat: number, lng: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= -90 &&
    lat <= 90 &&
    lng >= -180 &&
    lng <= 180 &&
    !(lat === 0 && lng === 0)
  );
}

/** Builds a LatLng from text, or undefined when the numbers are not a valid place. */
export function toLatLng(lat: string | number, lng: string | number): LatLng | undefined {
  const la = typeof lat === 'number' ? lat : Number(lat);
  const ln = typeof lng === 'number' ? lng : Number(lng);
  return isValidCoordinate(la, ln) ? { lat: la, lng: ln } : undefined;
}

const SCALE = 1e7;
/** Leading zeros of a fraction, by how many its 7 places lack. */
const ZEROS = ['', '0', '00', '000', '0000', '00000', '000000'];

/**
 * Degrees as plain decimals (never exponent notation), rounded to 7 places (about 1 cm, Google's own
 * precision), trailing zeros trimmed. Works on the scaled integer, in integer arithmetic (exact: at
 * most 1.8e9), which is much cheaper than turning a double into its shortest text: this runs twice
 * per placemark.
 */
export function formatDegrees(value: number): string {
  const scaled = Math.round(value * SCALE);
  if (scaled === 0) return '0';
  const sign = scaled < 0 ? '-' : '';
  const abs = Math.abs(scaled);
  const whole = Math.floor(abs / SCALE);
  let fraction = abs - whole * SCALE;
  if (fraction === 0) return `${sign}${whole}`;
  let places = 7;
  while (fraction % 10 === 0) {
    fraction /= 10;
    places -= 1;
  }
  const digits = String(fraction);
  return `${sign}${whole}.${ZEROS[places - digits.length]}${digits}`;
}

/** A point's latitude and longitude as text, each written by {@link formatDegrees}. */
export interface LatLngText {
  lat: string;
  lng: string;
}

/**
 * A point as text, once it is known to be a place ({@link isValidCoordinate}); `instead` tells the
 * caller what to do with a point that is not.
 *
 * @throws RangeError naming the numbers, the ranges and `instead`.
 */
export function degreesOf(point: LatLng, instead: string): LatLngText {
  const { lat, lng } = point;
  if (!isValidCoordinate(lat, lng)) {
    throw new RangeError(
      `Latitude ${lat} and longitude ${lng} are not a place on Earth: a latitude is a number from -90 to 90, a longitude one from -180 to 180, and 0, 0 means "no location". ${instead}`,
    );
  }
  return { lat: formatDegrees(lat), lng: formatDegrees(lng) };
}

/**
 * A place's coordinates as every writer writes them (KML, GPX, GeoJSON and the coordinates CSV
 * all ask here), so no file ever holds `NaN` or a latitude of 95: wrong coordinates are unwritable.
 *
 * @throws RangeError for a point that is not a place ({@link degreesOf}).
 */
export function writtenDegrees(point: LatLng): LatLngText {
  return degreesOf(point, 'Leave such a place out: a map file holds only places with coordinates.');
}

/**
 * The one place that writes KML's coordinate order: longitude first, then latitude, then altitude 0.
 * Every other piece of code passes LatLng objects with named fields.
 */
export function toKmlCoordinates(point: LatLng): string {
  const { lat, lng } = writtenDegrees(point);
  return `${lng},${lat},0`;
}
