import Papa from 'papaparse';
import { REASON_TEXT } from './reasons.js';
import { stripForbiddenXmlChars } from './xml.js';
import type { ParsedCsv } from './csv.js';
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
 * The cells the failed-places CSV guards: those a spreadsheet would run, those starting with a line
 * break (the CSV writes a CR as LF, and a reader that skips leading white space would run what
 * follows), and those that already start with `'` before such a character (`'=literal`, the place's
 * own text). Reading the CSV back takes exactly one `'` off ({@link unguardFormula}), so each comes
 * back as it was.
 */
const GUARDED_START = /^'*[=+\-@\t\r\n]/;

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
 * row at it, losing the place's link. Tab and line breaks stay, written as the converter reads
 * them back ({@link asRead}).
 */
function cell(place: ParsedPlace, column: FailedColumn): string {
  return asRead(column, stripForbiddenXmlChars(rawCell(place, column)));
}

/**
 * A cell's text as reading the CSV back gives it (`parseSavedPlacesCsv`): every CR or CRLF a line
 * feed, and the Title and URL trimmed. The formula guard is decided on this text, so the `'` it
 * adds is the one reading takes off: a `'` before a CR, or before a tab at a title's end, would
 * otherwise come back before a line feed or nothing, and stay.
 */
function asRead(column: FailedColumn, text: string): string {
  const lines = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  return column === 'Title' || column === 'URL' ? lines.trim() : lines;
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
 * would run as a formula (starting with `=`, `+`, `-`, `@` or tab) get a leading `'` (product.md
 * "Outputs"), as do cells already starting with `'` before one, and no cell keeps a character XML
 * 1.0 forbids. Line breaks are written as line feeds and the Title and URL trimmed, as the
 * converter reads any list, so reading the file back ({@link unguardFailedPlaces}) gives every
 * place as the converter had it. Starts with a UTF-8 BOM so spreadsheets read non-Latin titles
 * correctly.
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
  return cell.startsWith("'") && GUARDED_START.test(cell) ? cell.slice(1) : cell;
}

/**
 * Takes the formula guards off the places of a CSV read back, when it is a failed-places CSV (its
 * header has the `Reason` column {@link buildFailedCsv} writes): each text cell as the place had
 * it. Any other CSV (a saved list exported by itself) is Google's own text, guarded by no one, so a
 * title of its own starting `'=` keeps its `'`.
 */
export function unguardFailedPlaces(parsed: ParsedCsv): void {
  if (!parsed.columns.some((column) => same(column, 'Reason'))) return;
  for (const place of parsed.places) {
    place.title = unguardFormula(place.title);
    place.url = unguardFormula(place.url);
    if (place.note) place.note = unguardFormula(place.note);
    if (place.comment) place.comment = unguardFormula(place.comment);
    // The guard is on the Tags cell, so on its first tag.
    if (place.tags?.[0]) place.tags[0] = unguardFormula(place.tags[0]);
  }
}
