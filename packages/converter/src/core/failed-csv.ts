import Papa from 'papaparse';
import { REASON_TEXT } from './reasons.js';
import type { ParsedPlace } from './types.js';

/** The seed's column order for the failed-places CSV, then why each place failed (product.md). */
export const FAILED_CSV_COLUMNS = ['Title', 'Note', 'URL', 'Comment', 'Reason'] as const;

/**
 * CSV of the places that got no coordinates, for retry, with the reason in plain words. Cells that a spreadsheet would run as a formula
 * (starting with `=`, `+`, `-`, `@`, tab or carriage return) get a leading `'` (product.md "Outputs").
 * Starts with a UTF-8 BOM so spreadsheets read non-Latin titles correctly.
 */
export function buildFailedCsv(places: readonly ParsedPlace[]): string {
  const rows = places.map((place) => [
    place.title,
    place.note ?? '',
    place.url,
    place.comment ?? '',
    place.reason ? REASON_TEXT[place.reason] : '',
  ]);
  return `\uFEFF${Papa.unparse({ fields: [...FAILED_CSV_COLUMNS], data: rows }, { escapeFormulae: true, newline: '\r\n' })}\r\n`;
}
