/**
 * The world's land outline that the map is drawn on: Natural Earth's 1:110m land from `world-atlas`,
 * shipped inside the map's own chunk, so the map needs nothing from any other origin.
 */
import type { GeoGeometryObjects } from 'd3-geo';
import { feature } from 'topojson-client';
import land110m from 'world-atlas/land-110m.json';

type Topology = Parameters<typeof feature>[0];
type Land = ReturnType<typeof feature>;
type Geometry = Extract<Land, { type: 'Feature' }>['geometry'];

const topology = land110m as unknown as Topology;
const land = topology.objects['land'];
if (!land) throw new Error('world-atlas land-110m.json has no "land" object.');

function polygonsOf(geometry: Geometry | null): GeoGeometryObjects[] {
  if (!geometry) return [];
  switch (geometry.type) {
    case 'Polygon':
      return [geometry];
    case 'MultiPolygon':
      return geometry.coordinates.map((coordinates) => ({ type: 'Polygon', coordinates }));
    case 'GeometryCollection':
      return geometry.geometries.flatMap(polygonsOf);
    default:
      return [];
  }
}

const collection = feature(topology, land);

/**
 * Every land mass as its own polygon (127 of them, converted once when the chunk loads), so the
 * outline can be drawn a few at a time, like the points.
 */
export const LAND_POLYGONS: readonly GeoGeometryObjects[] = (
  collection.type === 'FeatureCollection' ? collection.features : [collection]
).flatMap((each) => polygonsOf(each.geometry));
