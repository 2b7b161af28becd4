import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  coordinatesForCid,
  generateSavedPlacesJson,
  generateTakeout,
  NO_LOCATION_COMMENT,
  SAVED_PLACES_JSON_PATH,
  savedPlacesJson,
} from '../index.js';

interface Feature {
  type: string;
  geometry: { type: string; coordinates: [number, number] };
  properties: Record<string, unknown> & {
    location?: { name?: string; address?: string };
    Location?: {
      'Business Name'?: string;
      Address?: string;
      'Geo Coordinates'?: { Latitude: string; Longitude: string };
    };
  };
}

function features(text: string): Feature[] {
  const json = JSON.parse(text) as { type: string; features: Feature[] };
  expect(json.type).toBe('FeatureCollection');
  return json.features;
}

const FTID = '0x14a1bd3e0e7f0b8b:0x6e9e5b3b0f3a0c1d';

describe('savedPlacesJson', () => {
  it('writes the new format with each URL form, [lng, lat] and [0, 0]', () => {
    const text = savedPlacesJson({
      format: 'new',
      places: [
        { title: 'London Eye', address: 'London, UK', lat: 51.5072, lng: -0.1276, cid: '123' },
        { title: 'Ermou', address: 'Ermou 10, Athens', ftid: FTID, zero: true, comment: 'c' },
        { lat: 48.8584, lng: 2.2945, zero: true, urlKind: 'latlng' },
        {},
      ],
    });
    const [eye, ermou, pin, bare] = features(text);
    expect(eye).toEqual({
      geometry: { coordinates: [-0.1276, 51.5072], type: 'Point' },
      properties: {
        date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) as unknown,
        google_maps_url: 'http://maps.google.com/?cid=123',
        location: { address: 'London, UK', name: 'London Eye' },
      },
      type: 'Feature',
    });
    expect(ermou?.geometry.coordinates).toEqual([0, 0]);
    expect(ermou?.properties.google_maps_url).toBe(
      `http://maps.google.com/?q=Ermou+10,+Athens&ftid=${FTID}`,
    );
    expect(ermou?.properties.Comment).toBe('c');
    expect(pin?.geometry.coordinates).toEqual([0, 0]);
    expect(pin?.properties.google_maps_url).toBe('http://maps.google.com/?q=48.8584,2.2945');
    expect(bare?.geometry.coordinates).toEqual([0, 0]);
    expect(Object.keys(bare?.properties ?? {})).toEqual(['date']);
  });

  it('writes the old format with Location, Geo Coordinates as strings and a cid URL', () => {
    const text = savedPlacesJson({
      format: 'old',
      places: [
        { title: 'Eiffel Tower', address: 'Paris', lat: 48.8584, lng: 2.2945, cid: '42' },
        { title: 'Unknown', cid: '43', lat: 1, lng: 2, zero: true },
      ],
    });
    const [tower, unknown] = features(text);
    expect(tower?.geometry.coordinates).toEqual([2.2945, 48.8584]);
    expect(tower?.properties).toMatchObject({
      'Google Maps URL': 'http://maps.google.com/?cid=42',
      Title: 'Eiffel Tower',
      Location: {
        Address: 'Paris',
        'Business Name': 'Eiffel Tower',
        'Geo Coordinates': { Latitude: '48.8584', Longitude: '2.2945' },
      },
    });
    expect(tower?.properties.Published).toBe(tower?.properties.Updated);
    expect(unknown?.geometry.coordinates).toEqual([0, 0]);
    expect(unknown?.properties.Location?.['Geo Coordinates']).toBeUndefined();
  });

  it('refuses a URL kind without its data, and half a coordinate pair', () => {
    expect(() => savedPlacesJson({ format: 'new', places: [{ urlKind: 'cid' }] })).toThrow(
      RangeError,
    );
    expect(() => savedPlacesJson({ format: 'new', places: [{ urlKind: 'ftid' }] })).toThrow(
      RangeError,
    );
    expect(() => savedPlacesJson({ format: 'new', places: [{ urlKind: 'latlng' }] })).toThrow(
      RangeError,
    );
    expect(() => savedPlacesJson({ format: 'old', places: [{ lat: 1 }] })).toThrow(RangeError);
  });
});

