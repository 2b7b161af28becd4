import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coordinatesCsvCell,
  hostileText,
  readCsv,
  readGeoJson,
  readGpx,
  readKmz,
  xmlLineEnds,
} from '../../../test/read-formats.js';
import { anyLatLng, place } from '../../../test/places.js';
import { parseKml } from '@placeport/testkit';
import { formatDegrees } from '../latlng.js';
import {
  FORMAT_INFO,
  isOutputFormat,
  OUTPUT_FORMATS,
  outputFileName,
  splitEvenly,
  writeListFiles,
  writePlaces,
  type OutputFormat,
} from './output.js';
import { placeName } from './place-text.js';

/** Degrees as every format writes them: 7 decimals. */
const rounded = (degrees: number) => Number(formatDegrees(degrees));

interface ReadPlace {
  name: string;
  lng: number;
  lat: number;
}

/** Every format's file read back by an independent reader, as names and `[lng, lat]`. */
function readPlaces(format: OutputFormat, data: string | Uint8Array): ReadPlace[] {
  const fromFeatures = (
    features: Array<{ properties?: Record<string, unknown> | null; geometry: unknown }>,
  ) =>
    features.map((feature) => {
      const [lng, lat] = (feature.geometry as { coordinates: number[] }).coordinates;
      return { name: String(feature.properties?.name), lng: lng!, lat: lat! };
    });
  switch (format) {
    case 'kml':
      return fromFeatures(parseKml(data as string).geojson.features);
    case 'kmz':
      return fromFeatures(readKmz(data as Uint8Array).geojson.features);
    case 'gpx':
      return fromFeatures(readGpx(data as string).geojson.features);
    case 'geojson':
      return fromFeatures(readGeoJson(data as string).features);
    case 'csv': {
      const [header, ...rows] = readCsv(data as string);
      expect(header).toEqual(['Name', 'Latitude', 'Longitude', 'Note', 'Comment', 'Tags', 'URL']);
      return rows.map(([name, lat, lng]) => ({
        // As written: a name that would run as a formula carries a leading ' (coordinatesCsvCell).
        name: name!,
        lat: Number(lat),
        lng: Number(lng),
      }));
    }
  }
}

describe('output formats', () => {
  it('offers KML first, then every other format, each with its extension, MIME type and label', () => {
    expect(OUTPUT_FORMATS).toEqual(['kml', 'kmz', 'gpx', 'geojson', 'csv']);
    expect(Object.keys(FORMAT_INFO).sort()).toEqual([...OUTPUT_FORMATS].sort());
    expect(Object.fromEntries(OUTPUT_FORMATS.map((f) => [f, FORMAT_INFO[f].mimeType]))).toEqual({
      kml: 'application/vnd.google-earth.kml+xml',
      kmz: 'application/vnd.google-earth.kmz',
      gpx: 'application/gpx+xml',
      geojson: 'application/geo+json',
      csv: 'text/csv;charset=utf-8',
    });
    expect(FORMAT_INFO.kml.label).toBe('KML (Google My Maps)');
    for (const format of OUTPUT_FORMATS) {
      expect(FORMAT_INFO[format].extension).toBe(format);
      expect(FORMAT_INFO[format].description.length).toBeGreaterThan(0);
    }
  });

  it('recognises format names and nothing else', () => {
    for (const format of OUTPUT_FORMATS) expect(isOutputFormat(format)).toBe(true);
    for (const other of ['KML', 'json', '', 'toString', undefined, 1, null]) {
      expect(isOutputFormat(other)).toBe(false);
    }
  });
});

