import Papa from 'papaparse';
import type { MappedPlace } from '../kml.js';
import { FORMULA_START } from '../failed-csv.js';
import { formatDegrees } from '../latlng.js';
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

/**
 * A text cell a spreadsheet will not run: one starting with `=`, `+`, `-`, `@`, tab or carriage return
 * gets a leading `'` (product.md, as the failed-places CSV does).
 */
function textCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A CSV of the places with their coordinates, for My Maps (which reads Latitude and Longitude columns)
 * and spreadsheets: UTF-8 with a BOM, CRLF line ends. Text cells are neutralised against formulas
 * (`textCell`) but the coordinates are not: papaparse's `escapeFormulae` would write `-12.5` as
 * `'-12.5`, a text that My Maps and spreadsheets no longer read as a number; they are plain decimals
 * written by `formatDegrees`, so they cannot hold a formula. Tags are joined with ", " like the KML
 * balloon's `Tags: a, b` and GPX's `<type>`, so a place reads the same in every format (Takeout's own
 * CSV separates them with ";").
 */
export function buildCoordinatesCsv(places: readonly MappedPlace[]): string {
  const rows = new Array<string[]>(places.length);
  for (let i = 0; i < places.length; i += 1) {
    const place = places[i]!;
    rows[i] = [
      textCell(placeName(place.title)),
      formatDegrees(place.coordinates.lat),
      formatDegrees(place.coordinates.lng),
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
