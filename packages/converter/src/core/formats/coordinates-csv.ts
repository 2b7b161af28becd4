import Papa from 'papaparse';
import type { MappedPlace } from '../kml.js';
import { FORMULA_START } from '../failed-csv.js';
import { writtenDegrees } from '../latlng.js';
import { cleanText, placeName, placeTags } from './place-text.js';

/** The columns of the coordinates CSV, in order (product.md "Outputs"). */
export const COORDINATES_CSV_COLUMNS = [
  'Name',
  'Latitude',
  'Longitude',
  'Note',
  'Comment',
  'Tags',
  'URL',
] as const;

/** What makes a formula reach outside its cell: a call `(`, DDE `|`, another sheet or file `!`. */
const REACHES_OUT = /[(|!]/;

/**
 * A text cell a spreadsheet will not run, that My Maps still shows as the place's own text. The
 * `'` of the failed-places CSV's guard is text everywhere but a cell typed by hand: My Maps, GDAL
 * and spreadsheets opening a CSV all show it, so guarding every cell that starts with `+`, `-` or
 * `@` turned a place named "+44 Café" or a note "- try the tart" into `'+44 Café` on the map.
 * Here a cell gets the `'` when it starts with `=`, tab or carriage return (never a place's text),
 * or starts with `+`, `-` or `@` and holds `(`, `|` or `!`: every formula that calls a function,
 * DDE (`+cmd|' /C calc'!A0`) or another file; what is left (`+44 Café`, `-5 Degrees`) can at most
 * show as a sum or an error in a spreadsheet, never run anything.
 */
function textCell(text: string): string {
  if (!FORMULA_START.test(text)) return text;
  const alwaysFormula = text[0] === '=' || text[0] === '\t' || text[0] === '\r';
  return alwaysFormula || REACHES_OUT.test(text) ? `'${text}` : text;
}

/**
 * A CSV of the places with their coordinates, for My Maps (which reads Latitude and Longitude columns)
 * and spreadsheets: UTF-8 with a BOM, CRLF line ends. Text cells are neutralised against formulas
 * (`textCell`) but the coordinates are not: papaparse's `escapeFormulae` would write `-12.5` as
 * `'-12.5`, a text that My Maps and spreadsheets no longer read as a number; they are plain decimals
 * written by `writtenDegrees`, so they cannot hold a formula. Tags are joined with ", " like the KML
 * balloon's `Tags: a, b` and GPX's `<desc>`, so a place reads the same in every format (Takeout's own
 * CSV separates them with ";").
 */
export function buildCoordinatesCsv(places: readonly MappedPlace[]): string {
  const rows = new Array<string[]>(places.length);
  for (let i = 0; i < places.length; i += 1) {
    const place = places[i]!;
    const { lat, lng } = writtenDegrees(place.coordinates);
    rows[i] = [
      textCell(placeName(place.title)),
      lat,
      lng,
      textCell(cleanText(place.note)),
      textCell(cleanText(place.comment)),
      textCell(placeTags(place)),
      textCell(cleanText(place.url)),
    ];
  }
  const csv = Papa.unparse(
    { fields: [...COORDINATES_CSV_COLUMNS], data: rows },
    { newline: '\r\n', escapeFormulae: false },
  );
  return `\uFEFF${csv}\r\n`;
}
