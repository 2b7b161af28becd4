import Papa from 'papaparse';
import { REASON_TEXT } from './reasons.js';
import { stripForbiddenXmlChars } from './xml.js';
import type { ParsedPlace } from './types.js';

/** The seed's column order for the failed-places CSV, then why each place failed (product.md). */
export const FAILED_CSV_COLUMNS = ['Title', 'Note', 'URL', 'Comment', 'Reason'] as const;

type FailedColumn = (typeof FAILED_CSV_COLUMNS)[number] | 'Tags';

/**
 * The start of a cell a spreadsheet would run as a formula (product.md "Outputs"). Only the first
 * character counts, whatever follows: papaparse's own `escapeFormulae: true` pattern
 * (`/^[=+\-@\t\r].*$/`) fails on a cell with a line break, so `=1+1` then a second line went
 * unguarded.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The cells the failed-places CSV guards: those a spreadsheet would run, and those that already
 * start with `'` before such a character (`'=literal`, the place's own text). Reading the CSV back
 * takes exactly one `'` off ({@link unguardFormula}), so both come back as they were.
 */
const GUARDED_START = /^'*[=+\-@\t\r]/;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.toLowerCase();

/**
 * The failed-places CSV's columns: the seed's, with `Tags` when the list had a Tags column (or a
 * place carries tags), where the original list had it among the seed's columns (`Title, Note, URL,
 * Tags, Comment` in 2025+ exports; before Comment when the original order is not known), so a
 * place given back to the converter keeps its tags.
 */
export function failedCsvColumns(
  places: readonly ParsedPlace[],
  original: readonly string[] = [],
): FailedColumn[] {
  const columns: FailedColumn[] = [...FAILED_CSV_COLUMNS];
  const tagsAt = original.findIndex((name) => same(name, 'Tags'));
  if (tagsAt < 0 && !places.some((place) => place.tags?.length)) return columns;
  // Before the first of the seed's columns that followed Tags in the original; else before Comment.
  const after = original
    .slice(tagsAt + 1)
    .map((name) => columns.findIndex((column) => same(name, column)))
    .filter((index) => index >= 0);
  const at =
    tagsAt < 0
      ? columns.indexOf('Comment')
      : after.length > 0
        ? Math.min(...after)
        : columns.indexOf('Reason');
  columns.splice(at, 0, 'Tags');
  return columns;
}

/**
 * A cell's text without the control characters XML 1.0 forbids, as every output has them
 * (product.md "Outputs"): a NUL makes Python's csv module refuse the whole file, and GDAL ends the
 * row at it, losing the place's link. Tab, line feed and carriage return stay.
 */
function cell(place: ParsedPlace, column: FailedColumn): string {
  return stripForbiddenXmlChars(rawCell(place, column));
}

function rawCell(place: ParsedPlace, column: FailedColumn): string {
  switch (column) {
    case 'Title':
      return place.title;
    case 'Note':
      return place.note ?? '';
    case 'URL':
      return place.url;
    case 'Comment':
      return place.comment ?? '';
    case 'Tags':
      return (place.tags ?? []).join(';');
    case 'Reason':
      return place.reason ? REASON_TEXT[place.reason] : '';
  }
}

/**
 * CSV of the places that got no coordinates, for retry, with the reason in plain words: the seed's
 * columns (Title, Note, URL, Comment), the list's Tags column when it had one (see
 * {@link failedCsvColumns}; `original` is the list's header), then Reason. Cells that a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return) get a leading
 * `'` (product.md "Outputs"), and no cell keeps a character XML 1.0 forbids. Starts with a UTF-8 BOM
 * so spreadsheets read non-Latin titles correctly.
 */
export function buildFailedCsv(
  places: readonly ParsedPlace[],
  original: readonly string[] = [],
): string {
  const fields = failedCsvColumns(places, original);
  const rows = places.map((place) => fields.map((column) => cell(place, column)));
  return `\uFEFF${Papa.unparse({ fields, data: rows }, { escapeFormulae: GUARDED_START, newline: '\r\n' })}\r\n`;
}

/**
 * A cell of a failed-places CSV as the place had it: the `'` {@link buildFailedCsv} put before a
 * cell a spreadsheet would run as a formula (or one already starting `'` and such a character) is
 * taken off, so a retried place keeps its own text.
 */
export function unguardFormula(cell: string): string {
  return /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
