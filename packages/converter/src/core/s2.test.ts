import { s2CellIdFor } from '@placeport/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  distanceMetres,
  isPlausibleForFtid,
  s2CellOfFtid,
  WEAK_EVIDENCE_MAX_METRES,
} from './s2.js';
import type { LatLng } from './types.js';

const CYPRUS_FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CYPRUS: LatLng = { lat: 34.6705954, lng: 33.0424567 };
const GALLERY_FTID = '0x487604ce176ac979:0x42af85654e23a0b4';
const NATIONAL_GALLERY: LatLng = { lat: 51.508929, lng: -0.128299 };

/** An ftid whose high half is `cell` (the low half does not matter to S2). */
function ftidOf(cell: bigint): string {
  return `0x${cell.toString(16)}:0x1`;
}

/** The level-0 cell of `face`: the face bits, then the level marker at bit 60. */
function faceCell(face: number): string {
  return ftidOf((BigInt(face) << 61n) | (1n << 60n));
}

/** Angle in degrees as a distance along the Earth's surface (mean radius). */
function arcMetres(degrees: number): number {
  return ((degrees * Math.PI) / 180) * 6_371_008.8;
}

describe('s2CellOfFtid', () => {
  it.each([
    [CYPRUS_FTID, CYPRUS],
    [GALLERY_FTID, NATIONAL_GALLERY],
  ])('decodes %s to a leaf cell within 50 m of the place', (ftid, place) => {
    const cell = s2CellOfFtid(ftid);
    expect(cell?.level).toBe(30);
    expect(cell && distanceMetres(cell.centre, place)).toBeLessThan(50);
    expect(cell?.radiusMetres).toBeLessThan(0.01);
    expect(s2CellOfFtid(ftid.toUpperCase().replaceAll('0X', '0x'))).toEqual(cell);
  });

  it('puts each face cell at the centre of its cube face', () => {
    const centres: LatLng[] = [
      { lat: 0, lng: 0 },
      { lat: 0, lng: 90 },
      { lat: 90, lng: 0 },
      { lat: 0, lng: 180 },
      { lat: 0, lng: -90 },
      { lat: -90, lng: 0 },
    ];
    centres.forEach((centre, face) => {
      const cell = s2CellOfFtid(faceCell(face));
      expect(cell?.level).toBe(0);
      expect(cell && distanceMetres(cell.centre, centre)).toBeLessThan(1e-6);
      // A face's corners are acos(1/√3) ≈ 54.7° from its centre.
      expect(cell?.radiusMetres).toBeCloseTo(
        arcMetres((Math.acos(1 / Math.sqrt(3)) * 180) / Math.PI),
        3,
      );
    });
  });

  it('follows the Hilbert curve over the four level-1 cells of face 0', () => {
    // Their centres are at s, t = 1/4 or 3/4, so u, v = ∓5/12: lat = ±atan(5/13), lng = ±atan(5/12).
    const lat = (Math.atan(5 / 13) * 180) / Math.PI;
    const lng = (Math.atan(5 / 12) * 180) / Math.PI;
    const expected: Array<[string, LatLng]> = [
      ['0x0400000000000000:0x1', { lat: -lat, lng: -lng }],
      ['0x0c00000000000000:0x1', { lat, lng: -lng }],
      ['0x1400000000000000:0x1', { lat, lng }],
      ['0x1c00000000000000:0x1', { lat: -lat, lng }],
    ];
    for (const [ftid, centre] of expected) {
      const cell = s2CellOfFtid(ftid);
      expect(cell?.level).toBe(1);
      expect(cell?.centre.lat).toBeCloseTo(centre.lat, 12);
      expect(cell?.centre.lng).toBeCloseTo(centre.lng, 12);
    }
  });

  it('reads short high halves as numbers: 0x1 is the corner leaf cell of face 0', () => {
    const cell = s2CellOfFtid('0x1:0x2');
    expect(cell?.level).toBe(30);
    expect(cell?.centre.lat).toBeCloseTo((-Math.atan(Math.SQRT1_2) * 180) / Math.PI, 6);
    expect(cell?.centre.lng).toBeCloseTo(-45, 6);
    expect(s2CellOfFtid('0x0000000000000001:0x2')).toEqual(cell);
  });

  it('refuses text that is not an ftid', () => {
    for (const text of [
      '',
      '0x14e732fd76f0d90d',
      '14e732fd76f0d90d:0xe5415928d6702b47',
      '0x:0x1',
      '0x1:0x',
      '0x10000000000000001:0x1',
      '0x1:0x10000000000000001',
      '0x1g:0x1',
      ` ${CYPRUS_FTID}`,
      `${CYPRUS_FTID}!8m2`,
      'ChIJDdnwdv0y5xQRRytw1ihZQeU',
    ]) {
      expect(s2CellOfFtid(text)).toBeUndefined();
    }
  });

  it('refuses high halves that are not cell ids (face 6 or 7, no level bit at 0, 2, …, 60)', () => {
    for (const ftid of [
      '0xd000000000000000:0x1',
      '0xf000000000000000:0x1',
      '0xc000000000000001:0x1',
      '0x0:0x1',
      '0x2:0x1',
      '0x14e732fd76f0d908:0x1',
      '0x8000000000000000:0x1',
      '0x4000000000000000:0x1',
    ]) {
      expect(s2CellOfFtid(ftid)).toBeUndefined();
    }
  });

  it('decodes the cell of any point back to a cell holding it, at its level (property)', () => {
    const point = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(point, fc.integer({ min: 10, max: 30 }), (p, level) => {
        const id = s2CellIdFor(p, level);
        const cell = s2CellOfFtid(ftidOf(id));
        expect(cell?.level).toBe(level);
        if (!cell) return;
        expect(distanceMetres(cell.centre, p)).toBeLessThanOrEqual(cell.radiusMetres + 1e-6);
        expect(s2CellIdFor(cell.centre, level)).toBe(id);
      }),
      { numRuns: 200 },
    );
  });
});

