import type { LatLng } from '../takeout/index.js';
import { Random } from '../takeout/random.js';

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Rounds to 7 decimals (about 1 cm), as Google writes view coordinates. */
const round7 = (value: number): number => Number(value.toFixed(7));

/**
 * The point `metres` from `from` towards `bearingDeg` (0 = north, 90 = east), on a sphere, rounded
 * to 7 decimals. The fake uses it to put a camera or a static-map centre near, but not on, a place.
 */
export function offsetBy(from: LatLng, metres: number, bearingDeg: number): LatLng {
  const angle = metres / EARTH_RADIUS_M;
  const bearing = bearingDeg * RAD;
  const lat1 = from.lat * RAD;
  const lng1 = from.lng * RAD;
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing),
  );
  const lng2 =
    lng1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(angle) * Math.cos(lat1),
      Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2),
    );
  const lng = ((((lng2 / RAD + 540) % 360) + 360) % 360) - 180;
  return { lat: round7(lat2 / RAD), lng: round7(lng) };
}

/** Great-circle distance in metres (haversine), for tests of the offsets above. */
export function distanceMetres(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A deterministic stream of 32-bit numbers (the generator's mulberry32) seeded from a string, so a
 * place's camera offset, filler and neighbours are the same on every request and every machine.
 */
export function streamFrom(seed: string): () => number {
  let state = 0x9e3779b9;
  for (let i = 0; i < seed.length; i += 1)
    state = Math.imul(state ^ seed.charCodeAt(i), 0x85ebca6b);
  const random = new Random(state);
  return () => random.uint32();
}
