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

/** Degrees as plain decimals (never exponent notation), to 7 places (about 1 cm), trailing zeros trimmed. */
export function formatDegrees(value: number): string {
  const plain = String(value);
  const dot = plain.indexOf('.');
  if (!plain.includes('e') && (dot < 0 || plain.length - dot <= 8))
    return plain === '-0' ? '0' : plain;
  const fixed = value.toFixed(7).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '-0' ? '0' : fixed;
}

/**
 * The one place that writes KML's coordinate order: longitude first, then latitude, then altitude 0.
 * Every other piece of code passes LatLng objects with named fields.
 */
export function toKmlCoordinates(point: LatLng): string {
  return `${formatDegrees(point.lng)},${formatDegrees(point.lat)},0`;
}