describe('distanceMetres', () => {
  it('matches known distances', () => {
    const london = { lat: 51.5074, lng: -0.1278 };
    const paris = { lat: 48.8566, lng: 2.3522 };
    expect(Math.abs(distanceMetres(london, paris) - 343_500)).toBeLessThan(1_000);
    expect(distanceMetres(paris, london)).toBe(distanceMetres(london, paris));
    expect(distanceMetres(london, london)).toBe(0);
    expect(distanceMetres({ lat: 0, lng: 0 }, { lat: 90, lng: 0 })).toBeCloseTo(arcMetres(90), 3);
    expect(distanceMetres({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(arcMetres(180), 3);
    expect(distanceMetres({ lat: 0, lng: 179.5 }, { lat: 0, lng: -179.5 })).toBeCloseTo(
      arcMetres(1),
      3,
    );
  });
});

describe('isPlausibleForFtid', () => {
  /** The point `metres` due north of `from`. */
  const north = (from: LatLng, metres: number): LatLng => ({
    lat: from.lat + metres / arcMetres(1),
    lng: from.lng,
  });

  it('accepts the public places and points up to 20 km from their cells', () => {
    expect(isPlausibleForFtid(CYPRUS_FTID, CYPRUS)).toBe(true);
    expect(isPlausibleForFtid(GALLERY_FTID, NATIONAL_GALLERY)).toBe(true);
    const centre = s2CellOfFtid(GALLERY_FTID)!.centre;
    expect(isPlausibleForFtid(GALLERY_FTID, north(centre, WEAK_EVIDENCE_MAX_METRES - 1))).toBe(
      true,
    );
    expect(isPlausibleForFtid(GALLERY_FTID, north(centre, WEAK_EVIDENCE_MAX_METRES + 1))).toBe(
      false,
    );
  });

  it('refuses a point in another town or continent', () => {
    expect(isPlausibleForFtid(GALLERY_FTID, { lat: 51.752, lng: -1.2577 })).toBe(false);
    expect(isPlausibleForFtid(CYPRUS_FTID, NATIONAL_GALLERY)).toBe(false);
  });

  it('allows the radius of a large cell on top of the 20 km', () => {
    const face = s2CellOfFtid(faceCell(0))!;
    const edge = north(face.centre, WEAK_EVIDENCE_MAX_METRES + face.radiusMetres - 1);
    expect(isPlausibleForFtid(faceCell(0), edge)).toBe(true);
    expect(isPlausibleForFtid(faceCell(0), { lat: 0, lng: 180 })).toBe(false);
  });

  it('refuses every point when the ftid carries no valid cell', () => {
    expect(isPlausibleForFtid('0x0:0x1', { lat: 0.0001, lng: 0 })).toBe(false);
    expect(isPlausibleForFtid('not an ftid', NATIONAL_GALLERY)).toBe(false);
  });
});
