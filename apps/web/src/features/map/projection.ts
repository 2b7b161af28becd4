/**
 * How the results' map places points on the canvas. Pure and shared with the browser test, which
 * computes where a place must be drawn with these same calls (d3-geo in Node), so a pixel read back
 * from the canvas proves the place landed where its coordinates say.
 */
import { geoNaturalEarth1, type GeoProjection } from 'd3-geo';

/** Space kept free around the points, in CSS pixels, so no point is cut by the canvas edge. */
export const MAP_PADDING = 18;

/**
 * The smallest area the map zooms to, in degrees of longitude (half as many of latitude): the world
 * outline is coarse, so a few places in one city are shown with their country around them.
 */
export const MIN_SPAN_DEGREES = 14;

/** The longitude interval and latitude range that hold every point, the shorter way round. */
export interface LngLatBox {
  /** Western edge, -180 ≤ west ≤ 180. */
  west: number;
  /** Degrees eastward from `west` to the eastern edge, 0 ≤ span ≤ 360 (may cross the antimeridian). */
  span: number;
  south: number;
  north: number;
}

/** 1° buckets of longitude, used to find the widest stretch of longitude without a point. */
const BUCKETS = 360;

/**
 * What {@link addToBox} has seen so far: per 1° bucket of longitude the westernmost and easternmost
 * point in it, and the latitude range. Filled a slice at a time for 100,000 points.
 */
export interface BoxParts {
  lowest: Float64Array;
  highest: Float64Array;
  south: number;
  north: number;
}

/** Nothing seen yet. */
export function emptyBox(): BoxParts {
  return {
    lowest: new Float64Array(BUCKETS).fill(Infinity),
    highest: new Float64Array(BUCKETS).fill(-Infinity),
    south: Infinity,
    north: -Infinity,
  };
}

/** Adds points `start` to `end` of `lng,lat` pairs (-180 ≤ lng ≤ 180, as the converter checks). */
export function addToBox(
  parts: BoxParts,
  coordinates: ArrayLike<number>,
  start: number,
  end: number,
): void {
  const { lowest, highest } = parts;
  let { south, north } = parts;
  for (let i = start; i < end; i++) {
    const lng = coordinates[2 * i]!;
    const lat = coordinates[2 * i + 1]!;
    const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor(lng + 180)));
    if (lng < lowest[bucket]!) lowest[bucket] = lng;
    if (lng > highest[bucket]!) highest[bucket] = lng;
    if (lat < south) south = lat;
    if (lat > north) north = lat;
  }
  parts.south = south;
  parts.north = north;
}

/**
 * The smallest longitude interval (crossing the antimeridian when that is shorter, e.g. for Fiji)
 * and the latitude range holding every point seen; null for none. The widest gap is found among
 * the 1° buckets, and the edges are the exact points on either side of it.
 */
export function boxOf({ lowest, highest, south, north }: BoxParts): LngLatBox | null {
  const used = (bucket: number) =>
    lowest[(bucket + BUCKETS) % BUCKETS]! <= highest[(bucket + BUCKETS) % BUCKETS]!;
  let bestStart = -1;
  let bestLength = 0;
  let any = false;
  for (let start = 0; start < BUCKETS; start++) {
    if (used(start)) any = true;
    if (used(start) || !used(start - 1)) continue;
    let length = 0;
    while (length < BUCKETS && !used(start + length)) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  if (!any) return null;
  if (bestStart < 0) return { west: -180, span: 360, south, north };
  const west = lowest[(bestStart + bestLength) % BUCKETS]!;
  const east = highest[(bestStart - 1 + BUCKETS) % BUCKETS]!;
  return { west, span: east >= west ? east - west : east - west + 360, south, north };
}

/** {@link boxOf} every point at once. */
export function lngLatBox(coordinates: ArrayLike<number>): LngLatBox | null {
  const parts = emptyBox();
  addToBox(parts, coordinates, 0, Math.floor(coordinates.length / 2));
  return boxOf(parts);
}

/**
 * The projection of the results' map for a canvas of `width` × `height` CSS pixels: Natural Earth,
 * turned so the points are in the middle, and fitted to them with {@link MAP_PADDING} (never closer
 * than {@link MIN_SPAN_DEGREES}); the whole world when there are no points or they are all at one
 * spot. `projection([lng, lat])` gives a point's position in CSS pixels from the top left corner.
 */
export function makeProjection(
  coordinates: ArrayLike<number>,
  width: number,
  height: number,
): GeoProjection {
  return projectionForBox(lngLatBox(coordinates), width, height);
}

/** {@link makeProjection} for points whose {@link lngLatBox} is known (worked out in slices). */
export function projectionForBox(
  box: LngLatBox | null,
  width: number,
  height: number,
): GeoProjection {
  const projection = geoNaturalEarth1().precision(0.5);
  const extent: [[number, number], [number, number]] = [
    [MAP_PADDING, MAP_PADDING],
    [
      Math.max(MAP_PADDING + 1, width - MAP_PADDING),
      Math.max(MAP_PADDING + 1, height - MAP_PADDING),
    ],
  ];
  if (!box || (box.span === 0 && box.south === box.north)) {
    projection.fitExtent(extent, { type: 'Sphere' });
  } else {
    const centre = box.west + box.span / 2;
    // Just under 180°: both edges must stay on their side of the antimeridian once turned.
    const half = Math.min(179.9, Math.max(box.span, MIN_SPAN_DEGREES) / 2);
    const middle = (box.south + box.north) / 2;
    const halfLat = Math.max(box.north - box.south, MIN_SPAN_DEGREES / 2) / 2;
    const south = Math.max(-90, middle - halfLat);
    const north = Math.min(90, middle + halfLat);
    // Parallels are straight in Natural Earth and widest nearest the equator, so the box's corners
    // and its edges at the latitude nearest the equator bound everything inside it.
    const widest = Math.min(north, Math.max(south, 0));
    const rim: Array<[number, number]> = [south, north, widest].flatMap((lat) => [
      [centre - half, lat] as [number, number],
      [centre + half, lat] as [number, number],
    ]);
    projection.rotate([-centre, 0]).fitExtent(extent, { type: 'MultiPoint', coordinates: rim });
  }
  return projection.clipExtent([
    [0, 0],
    [width, height],
  ]);
}
