import { describe, expect, it } from 'vitest';
import {
  addToBox,
  boxOf,
  emptyBox,
  lngLatBox,
  makeProjection,
  MAP_PADDING,
  MIN_SPAN_DEGREES,
} from './projection';

/** `lng,lat` pairs as the worker sends them. */
function pairs(...points: Array<[number, number]>): Float64Array {
  return Float64Array.from(points.flat());
}

function projected(coordinates: Float64Array, width: number, height: number) {
  const projection = makeProjection(coordinates, width, height);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < coordinates.length; i += 2) {
    out.push(projection([coordinates[i]!, coordinates[i + 1]!])!);
  }
  return out;
}

/** A small deterministic generator, so the tables below are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('lngLatBox', () => {
  it.each([
    ['no point', [], null],
    ['one point', [[10, 20]], { west: 10, span: 0, south: 20, north: 20 }],
    [
      'Lisbon and Tokyo, the short way (east of Lisbon)',
      [
        [-9.14, 38.72],
        [139.69, 35.68],
      ],
      { west: -9.14, span: 148.83, south: 35.68, north: 38.72 },
    ],
    [
      'Fiji, across the antimeridian',
      [
        [178.4, -18.1],
        [-179.9, -16.5],
      ],
      { west: 178.4, span: 1.7, south: -18.1, north: -16.5 },
    ],
    [
      'every longitude',
      Array.from({ length: 360 }, (_, i) => [i - 180 + 0.5, 0] as [number, number]),
      { west: -180, span: 360, south: 0, north: 0 },
    ],
  ] as const)('%s', (_, points, expected) => {
    const box = lngLatBox(pairs(...(points as Array<[number, number]>)));
    if (expected === null) {
      expect(box).toBeNull();
      return;
    }
    expect(box).not.toBeNull();
    expect(box!.west).toBeCloseTo(expected.west, 9);
    expect(box!.span).toBeCloseTo(expected.span, 9);
    expect([box!.south, box!.north]).toEqual([expected.south, expected.north]);
  });

  it('holds every point, whatever the mix', () => {
    const next = random(5);
    for (let run = 0; run < 50; run++) {
      const count = 1 + Math.floor(next() * 40);
      const centre = next() * 360 - 180;
      const spread = next() * 200;
      const points = Array.from(
        { length: count },
        () => [centre + (next() - 0.5) * spread, next() * 170 - 85] as [number, number],
      );
      const box = lngLatBox(pairs(...points))!;
      for (const [lng] of points) {
        const east = (((lng - box.west) % 360) + 360) % 360;
        // The westernmost point may come back a rounding error west of `west`, i.e. at ~360.
        expect(Math.min(east, Math.abs(360 - east))).toBeLessThanOrEqual(box.span + 1e-9);
      }
      expect(box.span).toBeLessThanOrEqual(spread + 1e-9);
    }
  });
});

describe('measuring in slices', () => {
  it('comes to the same box as measuring every point at once', () => {
    const next = random(9);
    const coordinates = Float64Array.from({ length: 2_000 }, (_, i) =>
      i % 2 === 0 ? next() * 360 - 180 : next() * 180 - 90,
    );
    const parts = emptyBox();
    for (let start = 0; start < 1_000; start += 77) {
      addToBox(parts, coordinates, start, Math.min(1_000, start + 77));
    }
    expect(boxOf(parts)).toEqual(lngLatBox(coordinates));
  });
});

describe('makeProjection', () => {
  const WIDTH = 600;
  const HEIGHT = 330;

  it('fits the points inside the padding, filling one direction', () => {
    const coordinates = pairs([-9.14, 38.72], [139.69, 35.68], [-74.0, 40.71], [151.2, -33.87]);
    const xy = projected(coordinates, WIDTH, HEIGHT);
    for (const [x, y] of xy) {
      expect(x).toBeGreaterThanOrEqual(MAP_PADDING - 0.5);
      expect(x).toBeLessThanOrEqual(WIDTH - MAP_PADDING + 0.5);
      expect(y).toBeGreaterThanOrEqual(MAP_PADDING - 0.5);
      expect(y).toBeLessThanOrEqual(HEIGHT - MAP_PADDING + 0.5);
    }
    const xs = xy.map(([x]) => x);
    const ys = xy.map(([, y]) => y);
    const usedWidth = Math.max(...xs) - Math.min(...xs);
    const usedHeight = Math.max(...ys) - Math.min(...ys);
    expect(
      Math.max(usedWidth / (WIDTH - 2 * MAP_PADDING), usedHeight / (HEIGHT - 2 * MAP_PADDING)),
    ).toBeGreaterThan(0.8);
  });

  it('shows the whole world for one point, or none', () => {
    for (const coordinates of [
      pairs([2.35, 48.86]),
      pairs([2.35, 48.86], [2.35, 48.86]),
      pairs(),
    ]) {
      const projection = makeProjection(coordinates, WIDTH, HEIGHT);
      const [west] = projection([-179.99, 0])!;
      const [east] = projection([179.99, 0])!;
      expect(west).toBeCloseTo(MAP_PADDING, 0);
      expect(east).toBeCloseTo(WIDTH - MAP_PADDING, 0);
    }
  });

  it(`zooms no closer than ${MIN_SPAN_DEGREES}° for places in one city`, () => {
    const coordinates = pairs([-9.14, 38.72], [-9.13, 38.71], [-9.15, 38.73]);
    const projection = makeProjection(coordinates, WIDTH, HEIGHT);
    const [a] = projection([-9.14 - MIN_SPAN_DEGREES / 2, 38.72])!;
    const [b] = projection([-9.14 + MIN_SPAN_DEGREES / 2, 38.72])!;
    expect(b - a).toBeLessThanOrEqual(WIDTH - 2 * MAP_PADDING + 1);
    // The city is in the middle.
    const [x, y] = projection([-9.14, 38.72])!;
    expect(x).toBeCloseTo(WIDTH / 2, -1);
    expect(y).toBeCloseTo(HEIGHT / 2, -1);
  });

  it('keeps places on both sides of the antimeridian together', () => {
    const [a, b] = projected(pairs([178.4, -18.1], [-179.9, -16.5]), WIDTH, HEIGHT);
    expect(Math.abs(a![0] - b![0])).toBeLessThan(WIDTH / 2);
  });

  it('gives the same positions for the same input (what the browser test relies on)', () => {
    const coordinates = pairs([-9.14, 38.72], [139.69, 35.68]);
    expect(projected(coordinates, WIDTH, HEIGHT)).toEqual(projected(coordinates, WIDTH, HEIGHT));
  });
});
