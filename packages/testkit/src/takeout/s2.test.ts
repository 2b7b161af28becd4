import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { s2CellIdFor, s2LevelOf } from './s2.js';

/** The id of the ancestor of `id` at `level` (s2geometry's `S2CellId::parent`). */
function parentAt(id: bigint, level: number): bigint {
  const lsb = 1n << BigInt(2 * (30 - level));
  return (id & -lsb) | lsb;
}

const point = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('s2CellIdFor', () => {
  it('gives each face cell for the point at its centre', () => {
    const faces = [
      [{ lat: 0, lng: 0 }, 0x1000000000000000n],
      [{ lat: 0, lng: 90 }, 0x3000000000000000n],
      [{ lat: 90, lng: 0 }, 0x5000000000000000n],
      [{ lat: 0, lng: 180 }, 0x7000000000000000n],
      [{ lat: 0, lng: -90 }, 0x9000000000000000n],
      [{ lat: -90, lng: 0 }, 0xb000000000000000n],
    ] as const;
    for (const [centre, id] of faces) expect(s2CellIdFor(centre, 0)).toBe(id);
  });

  it('visits the four level-1 cells of face 0 in Hilbert order', () => {
    // Face 0 starts unswapped: (i, j) = (0, 0), (0, 1), (1, 1), (1, 0), i along +lng, j along +lat.
    expect(s2CellIdFor({ lat: -20, lng: -20 }, 1)).toBe(0x0400000000000000n);
    expect(s2CellIdFor({ lat: 20, lng: -20 }, 1)).toBe(0x0c00000000000000n);
    expect(s2CellIdFor({ lat: 20, lng: 20 }, 1)).toBe(0x1400000000000000n);
    expect(s2CellIdFor({ lat: -20, lng: 20 }, 1)).toBe(0x1c00000000000000n);
  });

  it('matches a leaf cell computed by s2geometry (golang/geo CellIDFromLatLng)', () => {
    // 26.568629, -80.108965 → 9860956140720671831, a value from a public test of golang/geo's encoder.
    expect(s2CellIdFor({ lat: 26.568629, lng: -80.108965 }, 30)).toBe(0x88d9275d495ccc57n);
  });

  // Google's ids for these places are leaf cells (level 30, about 1 cm) 12 m and 36 m from the place,
  // so the place's own leaf cell differs; their cells agree down to level 17 (about 70 m).
  it.each([
    ['0x14e732fd76f0d90d', { lat: 34.6705954, lng: 33.0424567 }, 0x14e732fd76f0d90dn],
    ['0x487604ce176ac979', { lat: 51.508929, lng: -0.128299 }, 0x487604ce176ac979n],
  ])('puts the public place of %s in its level-17 ancestor', (_name, place, id) => {
    expect(s2LevelOf(id)).toBe(30);
    expect(s2CellIdFor(place, 17)).toBe(parentAt(id, 17));
    expect(s2CellIdFor(place, 18)).not.toBe(parentAt(id, 18));
  });

  it('re-encodes the centres of the public leaf cells to exactly their ids', () => {
    // The centres as @placeport/converter's s2CellOfFtid decodes them.
    expect(s2CellIdFor({ lat: 34.67068818298389, lng: 33.04252175040805 }, 30)).toBe(
      0x14e732fd76f0d90dn,
    );
    expect(s2CellIdFor({ lat: 51.50860800403508, lng: -0.1283490404963303 }, 30)).toBe(
      0x487604ce176ac979n,
    );
  });

  it('gives at each level the ancestor of the leaf cell, with the level bit in place', () => {
    fc.assert(
      fc.property(point, fc.integer({ min: 0, max: 30 }), (p, level) => {
        const id = s2CellIdFor(p, level);
        expect(id).toBe(parentAt(s2CellIdFor(p, 30), level));
        expect(s2LevelOf(id)).toBe(level);
        expect(id >> 61n).toBeLessThanOrEqual(5n);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses levels outside 0–30', () => {
    for (const level of [-1, 31, 1.5, Number.NaN]) {
      expect(() => s2CellIdFor({ lat: 1, lng: 2 }, level)).toThrow(RangeError);
    }
  });
});

describe('s2LevelOf', () => {
  it('reads the level from the lowest 1 bit and refuses ids that mark none', () => {
    expect(s2LevelOf(0x1000000000000000n)).toBe(0);
    expect(s2LevelOf(0x14e732fd74000000n)).toBe(17);
    expect(s2LevelOf(0x1n)).toBe(30);
    for (const id of [0n, 0x2n, 0x4000000000000000n, 1n << 64n, -1n]) {
      expect(() => s2LevelOf(id)).toThrow(RangeError);
    }
  });
});