describe('generateSavedPlacesJson', () => {
  it('is deterministic for a seed and round-trips through JSON.parse', () => {
    for (const format of ['old', 'new'] as const) {
      const a = generateSavedPlacesJson(7, 50, format);
      expect(generateSavedPlacesJson(7, 50, format).text).toBe(a.text);
      expect(generateSavedPlacesJson(8, 50, format).text).not.toBe(a.text);
      const written = features(a.text);
      expect(written).toHaveLength(50);
      expect(a.places).toHaveLength(50);
      a.places.forEach((place, i) => {
        const feature = written[i]!;
        const url =
          format === 'new'
            ? feature.properties.google_maps_url
            : feature.properties['Google Maps URL'];
        expect(url ?? '').toBe(place.url);
        const [lng, lat] = feature.geometry.coordinates;
        if (place.zero) expect([lng, lat]).toEqual([0, 0]);
        else expect({ lat, lng }).toEqual(place.expected);
        if (place.cid) expect(place.resolvable).toEqual(coordinatesForCid(place.cid));
      });
    }
  });

  it('writes old-format files with ?cid= URLs and Geo Coordinates that match the geometry', () => {
    for (const feature of features(generateSavedPlacesJson(3, 200, 'old').text)) {
      expect(feature.properties['Google Maps URL']).toMatch(
        /^http:\/\/maps\.google\.com\/\?cid=\d+$/,
      );
      const geo = feature.properties.Location?.['Geo Coordinates'];
      if (geo) {
        const [lng, lat] = feature.geometry.coordinates;
        expect([Number(geo.Latitude), Number(geo.Longitude)]).toEqual([lat, lng]);
      }
    }
  });

  it('mixes the new-format URL forms', () => {
    const urls = generateSavedPlacesJson(4, 600, 'new').places.map((p) => p.url);
    expect(urls.some((u) => /^http:\/\/maps\.google\.com\/\?cid=\d+$/.test(u))).toBe(true);
    expect(urls.some((u) => /\?q=[^&]+&ftid=0x[0-9a-f]{16}:0x[0-9a-f]{16}$/.test(u))).toBe(true);
    expect(urls.some((u) => /\?q=-?\d+(\.\d+)?,-?\d+(\.\d+)?$/.test(u))).toBe(true);
  });

  it('puts about 1 place in 300 at [0, 0], each still findable by URL or id', () => {
    const { places, text } = generateSavedPlacesJson(11, 6000, 'new');
    const zero = places.filter((p) => p.zero);
    expect(zero.length).toBeGreaterThanOrEqual(8);
    expect(zero.length).toBeLessThanOrEqual(40);
    const written = features(text).filter((f) => f.geometry.coordinates.every((c) => c === 0));
    expect(written).toHaveLength(zero.length);
    for (const place of zero) {
      expect(place.comment).toBe(NO_LOCATION_COMMENT);
      expect(place.expected !== undefined || place.resolvable !== undefined).toBe(true);
    }
  });

  it('writes an empty collection for a count of 0 and refuses a bad count', () => {
    expect(features(generateSavedPlacesJson(1, 0, 'new').text)).toEqual([]);
    expect(() => generateSavedPlacesJson(1, -1, 'new')).toThrow(RangeError);
    expect(() => generateSavedPlacesJson(1, 1.5, 'old')).toThrow(RangeError);
  });
});

describe('generateTakeout: savedPlacesJson option', () => {
  it('leaves the archive unchanged when not asked', () => {
    const plain = generateTakeout({ seed: 5, includeNonPlaceLists: false });
    expect(plain.entries).not.toContain(SAVED_PLACES_JSON_PATH);
    expect(plain.savedPlaces).toBeUndefined();
  });

  it('adds Takeout/Maps (your places)/Saved Places.json when asked', () => {
    const takeout = generateTakeout({
      seed: 5,
      includeNonPlaceLists: false,
      savedPlacesJson: { format: 'new', places: 30 },
    });
    expect(takeout.entries.slice(0, 3)).toEqual([
      'Takeout/',
      'Takeout/Maps (your places)/',
      SAVED_PLACES_JSON_PATH,
    ]);
    const files = unzipSync(takeout.zip);
    const text = new TextDecoder().decode(files[SAVED_PLACES_JSON_PATH]);
    expect(text).toBe(generateSavedPlacesJson(5, 30, 'new').text);
    expect(takeout.savedPlaces?.text).toBe(text);
    expect(features(text)).toHaveLength(30);
    expect(takeout.lists.every((l) => l.isPlaceList)).toBe(true);
  });

  it('adds Saved Places.json beside the non-place files, and keeps the lists as they were', () => {
    const without = generateTakeout({ seed: 6 });
    const withJson = generateTakeout({ seed: 6, savedPlacesJson: { format: 'old', places: 12 } });
    expect(withJson.entries.filter((entry) => !entry.includes('Maps (your places)'))).toEqual(
      without.entries,
    );
    expect(withJson.lists.map((l) => l.csv)).toEqual(without.lists.map((l) => l.csv));
    const files = unzipSync(withJson.zip);
    expect(features(new TextDecoder().decode(files[SAVED_PLACES_JSON_PATH]))).toHaveLength(12);
  });
});
