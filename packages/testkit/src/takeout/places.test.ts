import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coordinatesForCid,
  coordinatesForFtid,
  generateTakeout,
  type GeneratedPlace,
  type LatLng,
  s2CellIdFor,
  s2LevelOf,
} from '../index.js';

const NUMBER = '(-?\\d{1,3}\\.\\d{6,7})';
const DROPPED_PIN = new RegExp(
  `^https://www\\.google\\.com/maps/search/${NUMBER},(\\+?)${NUMBER}$`,
);
const PIN = new RegExp(`!3d${NUMBER}!4d${NUMBER}`);
const CENTRE = new RegExp(`/@${NUMBER},${NUMBER},17z/`);
const FTID = /^0x([0-9a-f]{16}):0x([0-9a-f]{16})$/;

function pair(match: RegExpExecArray | null, lat = 1, lng = 2): LatLng {
  if (!match) throw new Error('no coordinates in URL');
  return { lat: Number(match[lat]), lng: Number(match[lng]) };
}

function inRange({ lat, lng }: LatLng): boolean {
  return lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && !(lat === 0 && lng === 0);
}

/** The ftid's high half is the S2 cell, at level 13–16, that holds where the place really is. */
function expectCellHolds(cell: bigint, position: LatLng | undefined): void {
  const level = s2LevelOf(cell);
  expect(level).toBeGreaterThanOrEqual(13);
  expect(level).toBeLessThanOrEqual(16);
  expect(position && s2CellIdFor(position, level)).toBe(cell);
}

/** Checks one place's URL against what the generator says a converter must find. */
function checkPlace(place: GeneratedPlace): void {
  if (place.expected) expect(inRange(place.expected)).toBe(true);
  if (place.ftid) {
    const [, high, low] = FTID.exec(place.ftid) ?? [];
    expect(place.cid).toBe(BigInt(`0x${low}`).toString());
    expectCellHolds(BigInt(`0x${high}`), place.resolvable);
    expect(place.url).toContain(place.ftid);
    expect(place.resolvable).toEqual(coordinatesForFtid(place.ftid));
  }
  if (place.cid) expect(place.resolvable).toEqual(coordinatesForCid(place.cid));
  switch (place.kind) {
    case 'search':
      expect(['Dropped pin', '']).toContain(place.title);
      expect(pair(DROPPED_PIN.exec(place.url), 1, 3)).toEqual(place.expected);
      expect(place.resolvable).toBeUndefined();
      break;
    case 'pin':
      expect(place.url).not.toContain('/@');
      expect(pair(PIN.exec(place.url))).toEqual(place.expected);
      expect(place.expected).toEqual(place.resolvable);
      break;
    case 'centre': {
      const centre = pair(CENTRE.exec(place.url));
      expect(pair(PIN.exec(place.url))).toEqual(place.expected);
      expect(place.centre).toEqual(centre);
      expect(centre).not.toEqual(place.expected);
      const metres =
        Math.hypot(centre.lat - place.expected!.lat, centre.lng - place.expected!.lng) * 111_000;
      expect(metres).toBeGreaterThan(10);
      expect(metres).toBeLessThan(200);
      break;
    }
    case 'ftid': {
      const segment = /\/maps\/place\/([^/]+)\/data=!4m2!3m1!1s/.exec(place.url)?.[1] ?? '';
      expect(decodeURIComponent(segment.replaceAll('+', ' '))).toBe(place.title);
      expect(place.expected).toBeUndefined();
      break;
    }
    case 'ludocid':
      expect(place.url).toMatch(
        new RegExp(`^https://www\\.google\\.com/search\\?q=.+&ludocid=${place.cid}$`),
      );
      expect(place.expected).toBeUndefined();
      break;
    case 'cid':
      expect(place.url).toBe(`http://maps.google.com/?cid=${place.cid}`);
      expect(place.expected).toBeUndefined();
      break;
    case 'q-address':
      expect(place.url).toMatch(/^https:\/\/maps\.google\.com\/\?q=[^&]+&ftid=0x/);
      expect(place.expected).toBeUndefined();
      break;
    case 'zero':
      expect(place.url).toBe('https://www.google.com/maps/search/0,0');
      expect(place.expected).toBeUndefined();
      break;
    case 'no-link':
      expect(place.url).toBe('');
      expect(place.expected).toBeUndefined();
      break;
    case 'web':
      throw new Error('web rows belong to non-place lists');
  }
}

describe('every place URL says what the place claims', () => {
  it.each([1, 2, 3])('default archive, seed %i', (seed) => {
    const places = generateTakeout({ seed, includeNonPlaceLists: false }).lists.flatMap(
      (l) => l.places,
    );
    places.forEach(checkPlace);
  });

  it('a large mixed list, with both dropped-pin spellings', () => {
    const kinds = { search: 5, pin: 1, centre: 1, ftid: 1, cid: 1, ludocid: 1, 'q-address': 1 };
    const list = generateTakeout({ seed: 77, lists: [{ name: 'Mixed', places: 2000, kinds }] })
      .lists[0];
    list?.places.forEach(checkPlace);
    const pins = list?.places.filter((p) => p.kind === 'search') ?? [];
    expect(pins.some((p) => p.url.includes(',+'))).toBe(true);
    expect(pins.some((p) => !p.url.includes(',+'))).toBe(true);
    expect(pins.some((p) => p.title === '')).toBe(true);
  });

  it('includes address lookups whose numbers look like a pair but are not coordinates', () => {
    const list = generateTakeout({
      seed: 5,
      lists: [{ name: 'Addresses', places: 200, kinds: { 'q-address': 1 } }],
    }).lists[0];
    expect(list?.places.some((p) => /\?q=[^&]*\d,\+\d/.test(p.url))).toBe(true);
    expect(list?.places.every((p) => p.expected === undefined)).toBe(true);
  });
});

describe('ftids', () => {
  it('carry in their high half the S2 cell holding the place, at every level from 13 to 16', () => {
    const list = generateTakeout({
      seed: 11,
      lists: [{ name: 'Ids', places: 400, kinds: { ftid: 1 } }],
    }).lists[0];
    const levels = new Set<number>();
    for (const place of list?.places ?? []) {
      const high = BigInt(place.ftid?.slice(0, 18) ?? '0x0');
      expectCellHolds(high, place.resolvable);
      levels.add(s2LevelOf(high));
    }
    expect(list?.places).toHaveLength(400);
    expect(levels).toEqual(new Set([13, 14, 15, 16]));
  });
});

describe('coordinatesInUrls (benchmarks)', () => {
  it('gives every place coordinates in its URL', () => {
    const list = generateTakeout({
      seed: 3,
      coordinatesInUrls: true,
      lists: [{ name: 'Bench', places: 500 }],
    }).lists[0];
    expect(list?.places.length).toBe(500);
    expect(list?.places.every((p) => p.expected !== undefined)).toBe(true);
    list?.places.forEach(checkPlace);
  });

  // The benchmarks generate 100,000 places this way (and check the count there); whether every
  // place carries its coordinates does not depend on the size, so any seed and size proves it.
  it('gives every place coordinates in its URL, for any seed and size (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 0, max: 300 }),
        (seed, places) => {
          const list = generateTakeout({
            seed,
            coordinatesInUrls: true,
            lists: [{ name: 'Bench', places }],
          }).lists[0];
          expect(list?.places).toHaveLength(places);
          for (const place of list?.places ?? []) {
            expect(place.expected).toBeDefined();
            checkPlace(place);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
