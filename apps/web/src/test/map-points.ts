import type { ListPoints } from '../worker/types';

/** One list's points as the worker sends them to the map: `[lng, lat, name]` each, in order. */
export function listPoints(
  path: string,
  listName: string,
  points: Array<[number, number, string]>,
): ListPoints {
  return {
    path,
    name: listName,
    coordinates: Float64Array.from(points.flatMap(([lng, lat]) => [lng, lat])),
    names: points.map(([, , name]) => name),
  };
}

/** Two places far apart (Lisbon and Tokyo) in `Takeout/Saved/Want to go.csv`. */
export const WANT_TO_GO = listPoints('Takeout/Saved/Want to go.csv', 'Want to go', [
  [-9.14, 38.72, 'Café A'],
  [139.69, 35.68, 'Shrine B'],
]);
