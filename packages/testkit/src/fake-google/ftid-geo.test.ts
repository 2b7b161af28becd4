import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coordinatesForCid, s2CellIdFor } from '../takeout/index.js';
import { ftidForCid } from './ftid.js';
import { distanceMetres, offsetBy } from './geo.js';

describe('ftidForCid', () => {
  it('carries the CID in its low half and a cell holding the place in its high half', () => {
    for (const cid of ['1', '2', '3', '4', '42', '16519582940102929223', '18446744073709551615']) {
      const ftid = ftidForCid(cid);
      expect(ftid).toMatch(/^0x[0-9a-f]{16}:0x[0-9a-f]{16}$/);
      const [hi, lo] = ftid.split(':').map((half) => BigInt(half));
      expect(lo!.toString()).toBe(cid);
      const place = coordinatesForCid(cid);
      const level = 13 + Number(BigInt(cid) % 4n);
      expect(hi).toBe(s2CellIdFor(place, level));
    }
  });

  it('uses the coordinates it is given', () => {
    const at = { lat: -33.8688, lng: 151.2093 };
    const hi = BigInt(ftidForCid('42', at).split(':')[0]!);
    expect(hi).toBe(s2CellIdFor(at, 15)); // CID 42 draws level 13 + 42 % 4
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
