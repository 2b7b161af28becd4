import { generateSavedPlacesJson } from '@placeport/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConverterError, MESSAGES } from './errors.js';
import { isValidCoordinate } from './latlng.js';
import {
  isSavedPlacesJsonPath,
  NO_LOCATION_COMMENT,
  parseSavedPlacesJson,
  SAVED_PLACES_JSON_NAME,
} from './saved-places-json.js';

function errorOf(text: string): ConverterError {
  try {
    parseSavedPlacesJson(text);
  } catch (error) {
    if (error instanceof ConverterError) return error;
    throw error;
  }
  throw new Error('expected a ConverterError');
}

function collection(...features: unknown[]): string {
  return JSON.stringify({ type: 'FeatureCollection', features });
}

function point(lng: unknown, lat: unknown): { type: 'Point'; coordinates: unknown[] } {
  return { type: 'Point', coordinates: [lng, lat] };
}

/** The real new-format example of product.md's brief: a located place and a [0, 0] one. */
const NEW_FORMAT = `{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[-0.1276,51.5072],"type":"Point"},"properties":{"date":"2023-05-01T10:00:00Z","google_maps_url":"http://maps.google.com/?cid=12345678901234567890","location":{"address":"London, UK","country_code":"GB","name":"London Eye"}},"type":"Feature"},{"geometry":{"coordinates":[0,0],"type":"Point"},"properties":{"date":"2022-01-02T00:00:00Z","google_maps_url":"http://maps.google.com/?q=48.8584,2.2945","Comment":"No location information is available for this saved place"},"type":"Feature"}]}`;

const OLD_FEATURE = {
  geometry: point(2.2945, 48.8584),
  properties: {
    'Google Maps URL': 'http://maps.google.com/?cid=1234567890',
    Location: {
      Address: 'Champ de Mars, 5 Av. Anatole France, 75007 Paris, France',
      'Business Name': 'Eiffel Tower',
      'Country Code': 'FR',
      'Geo Coordinates': { Latitude: '48.8584', Longitude: '2.2945' },
    },
    Published: '2019-03-10T18:20:49Z',
    Title: 'Eiffel Tower',
    Updated: '2019-03-10T18:20:49Z',
  },
  type: 'Feature',
};

const FTID_URL =
  'http://maps.google.com/?q=Ermou+10,+Athens+105+63,+Greece&ftid=0x14a1bd3e0e7f0b8b:0x6e9e5b3b0f3a0c1d';

