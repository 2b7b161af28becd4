import fc from 'fast-check';
import { strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  hostileText,
  readKmz,
  readZip,
  readZipWithZlib,
  xmlLineEnds,
} from '../../../test/read-formats.js';
import { buildKml, kmlChunks, type MappedPlace } from '../kml.js';
import { buildKmz, buildKmzAsync, KMZ_ENTRY_NAME } from './kmz.js';
import { placeName } from './place-text.js';

const place = (overrides: Partial<MappedPlace> = {}): MappedPlace => ({
  title: 'Louvre',
  url: 'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
  coordinates: { lat: 48.8606111, lng: 2.337644 },
  ...overrides,
});

describe('buildKmz', () => {
  it('zips the KML, deflated, as its single entry doc.kml', () => {
    const places = Array.from({ length: 500 }, (_, i) =>
      place({ title: `Place ${i}`, tags: ['Food'], coordinates: { lat: 10, lng: i / 10 } }),
    );
    const kml = buildKml(places);
    const kmz = buildKmz(kml);
    const entries = readZip(kmz);
    expect(Object.keys(entries)).toEqual([KMZ_ENTRY_NAME]);
    expect(strFromU8(entries[KMZ_ENTRY_NAME]!)).toBe(kml);
    expect(kmz.length).toBeLessThan(kml.length / 5);
    // The local header says DEFLATE (method 8).
    expect(kmz[8]).toBe(8);
    const { geojson } = readKmz(kmz);
    expect(geojson.features).toHaveLength(500);
    expect(geojson.features[499]?.properties?.name).toBe('Place 499');
    expect(geojson.features[499]?.properties?.tags).toBe('Food');
    expect(geojson.features[499]?.geometry).toEqual({
      type: 'Point',
      coordinates: [49.9, 10, 0],
    });
  });

  it('keeps the note, comment, tags and link of the balloon', () => {
    const { geojson } = readKmz(
      buildKmz(buildKml([place({ note: 'n & m', comment: 'c', tags: ['t1', 't2'] })])),
    );
    const raw = geojson.features[0]?.properties?.description as { value: string } | string;
    const html = typeof raw === 'object' ? raw.value : raw;
    expect(html).toBe(
      'Note: n &amp; m<br><br>Comment: c<br><br>Tags: t1, t2<br><br><a href="https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2">View on Google Maps</a>',
    );
    expect(geojson.features[0]?.properties?.tags).toBe('t1, t2');
  });

  it('gives the same bytes for the same KML, dated 1 January 1980 unless told otherwise', () => {
    const kml = buildKml([place()]);
    expect(buildKmz(kml)).toEqual(buildKmz(kml));
    // DOS time and date in the local header: 00:00, 1980-01-01.
    expect(Array.from(buildKmz(kml).subarray(10, 14))).toEqual([0, 0, 0x21, 0]);
    const dated = buildKmz(kml, { modified: new Date(2026, 4, 17, 12, 30) });
    expect(Array.from(dated.subarray(10, 14))).not.toEqual([0, 0, 0x21, 0]);
    expect(strFromU8(readZip(dated)[KMZ_ENTRY_NAME]!)).toBe(kml);
  });

  it('gives back any title and note through the zip (property)', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (title, note) => {
        const { geojson } = readKmz(buildKmz(buildKml([place({ title, note })])));
        expect(geojson.features[0]?.properties?.name).toBe(xmlLineEnds(placeName(title)));
      }),
      { numRuns: 200 },
    );
  });
});

describe('buildKmzAsync', () => {
  const places = Array.from({ length: 2_000 }, (_, i) =>
    place({ title: `東京 ${i} 🍜`, note: `Note ${i}`, coordinates: { lat: 35, lng: i / 100 } }),
  );

  it("with the platform's CompressionStream, holds the same doc.kml as buildKmz", async () => {
    const kml = buildKml(places);
    const native = await buildKmzAsync(kmlChunks(places), { CompressionStream });
    const [entry] = readZipWithZlib(native);
    expect(entry?.name).toBe(KMZ_ENTRY_NAME);
    expect(entry?.compression).toBe(8);
    expect(strFromU8(entry!.data)).toBe(kml);
    expect(strFromU8(readZip(native)[KMZ_ENTRY_NAME]!)).toBe(kml);
    expect(native.length).toBeLessThan(kml.length / 5);
    expect(readKmz(native).geojson.features).toHaveLength(2_000);
  });

  it('without a CompressionStream, is buildKmz byte for byte', async () => {
    expect(await buildKmzAsync(kmlChunks(places))).toEqual(buildKmz(kmlChunks(places)));
  });
});
