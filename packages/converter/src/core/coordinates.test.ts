import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractCoordinates, resolvedUrlFor } from './coordinates.js';
import { formatDegrees, isValidCoordinate, toKmlCoordinates, toLatLng } from './latlng.js';

describe('extractCoordinates', () => {
  it.each([
    [
      'dropped pin',
      'https://www.google.com/maps/search/48.858370,2.294481',
      48.85837,
      2.294481,
      'explicit',
    ],
    [
      'dropped pin with +',
      'https://www.google.com/maps/search/-33.8567844,+151.2152967',
      -33.8567844,
      151.2152967,
      'explicit',
    ],
    [
      'encoded space',
      'https://www.google.com/maps/search/35.6586%2C%20139.7454',
      35.6586,
      139.7454,
      'explicit',
    ],
    ['q=', 'https://maps.google.com/?q=40.6892,-74.0445', 40.6892, -74.0445, 'explicit'],
    [
      'query=',
      'https://www.google.com/maps/search/?api=1&query=51.5007,-0.1246&query_place_id=ChIJ1234567890',
      51.5007,
      -0.1246,
      'explicit',
    ],
    ['ll=', 'https://maps.google.com/maps?ll=41.8902,12.4922&z=15', 41.8902, 12.4922, 'explicit'],
    [
      'center=',
      'https://www.google.com/maps/@?api=1&map_action=map&center=-22.9519,-43.2105',
      -22.9519,
      -43.2105,
      'explicit',
    ],
    [
      'centre only',
      'https://www.google.com/maps/place/Eiffel/@48.8583701,2.2922926,17z',
      48.8583701,
      2.2922926,
      'centre',
    ],
    ['plain pair text', '12.5, -70.25', 12.5, -70.25, 'explicit'],
  ] as const)('reads %s', (_name, url, lat, lng, source) => {
    expect(extractCoordinates(url)).toEqual({ coordinates: { lat, lng }, source });
  });

  it('trusts the pin over the map centre (product.md precedence)', () => {
    const url =
      'https://www.google.com/maps/place/Tour+Eiffel/@48.8583701,2.2922926,17z/data=!3m1!4b1!4m6!3m5!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0!8m2!3d48.8583701!4d2.2944813';
    expect(extractCoordinates(url)).toEqual({
      coordinates: { lat: 48.8583701, lng: 2.2944813 },
      source: 'pin',
    });
  });

  it('takes the last valid pin when a URL holds several', () => {
    const url =
      'https://www.google.com/maps/place/x/data=!3d1.5!4d2.5!1s0x1:0x2!3d95!4d2!8m2!3d3.25!4d4.75';
    expect(extractCoordinates(url)?.coordinates).toEqual({ lat: 3.25, lng: 4.75 });
    expect(
      extractCoordinates('https://www.google.com/maps/place/x/data=!3d1.5!4d2.5!3d95!4d2')
        ?.coordinates,
    ).toEqual({ lat: 1.5, lng: 2.5 });
  });

  it('trusts an explicit pair over the centre', () => {
    expect(
      extractCoordinates('https://www.google.com/maps/search/10.5,20.5/@11,21,12z')?.coordinates,
    ).toEqual({ lat: 10.5, lng: 20.5 });
  });

  it.each([
    [
      'ftid only',
      'https://www.google.com/maps/place/Caf%C3%A9/data=!4m2!3m1!1s0x14e732fd76f0d90d:0xe5415928d6702b47',
    ],
    ['latitude out of range', 'https://www.google.com/maps/search/91.0,10.0'],
    ['longitude out of range', 'https://www.google.com/maps/search/10.0,181.0'],
    ['zero is "no location"', 'https://www.google.com/maps/search/0,0'],
    ['zero with decimals', 'https://www.google.com/maps/search/0.000000,0.000000'],
    ['address query', 'https://maps.google.com/?q=10+Downing+St,+London'],
    ['empty', ''],
    ['not a URL', 'hello world'],
  ])('finds nothing in %s', (_name, url) => {
    expect(extractCoordinates(url)).toBeUndefined();
  });

  it('accepts the range edges', () => {
    expect(extractCoordinates('https://www.google.com/maps/search/90,180')?.coordinates).toEqual({
      lat: 90,
      lng: 180,
    });
    expect(extractCoordinates('https://www.google.com/maps/search/-90,-180')?.coordinates).toEqual({
      lat: -90,
      lng: -180,
    });
  });

  const latitude = fc
    .double({ min: -90, max: 90, noNaN: true })
    .map((n) => Number(n.toFixed(7)) + 0);
  const longitude = fc
    .double({ min: -180, max: 180, noNaN: true })
    .map((n) => Number(n.toFixed(7)) + 0);

  it('reads the last valid pin exactly as the pattern !3d(NUMBER)!4d(NUMBER) matches it (property)', () => {
    // The pattern the hand-written reader replaced, read the way it was: the last valid match wins.
    const number = String.raw`[-+]?\d{1,3}(?:\.\d+)?`;
    const pin = new RegExp(String.raw`!3d(${number})!4d(${number})`, 'y');
    const byPattern = (url: string) => {
      for (
        let at = url.lastIndexOf('!3d');
        at >= 0;
        at = at > 0 ? url.lastIndexOf('!3d', at - 1) : -1
      ) {
        pin.lastIndex = at;
        const match = pin.exec(url);
        const point = match ? toLatLng(match[1]!, match[2]!) : undefined;
        if (point) return point;
      }
      return undefined;
    };
    const piece = fc.constantFrom(
      '!3d',
      '!4d',
      '!3d4',
      '!4d-',
      '-',
      '+',
      '.',
      '0',
      '1',
      '5',
      '9',
      '12',
      '123',
      '1234',
      '.5',
      '.05',
      '.0000000000000001',
      '.1234567890123',
      '0099',
      'x',
      '!',
      '%2F',
      '٣',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const url = `https://www.google.com/maps/place/x/data=${pieces.join('')}`;
        const expected = byPattern(url);
        const found = extractCoordinates(url);
        if (expected) expect(found).toEqual({ coordinates: expected, source: 'pin' });
        else expect(found?.source).not.toBe('pin');
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a pin's numbers exactly as Number reads their text, however many digits (property)", () => {
    const digits = (min: number, max: number) =>
      fc
        .array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max })
        .map((d) => d.join(''));
    const number = fc
      .tuple(fc.constantFrom('', '-', '+'), digits(1, 3), fc.option(digits(1, 20)))
      .map(
        ([sign, whole, fraction]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}`,
      );
    fc.assert(
      fc.property(number, number, (lat, lng) => {
        const expected = toLatLng(Number(lat), Number(lng));
        const found = extractCoordinates(
          `https://www.google.com/maps/place/x/data=!3d${lat}!4d${lng}`,
        );
        if (expected) expect(found).toEqual({ coordinates: expected, source: 'pin' });
        else expect(found?.source).not.toBe('pin');
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips any valid coordinate through every URL form (property)', () => {
    fc.assert(
      fc.property(latitude, longitude, (lat, lng) => {
        fc.pre(isValidCoordinate(lat, lng));
        const expected = { lat, lng };
        const [la, ln] = [formatDegrees(lat), formatDegrees(lng)];
        expect(
          extractCoordinates(`https://www.google.com/maps/search/${la},+${ln}`)?.coordinates,
        ).toEqual(expected);
        expect(
          extractCoordinates(`https://www.google.com/maps/place/x/data=!3d${la}!4d${ln}`)
            ?.coordinates,
        ).toEqual(expected);
        expect(
          extractCoordinates(`https://www.google.com/maps/@${la},${ln},17z`)?.coordinates,
        ).toEqual(expected);
        expect(toKmlCoordinates(expected).split(',').map(Number)).toEqual([lng, lat, 0]);
        expect(
          extractCoordinates(resolvedUrlFor(expected, 'ChIJDdnwdv0y5xQRRytw1ihZQeU'))?.coordinates,
        ).toEqual(expected);
      }),
    );
  });
});