describe('parseSavedPlacesJson: formats', () => {
  it('reads the new format: name, address, Maps URL, geometry as [lng, lat]', () => {
    const parsed = parseSavedPlacesJson(NEW_FORMAT);
    expect(parsed.places).toEqual([
      {
        title: 'London Eye',
        url: 'http://maps.google.com/?cid=12345678901234567890',
        note: 'London, UK',
        coordinates: { lat: 51.5072, lng: -0.1276 },
      },
      { title: '', url: 'http://maps.google.com/?q=48.8584,2.2945' },
    ]);
    expect(parsed.columns).toEqual([]);
    expect(parsed.description).toBeUndefined();
  });

  it('leaves [0, 0] places without coordinates and keeps their URL for the pipeline', () => {
    const parsed = parseSavedPlacesJson(
      collection(
        {
          type: 'Feature',
          geometry: point(0, 0),
          properties: { google_maps_url: ' http://maps.google.com/?q=48.8584,2.2945 ' },
        },
        {
          type: 'Feature',
          geometry: point(0, 0),
          properties: { google_maps_url: FTID_URL, location: { name: 'Ermou 10' } },
        },
      ),
    );
    expect(parsed.places.map((p) => [p.title, p.url, p.coordinates])).toEqual([
      ['', 'http://maps.google.com/?q=48.8584,2.2945', undefined],
      ['Ermou 10', FTID_URL, undefined],
    ]);
  });

  it('reads the old format, taking Geo Coordinates (strings) when the geometry is [0, 0]', () => {
    const zero = { ...OLD_FEATURE, geometry: point(0, 0) };
    const parsed = parseSavedPlacesJson(collection(OLD_FEATURE, zero));
    const expected = {
      title: 'Eiffel Tower',
      url: 'http://maps.google.com/?cid=1234567890',
      note: 'Champ de Mars, 5 Av. Anatole France, 75007 Paris, France',
      coordinates: { lat: 48.8584, lng: 2.2945 },
    };
    expect(parsed.places).toEqual([expected, expected]);
  });

  it('prefers the geometry over Geo Coordinates, and reads Geo Coordinates given as numbers', () => {
    const geo = { Latitude: 1.5, Longitude: 2.5 };
    const located = { ...OLD_FEATURE.properties.Location, 'Geo Coordinates': geo };
    const withGeometry = { ...OLD_FEATURE, properties: { Location: located } };
    const withoutGeometry = { type: 'Feature', properties: { Location: located } };
    const [a, b] = parseSavedPlacesJson(collection(withGeometry, withoutGeometry)).places;
    expect(a?.coordinates).toEqual({ lat: 48.8584, lng: 2.2945 });
    expect(b?.coordinates).toEqual({ lat: 1.5, lng: 2.5 });
  });

  it('takes the title from location.name, then Business Name, then Title, trimmed', () => {
    const titled = (properties: object) => ({ type: 'Feature', properties });
    const parsed = parseSavedPlacesJson(
      collection(
        titled({ location: { name: '  Café Luna ' }, Title: 'not this' }),
        titled({ Location: { 'Business Name': 'Bar Nord' }, Title: 'not this' }),
        titled({ Title: ' Old title ', Location: { 'Business Name': '   ' } }),
        titled({ location: { name: '' } }),
        titled({}),
      ),
    );
    expect(parsed.places.map((p) => p.title)).toEqual([
      'Café Luna',
      'Bar Nord',
      'Old title',
      '',
      '',
    ]);
  });

  it("keeps the person's comment and drops Google's no-location boilerplate", () => {
    const commented = (Comment: string) => ({ type: 'Feature', properties: { Comment } });
    const parsed = parseSavedPlacesJson(
      collection(
        commented(' Go early '),
        commented(NO_LOCATION_COMMENT),
        commented(`${NO_LOCATION_COMMENT}.`),
        commented(''),
        // A German account's file says it in German.
        commented('Für diesen gespeicherten Ort sind keine Informationen verfügbar.'),
      ),
    );
    expect(parsed.places.map((p) => p.comment)).toEqual([
      'Go early',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('parseSavedPlacesJson: input it must survive', () => {
  it('strips a byte-order mark', () => {
    expect(parseSavedPlacesJson(`\uFEFF${NEW_FORMAT}`).places).toHaveLength(2);
  });

  it('counts every feature as a place, even one with no geometry, title or URL', () => {
    const parsed = parseSavedPlacesJson(
      collection(
        { type: 'Feature', properties: { location: { name: 'No geometry' } } },
        {
          type: 'Feature',
        },
        { type: 'Feature', geometry: null, properties: null },
      ),
    );
    expect(parsed.places).toEqual([
      { title: 'No geometry', url: '' },
      { title: '', url: '' },
      {
        title: '',
        url: '',
      },
    ]);
  });

  it('refuses text that is not JSON with the json-parse error', () => {
    for (const text of ['', 'Title,URL\nA,b', '{"type":"FeatureCollection",', '\uFEFF']) {
      const error = errorOf(text);
      expect(error.code).toBe('json-parse');
      expect(error.message).toBe(MESSAGES.jsonParse);
    }
  });

  it('refuses JSON that is not a FeatureCollection', () => {
    const notCollections = [
      'null',
      '[]',
      '"FeatureCollection"',
      '{}',
      '{"type":"Feature","geometry":null,"properties":{}}',
      '{"type":"FeatureCollection"}',
      '{"type":"FeatureCollection","features":{}}',
      '{"type":"featurecollection","features":[]}',
    ];
    for (const text of notCollections) expect(errorOf(text).code).toBe('json-parse');
  });

  it('refuses a FeatureCollection without features with the no-places error', () => {
    const error = errorOf('{"type":"FeatureCollection","features":[]}');
    expect(error.code).toBe('csv-empty');
    expect(error.message).toBe(MESSAGES.jsonEmpty);
  });

  it('ignores coordinates out of range, NaN-like or not numbers at all', () => {
    const at = (geometry: unknown, geo?: unknown) => ({
      type: 'Feature',
      geometry,
      properties: geo === undefined ? {} : { Location: { 'Geo Coordinates': geo } },
    });
    const parsed = parseSavedPlacesJson(
      collection(
        at(point(10, 91)),
        at(point(180.5, 10)),
        at(point(1e308, 1e308)),
        at({ type: 'Point', coordinates: [10] }),
        at(point(0, 0), { Latitude: 'NaN', Longitude: 'NaN' }),
        at(point(0, 0), { Latitude: 'Infinity', Longitude: '1' }),
        at(point(0, 0), { Latitude: '0x10', Longitude: '0x10' }),
        at(point(0, 0), { Latitude: '', Longitude: '' }),
        at(point(0, 0), { Latitude: '-90', Longitude: '180' }),
      ),
    );
    expect(parsed.places.map((p) => p.coordinates)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { lat: -90, lng: 180 },
    ]);
  });

  it('treats numbers too large for a double as missing, not as Infinity degrees', () => {
    const text =
      '{"type":"FeatureCollection","features":[{"geometry":{"type":"Point","coordinates":[1e400,-1e400]}}]}';
    expect(parseSavedPlacesJson(text).places[0]?.coordinates).toBeUndefined();
  });

  it('drops fields of the wrong type and keeps the rest', () => {
    const parsed = parseSavedPlacesJson(
      collection(
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [[1, 2]] },
          properties: {
            google_maps_url: 42,
            location: { name: 'Kept', address: ['not', 'text'] },
            Comment: 'Kept too',
          },
        },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [1, 2] } },
        'not a feature',
        { type: 'Feature', properties: { location: 'Paris' }, extra: { anything: true } },
      ),
    );
    expect(parsed.places).toEqual([
      { title: 'Kept', url: '', comment: 'Kept too' },
      { title: '', url: '' },
      { title: '', url: '' },
      { title: '', url: '' },
    ]);
  });
});

describe('parseSavedPlacesJson: generated files', () => {
  it("reads the testkit's files of both formats as the generator says", () => {
    for (const format of ['old', 'new'] as const) {
      const generated = generateSavedPlacesJson(21, 1000, format);
      const parsed = parseSavedPlacesJson(generated.text);
      expect(parsed.places).toHaveLength(1000);
      generated.places.forEach((place, i) => {
        const comment = place.comment === NO_LOCATION_COMMENT ? undefined : place.comment;
        expect(parsed.places[i]).toEqual({
          title: place.title?.trim() ?? '',
          url: place.url,
          note: place.address,
          comment,
          // A [0, 0] place is left to the pipeline, even when its URL holds the pair.
          coordinates: place.zero ? undefined : place.expected,
        });
      });
    }
  });
});

describe('parseSavedPlacesJson: properties', () => {
  const degrees = (max: number) =>
    fc
      .double({ min: -max, max, noNaN: true, noDefaultInfinity: true })
      .map((x) => (x === 0 ? 0 : x));
  const feature = fc.record({
    format: fc.constantFrom('old', 'new'),
    title: fc.string({ maxLength: 20 }),
    address: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    lat: degrees(90),
    lng: degrees(180),
    /** Where the coordinates go: the geometry, a [0, 0] geometry (old format: plus Geo Coordinates) or none. */
    where: fc.constantFrom('geometry', 'zero', 'none'),
  });
  type Generated = typeof feature extends fc.Arbitrary<infer T> ? T : never;

  function write(f: Generated): object {
    const geometry = f.where === 'geometry' ? point(f.lng, f.lat) : point(0, 0);
    if (f.format === 'new') {
      return {
        type: 'Feature',
        geometry,
        properties: {
          date: '2023-05-01T10:00:00Z',
          google_maps_url: 'http://maps.google.com/?cid=1',
          location: { name: f.title, address: f.address },
        },
      };
    }
    const geo = { Latitude: String(f.lat), Longitude: String(f.lng) };
    return {
      type: 'Feature',
      geometry,
      properties: {
        Title: f.title,
        'Google Maps URL': 'http://maps.google.com/?cid=1',
        Location: {
          'Business Name': f.title,
          Address: f.address,
          ...(f.where === 'zero' ? { 'Geo Coordinates': geo } : {}),
        },
      },
    };
  }

  function expectedCoordinates(f: Generated) {
    const located = f.where === 'geometry' || (f.where === 'zero' && f.format === 'old');
    return located && isValidCoordinate(f.lat, f.lng) ? { lat: f.lat, lng: f.lng } : undefined;
  }

  it('gives one place per feature, with the coordinates written', () => {
    fc.assert(
      fc.property(fc.array(feature, { minLength: 1, maxLength: 20 }), (features) => {
        const parsed = parseSavedPlacesJson(collection(...features.map(write)));
        expect(parsed.places).toHaveLength(features.length);
        features.forEach((f, i) => {
          const place = parsed.places[i]!;
          expect(place.coordinates).toEqual(expectedCoordinates(f));
          expect(place.title).toBe(f.title.trim());
          expect(place.url).toBe('http://maps.google.com/?cid=1');
        });
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary JSON features, and counts each one', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 10 }), (features) => {
        const parsed = parseSavedPlacesJson(collection(...features));
        expect(parsed.places).toHaveLength(features.length);
        for (const place of parsed.places) {
          expect(typeof place.title).toBe('string');
          expect(typeof place.url).toBe('string');
          if (place.coordinates) {
            expect(isValidCoordinate(place.coordinates.lat, place.coordinates.lng)).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('isSavedPlacesJsonPath', () => {
  it('matches the file name in any folder and any case, with either separator', () => {
    expect(SAVED_PLACES_JSON_NAME).toBe('Saved Places.json');
    for (const path of [
      'Saved Places.json',
      'Takeout/Maps (your places)/Saved Places.json',
      'Takeout\\Maps (your places)\\saved places.JSON',
      'a/b\\SAVED PLACES.json',
    ]) {
      expect(isSavedPlacesJsonPath(path)).toBe(true);
    }
    for (const path of [
      'Takeout/Saved/Saved Places.csv',
      'Takeout/Saved Places.json/x.json',
      'My Saved Places.json',
      'Saved Places.json.bak',
      '',
    ]) {
      expect(isSavedPlacesJsonPath(path)).toBe(false);
    }
  });
});
