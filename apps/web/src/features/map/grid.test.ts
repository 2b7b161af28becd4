import { describe, expect, it } from 'vitest';
import { buildGrid, nearestPoint } from './grid';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** What the grid must answer: every point looked at. */
function bruteNearest(xy: Float32Array, x: number, y: number, radius: number): number {
  let best = -1;
  let bestDistance = radius * radius;
  for (let i = 0; i < xy.length / 2; i++) {
    const distance = (xy[2 * i]! - x) ** 2 + (xy[2 * i + 1]! - y) ** 2;
    if (distance < bestDistance || (distance === bestDistance && i > best)) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

describe('point grid', () => {
  it('finds what looking at every point finds', () => {
    const next = random(3);
    const width = 500;
    const height = 280;
    for (const count of [0, 1, 7, 400, 5_000]) {
      const xy = Float32Array.from({ length: count * 2 }, (_, i) =>
        i % 2 === 0 ? next() * width : next() * height,
      );
      const grid = buildGrid(xy, count, width, height, 16);
      for (let probe = 0; probe < 300; probe++) {
        const x = next() * (width + 40) - 20;
        const y = next() * (height + 40) - 20;
        for (const radius of [3, 8]) {
          expect(nearestPoint(grid, x, y, radius)).toBe(bruteNearest(xy, x, y, radius));
        }
      }
    }
  });

  it('answers -1 when nothing is within reach', () => {
    const grid = buildGrid(Float32Array.from([10, 10, 100, 100]), 2, 200, 200, 16);
    expect(nearestPoint(grid, 10, 19, 8)).toBe(-1);
    expect(nearestPoint(grid, 10, 17, 8)).toBe(0);
    expect(nearestPoint(grid, 104, 104, 8)).toBe(1);
  });

  it('prefers the point drawn last among points at one spot', () => {
    const grid = buildGrid(Float32Array.from([50, 50, 50, 50, 50, 50]), 3, 100, 100, 16);
    expect(nearestPoint(grid, 51, 50, 8)).toBe(2);
  });

  it('keeps points outside the area in the edge cells', () => {
    const grid = buildGrid(Float32Array.from([-5, -5, 205, 90]), 2, 200, 100, 16);
    expect(nearestPoint(grid, 0, 0, 8)).toBe(0);
    expect(nearestPoint(grid, 199, 90, 8)).toBe(1);
  });
});