describe('formatDegrees', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [180, '180'],
    [-90, '-90'],
    [48.8583701, '48.8583701'],
    [2.5, '2.5'],
    [-0.0000001, '-0.0000001'],
    [1e-7, '0.0000001'],
    [12.123456789, '12.1234568'],
    [0.00000004, '0'],
    [-33.85678449, '-33.8567845'],
  ])('writes %d as %s', (value, text) => {
    expect(formatDegrees(value)).toBe(text);
  });
});

describe('toKmlCoordinates', () => {
  it('writes longitude first', () => {
    expect(toKmlCoordinates({ lat: 48.85, lng: 2.29 })).toBe('2.29,48.85,0');
    expect(toKmlCoordinates({ lat: -0.0000001, lng: 1e-7 })).toBe('0.0000001,-0.0000001,0');
  });
});

describe('resolvedUrlFor', () => {
  it('makes a URL for coordinates at the ends of their ranges', () => {
    expect(resolvedUrlFor({ lat: 90, lng: -180 })).toBe(
      'https://www.google.com/maps/search/?api=1&query=90,-180',
    );
    expect(resolvedUrlFor({ lat: -90, lng: 180 })).toBe(
      'https://www.google.com/maps/search/?api=1&query=-90,180',
    );
  });

  it.each([
    [NaN, 2],
    [2, NaN],
    [Infinity, 2],
    [90.0000001, 2],
    [-90.0000001, 2],
    [200, 2],
    [2, 180.0000001],
    [2, -180.0000001],
    [0, 0],
  ])('refuses latitude %d, longitude %d, which is no place, with a sentence', (lat, lng) => {
    expect(() => resolvedUrlFor({ lat, lng })).toThrow(
      new RangeError(
        `Latitude ${lat} and longitude ${lng} are not a place on Earth: a latitude is a number from -90 to 90, a longitude one from -180 to 180, and 0, 0 means "no location". Answer the link as not_found instead of making a URL for it.`,
      ),
    );
  });
});
