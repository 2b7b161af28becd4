import { getIssues } from '@placemarkio/check-geojson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyLatLng, hostilePlaceText, place } from '../../../test/places.js';
import { readGeoJson } from '../../../test/read-formats.js';
import { UNTITLED_PLACE_NAME } from '../kml.js';
import { formatDegrees } from '../latlng.js';
import { buildGeoJson } from './geojson.js';
import { cleanText, describedWithLink, isWebLink, placeName } from './place-text.js';

/** Whether a string is well-formed UTF-16 (no lone surrogate), i.e. encodes to UTF-8 exactly. */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe('buildGeoJson', () => {
  it('writes an RFC 7946 FeatureCollection of points, longitude first, with every field', () => {
    const text = buildGeoJson(
      [
        place({ note: 'Line one\nline two', comment: 'Go early', tags: ['🛴 Fun stores', 'B'] }),
        place({ title: 'Sydney', url: '', coordinates: { lat: -33.8688, lng: 151.2093 } }),
      ],
      { name: 'Want to go', description: 'Trips' },
    );
    expect(getIssues(text)).toEqual([]);
    const collection = readGeoJson(text);
    expect(collection).toEqual({
      type: 'FeatureCollection',
      name: 'Want to go',
      description: 'Trips',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [2.337644, 48.8606111] },
          properties: {
            name: 'Louvre',
            note: 'Line one\nline two',
            comment: 'Go early',
            tags: ['🛴 Fun stores', 'B'],
            url: 'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
            // What Organic Maps, geojson.io and uMap show: the balloon's text and the link.
            description:
              'Note: Line one\nline two\n\nComment: Go early\n\nTags: 🛴 Fun stores, B\n\nhttps://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
          },
        },
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [151.2093, -33.8688] },
          properties: { name: 'Sydney', note: '', comment: '', tags: [], url: '', description: '' },
        },
      ],
    });
  });

  it('writes an empty collection, and no list members without a list', () => {
    expect(readGeoJson(buildGeoJson([]))).toEqual({ type: 'FeatureCollection', features: [] });
    expect(readGeoJson(buildGeoJson([], { name: 'L' }))).toEqual({
      type: 'FeatureCollection',
      name: 'L',
      features: [],
    });
  });

  it(`rounds to 7 decimals and names an untitled place "${UNTITLED_PLACE_NAME}"`, () => {
    const [feature] = readGeoJson(
      buildGeoJson([place({ title: '', coordinates: { lat: 12.345678949, lng: -179.99999996 } })]),
    ).features;
    expect(feature?.geometry.coordinates).toEqual([-180, 12.3456789]);
    expect(feature?.properties.name).toBe(UNTITLED_PLACE_NAME);
  });

  it('never writes a lone surrogate, so the text is exact UTF-8', () => {
    const text = buildGeoJson([place({ title: 'a\uD800b\uDFFFc😀', note: '\uDC00' })]);
    expect(isWellFormed(text)).toBe(true);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(text))).toBe(
      text,
    );
    const [feature] = readGeoJson(text).features;
    expect(feature?.properties.name).toBe('abc😀');
    expect(feature?.properties.note).toBe('');
  });

  it('gives a url property only to http(s) links, never javascript: or data: (web security audit)', () => {
    const urls = [
      'javascript:alert(1)//!3d40.7!4d-74.0',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'https://www.google.com/maps/place/x',
      'http://maps.google.com/?cid=1',
    ];
    const text = buildGeoJson(
      urls.map((url) => place({ title: 'P', url, coordinates: { lat: 1, lng: 2 } })),
    );
    expect(readGeoJson(text).features.map((feature) => feature.properties.url)).toEqual([
      '',
      '',
      '',
      'https://www.google.com/maps/place/x',
      'http://maps.google.com/?cid=1',
    ]);
    expect(text).not.toMatch(/javascript:|data:text/i);
  });

  it('passes check-geojson and gives back every field after cleaning (property)', () => {
    fc.assert(
      fc.property(
        hostilePlaceText,
        anyLatLng,
        ({ title, note, comment, tags, url }, { lat, lng }) => {
          const text = buildGeoJson(
            [place({ title, note, comment, tags, url, coordinates: { lat, lng } })],
            { name: title, description: note },
          );
          expect(isWellFormed(text)).toBe(true);
          const collection = readGeoJson(text);
          expect(collection.name).toBe(cleanText(title));
          const [feature] = collection.features;
          expect(feature?.geometry.coordinates).toEqual([
            Number(formatDegrees(lng)),
            Number(formatDegrees(lat)),
          ]);
          expect(feature?.properties).toEqual({
            name: placeName(title),
            note: cleanText(note),
            comment: cleanText(comment),
            tags: tags.map(cleanText),
            url: isWebLink(url) ? cleanText(url) : '',
            description: describedWithLink(place({ note, comment, tags, url })),
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
