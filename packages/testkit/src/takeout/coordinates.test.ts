import { describe, expect, it } from 'vitest';
import {
  coordinatesForCid,
  coordinatesForFtid,
  MAX_GENERATED_LATITUDE,
  randomPosition,
  writtenFromUnits,
} from './coordinates.js';
import { randomIdentity } from './ftid.js';
import { Random } from './random.js';

const DECIMALS = /^-?\d{1,3}\.\d{6,7}$/;

describe('coordinatesForFtid', () => {
  const ftid = '0x14e732fd76f0d90d:0xe5415928d6702b47';

  it('is deterministic and depends only on the CID half', () => {
    expect(coordinatesForFtid(ftid)).toEqual(coordinatesForFtid(ftid));
    expect(coordinatesForFtid('0x1:0xe5415928d6702b47')).toEqual(coordinatesForFtid(ftid));
    expect(coordinatesForFtid(ftid.toUpperCase().replaceAll('0X', '0x'))).toEqual(
      coordinatesForFtid(ftid),
    );
    expect(coordinatesForCid('16519582940102929223')).toEqual(coordinatesForFtid(ftid));
    expect(coordinatesForCid(16519582940102929223n)).toEqual(coordinatesForFtid(ftid));
    expect(coordinatesForFtid('0x1:0x2')).not.toEqual(coordinatesForFtid('0x1:0x3'));
  });

  it('stays in range, never (0, 0), over many random ids', () => {
    const random = new Random(99);
    for (let i = 0; i < 500; i++) {
      const { ftid: id, cid, position } = randomIdentity(random);
      const { lat, lng } = coordinatesForFtid(id);
      expect(Math.abs(lat)).toBeLessThanOrEqual(MAX_GENERATED_LATITUDE);
      expect(lng).toBeGreaterThanOrEqual(-180);
      expect(lng).toBeLessThan(180);
      expect(lat === 0 && lng === 0).toBe(false);
      expect({ lat, lng }).toEqual({ lat: position.lat, lng: position.lng });
      expect(coordinatesForCid(cid)).toEqual({ lat, lng });
      expect(position.latText).toMatch(DECIMALS);
      expect(position.lngText).toMatch(DECIMALS);
    }
  });

  it('refuses malformed ids and CIDs out of the 64-bit range', () => {
    expect(() => coordinatesForFtid('ChIJDdnwdv0y5xQRRytw1ihZQeU')).toThrow(RangeError);
    expect(() => coordinatesForFtid('0x1:0x0')).toThrow(RangeError);
    expect(() => coordinatesForFtid('0x1:0x10000000000000000')).toThrow(RangeError);
    expect(() => coordinatesForCid('0')).toThrow(RangeError);
    expect(() => coordinatesForCid('18446744073709551616')).toThrow(RangeError);
    expect(() => coordinatesForCid('12a')).toThrow(RangeError);
    expect(coordinatesForCid('18446744073709551615').lat).toEqual(expect.any(Number));
  });
});

describe('written positions', () => {
  it('write fixed-point text whose numbers are exactly the reported ones', () => {
    expect(writtenFromUnits(-1234, 5, 6)).toEqual({
      lat: -0.001234,
      lng: 0.000005,
      latText: '-0.001234',
      lngText: '0.000005',
    });
    expect(writtenFromUnits(1_799_999_999, -1_800_000_000, 7).lngText).toBe('-180.0000000');
  });

  it('random positions are valid with 6 or 7 decimals, both signs occurring', () => {
    const random = new Random(4);
    const signs = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const p = randomPosition(random);
      expect(p.latText).toMatch(DECIMALS);
      expect(Number(p.latText)).toBe(p.lat);
      expect(Math.abs(p.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(p.lng)).toBeLessThanOrEqual(180);
      signs.add(`${Math.sign(p.lat)}${Math.sign(p.lng)}`);
    }
    expect(signs).toEqual(new Set(['11', '1-1', '-11', '-1-1']));
  });
});