describe('splitEvenly', () => {
  const sizes = (n: number, max: number) =>
    splitEvenly(
      Array.from({ length: n }, (_, i) => i),
      max,
    ).map((part) => part.length);

  it('keeps up to the limit in one part and splits past it into even parts, the bigger first', () => {
    expect(sizes(0, 2000)).toEqual([0]);
    expect(sizes(1, 2000)).toEqual([1]);
    expect(sizes(2000, 2000)).toEqual([2000]);
    expect(sizes(2001, 2000)).toEqual([1001, 1000]);
    expect(sizes(2500, 2000)).toEqual([1250, 1250]);
    expect(sizes(4000, 2000)).toEqual([2000, 2000]);
    expect(sizes(4001, 2000)).toEqual([1334, 1334, 1333]);
    expect(sizes(5, 1)).toEqual([1, 1, 1, 1, 1]);
  });

  it('treats a fractional limit as its floor and Infinity as no limit', () => {
    expect(sizes(5, 2.9)).toEqual([2, 2, 1]);
    expect(sizes(100_000, Number.POSITIVE_INFINITY)).toEqual([100_000]);
  });

  it('refuses a limit below 1', () => {
    for (const max of [0, -1, 0.5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(() => splitEvenly([1, 2], max)).toThrow(RangeError);
    }
  });

  it('gives the fewest parts within the limit, sizes within one, order kept (property)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.integer({ min: 1, max: 3_000 }), (n, max) => {
        const items = Array.from({ length: n }, (_, i) => i);
        const parts = splitEvenly(items, max);
        expect(parts).toHaveLength(Math.max(1, Math.ceil(n / max)));
        const lengths = parts.map((part) => part.length);
        expect(Math.max(...lengths)).toBeLessThanOrEqual(max);
        expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
        expect([...lengths].sort((a, b) => b - a)).toEqual(lengths);
        const flat = parts.flat();
        expect(flat.length === n && flat.every((item, i) => item === i)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('outputFileName', () => {
  it("names files after the list, with the part and the format's extension", () => {
    expect(outputFileName('Want to go', 'gpx')).toBe('Want to go.gpx');
    expect(outputFileName('Want to go', 'geojson', 2, 3)).toBe('Want to go (part 2 of 3).geojson');
    expect(outputFileName('a/b:c', 'csv')).toBe('a_b_c.csv');
    expect(outputFileName(' .. ', 'kmz')).toBe('my-saved-places.kmz');
    expect(outputFileName('', 'kmz', 1, 2)).toBe('my-saved-places (part 1 of 2).kmz');
  });
});

describe('writeListFiles', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      place({ title: `P${i}`, coordinates: { lat: -10 - i / 1000, lng: -120 + i / 1000 } }),
    );

  it.each(OUTPUT_FORMATS)(
    'writes a list past the limit as numbered %s files that a real reader gets back, in order',
    (format) => {
      const places = many(2500);
      const parts = writeListFiles({ name: 'Food', outputName: 'Food (Old)' }, places, format);
      const { extension, mimeType } = FORMAT_INFO[format];
      expect(parts.map(({ data: _data, ...rest }) => rest)).toEqual([
        {
          fileName: `Food (Old) (part 1 of 2).${extension}`,
          mimeType,
          format,
          placemarks: 1250,
          part: 1,
          parts: 2,
        },
        {
          fileName: `Food (Old) (part 2 of 2).${extension}`,
          mimeType,
          format,
          placemarks: 1250,
          part: 2,
          parts: 2,
        },
      ]);
      for (const [index, part] of parts.entries()) {
        expect(typeof part.data).toBe(format === 'kmz' ? 'object' : 'string');
        const read = readPlaces(format, part.data);
        const expected = places.slice(index * 1250, (index + 1) * 1250);
        expect(read.map((p) => p.name)).toEqual(expected.map((p) => p.title));
        expect(read.map((p) => [p.lng, p.lat])).toEqual(
          expected.map((p) => [p.coordinates.lng, p.coordinates.lat].map(rounded)),
        );
      }
    },
  );

  it('keeps 2,000 places in one file named after the list', () => {
    const parts = writeListFiles({ name: 'Want to go' }, many(2000), 'gpx');
    expect(parts.map((p) => [p.fileName, p.placemarks, p.part, p.parts])).toEqual([
      ['Want to go.gpx', 2000, 1, 1],
    ]);
  });
});

describe('writePlaces', () => {
  it.each(OUTPUT_FORMATS)(
    '%s: writes coordinates at the ends of their ranges and refuses any past them, NaN or 0, 0',
    (format) => {
      const at = (lat: number, lng: number) => () =>
        writePlaces(format, [place({ coordinates: { lat, lng } })]);
      expect(at(90, 180)).not.toThrow();
      expect(at(-90, -180)).not.toThrow();
      for (const [lat, lng] of [
        [NaN, 2],
        [2, NaN],
        [90.0000001, 2],
        [95, 2],
        [2, -180.0000001],
        [0, 0],
      ] as const) {
        expect(at(lat, lng)).toThrow(
          new RangeError(
            `Latitude ${lat} and longitude ${lng} are not a place on Earth: a latitude is a number from -90 to 90, a longitude one from -180 to 180, and 0, 0 means "no location". Leave such a place out: a map file holds only places with coordinates.`,
          ),
        );
      }
    },
  );

  it('carries the list name and description where the format has room', () => {
    const list = { name: 'Ramen & more', description: 'Tokyo <2024>' };
    const kml = parseKml(writePlaces('kml', [place()], list) as string).doc;
    const folder = kml.getElementsByTagName('Folder')[0];
    expect(folder?.getElementsByTagName('name')[0]?.textContent).toBe('Ramen & more');
    expect(folder?.getElementsByTagName('description')[0]?.textContent).toBe('Tokyo &lt;2024&gt;');
    const kmz = readKmz(writePlaces('kmz', [place()], list) as Uint8Array).doc;
    expect(kmz.getElementsByTagName('Folder')).toHaveLength(1);
    const gpx = readGpx(writePlaces('gpx', [place()], list) as string).doc;
    const metadata = gpx.getElementsByTagName('metadata')[0];
    expect(metadata?.getElementsByTagName('name')[0]?.textContent).toBe('Ramen & more');
    expect(metadata?.getElementsByTagName('desc')[0]?.textContent).toBe('Tokyo <2024>');
    const geojson = readGeoJson(writePlaces('geojson', [place()], list) as string);
    expect([geojson.name, geojson.description]).toEqual(['Ramen & more', 'Tokyo <2024>']);
    expect(readCsv(writePlaces('csv', [place()], list) as string)).toHaveLength(2);
  });

  it('writes any title and coordinates so every format reads back the same cleaned name (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OUTPUT_FORMATS),
        hostileText,
        hostileText,
        anyLatLng,
        (format, title, note, { lat, lng }) => {
          const data = writePlaces(format, [place({ title, note, coordinates: { lat, lng } })], {
            name: note,
            description: title,
          });
          const [read] = readPlaces(format, data);
          const xmlFormat = format === 'kml' || format === 'kmz' || format === 'gpx';
          const name = placeName(title);
          expect(read?.name).toBe(
            xmlFormat ? xmlLineEnds(name) : format === 'csv' ? coordinatesCsvCell(name) : name,
          );
          const lon = Number(formatDegrees(lng));
          expect(read?.lng).toBe(format === 'gpx' && lon === 180 ? -180 : lon);
          expect(read?.lat).toBe(Number(formatDegrees(lat)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
