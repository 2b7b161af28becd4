import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coordinatesForCid, s2CellIdFor } from '../takeout/index.js';
import { ftidForCid } from './ftid.js';
import { distanceMetres, offsetBy } from './geo.js';
import { s2CellCentre } from './s2.js';

/**
 * How far a point of an S2 cell at `level` can be from its centre, with room: cells average about
 * 1.2 km across at level 13, halving per level, the largest about 1.7 times the average.
 */
const cellRadiusMetres = (level: number): number => 1200 * 2 ** (13 - level) * 1.7;

describe('S2 cell ids', () => {
  it('decodes the public ftid pairs next to their places', () => {
    const cyprus = s2CellCentre(0x14e732fd76f0d90dn);
    expect(distanceMetres(cyprus, { lat: 34.6705954, lng: 33.0424567 })).toBeLessThan(20);
    const gallery = s2CellCentre(0x487604ce176ac979n);
    expect(distanceMetres(gallery, { lat: 51.508929, lng: -0.128299 })).toBeLessThan(50);
  });

  it('decodes what the generator encodes into the cell holding the place, on every face', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -89.9, max: 89.9, noNaN: true }),
        fc.double({ min: -180, max: 179.999, noNaN: true }),
        fc.integer({ min: 10, max: 30 }),
        (lat, lng, level) => {
          const centre = s2CellCentre(s2CellIdFor({ lat, lng }, level));
          expect(distanceMetres(centre, { lat, lng })).toBeLessThan(
            level === 30 ? 0.05 : cellRadiusMetres(level),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('ftidForCid', () => {
  it('carries the CID in its low half and a cell holding the place in its high half', () => {
    for (const cid of ['1', '2', '3', '4', '42', '16519582940102929223', '18446744073709551615']) {
      const ftid = ftidForCid(cid);
      expect(ftid).toMatch(/^0x[0-9a-f]{16}:0x[0-9a-f]{16}$/);
      const [hi, lo] = ftid.split(':').map((half) => BigInt(half));
      expect(lo!.toString()).toBe(cid);
      const place = coordinatesForCid(cid);
      expect(distanceMetres(s2CellCentre(hi!), place)).toBeLessThan(cellRadiusMetres(13));
      const level = 13 + Number(BigInt(cid) % 4n);
      expect(hi).toBe(s2CellIdFor(place, level));
    }
  });

  it('uses the coordinates it is given', () => {
    const at = { lat: -33.8688, lng: 151.2093 };
    const hi = BigInt(ftidForCid('42', at).split(':')[0]!);
    expect(distanceMetres(s2CellCentre(hi), at)).toBeLessThan(cellRadiusMetres(13));
  });
});

describe('offsetBy', () => {
  it('moves a point by the distance asked, within rounding', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -84, max: 84, noNaN: true }),
        fc.double({ min: -180, max: 179.999, noNaN: true }),
        fc.integer({ min: 100, max: 3000 }),
        fc.integer({ min: 0, max: 359 }),
        (lat, lng, metres, bearing) => {
          const moved = offsetBy({ lat, lng }, metres, bearing);
          expect(Math.abs(distanceMetres({ lat, lng }, moved) - metres)).toBeLessThan(0.5);
        },
      ),
      { numRuns: 300 },
    );
  });
});
