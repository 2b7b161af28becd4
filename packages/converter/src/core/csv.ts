import Papa from 'papaparse';
import * as v from 'valibot';
import { columnsMessage, ConverterError, MESSAGES, parseErrorMessage } from './errors.js';
import type { ParsedPlace } from './types.js';

/** The header is looked for within this many non-blank rows (a list description may come first). */
export const HEADER_SEARCH_ROWS = 5;
/** Row warnings kept per list; the rest are counted only. */
export const MAX_ROW_WARNINGS = 100;

const RowSchema = v.object({
  Title: v.string(),
  URL: v.string(),
  Note: v.optional(v.string()),
  Comment: v.optional(v.string()),
  Tags: v.optional(v.string()),
});

/** A row that failed the schema: kept with empty strings, reported here. */
export interface RowWarning {
  /** 1-based row number among the data rows. */
  row: number;
  message: string;
}

/** A list after parsing: its places, the description above its header, its columns and row warnings. */
export interface ParsedCsv {
  places: ParsedPlace[];
  /** Free text found before the header row (a list description), if any. */
  description?: string;
  /** The header as found, trimmed. */
  columns: string[];
  warnings: RowWarning[];
  /** Rows that failed the schema, including those past MAX_ROW_WARNINGS. */
  warningCount: number;
}

function findHeader(rows: readonly string[][]): number {
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let i = 0; i < limit; i += 1) {
    const names = rows[i]!.map((cell) => cell.trim().toLowerCase());
    if (names.includes('title') && names.includes('url')) return i;
  }
  return -1;
}

function columnIndex(columns: readonly string[], name: string): number {
  return columns.findIndex((column) => column.toLowerCase() === name.toLowerCase());
}

function optionalText(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

/** The Tags cell: `;`-separated names (`🛴 Fun stores;📚 Bookstores`), trimmed; undefined when none. */
export function parseTags(cell: string | undefined): string[] | undefined {
  if (!cell) return undefined;
  const tags = cell
    .split(';')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  return tags.length > 0 ? tags : undefined;
}

/**
 * Parses a saved-places CSV per the seed and product.md: BOM and CRLF tolerated, quoted multi-line notes,
 * the header found after an optional list description, blank and all-comma rows dropped, and a row
 * with neither a Title nor a URL is not a place (2025+ exports put the list's tag names alone in the
 * row after the header). The Tags column, when there is one, becomes each place's `tags`; other
 * extra columns are ignored. A row that fails the schema is kept with empty strings and reported as a
 * warning. Throws ConverterError with the seed's messages for parser errors, a missing header or no
 * places.
 */
export function parseSavedPlacesCsv(text: string): ParsedCsv {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(input, { delimiter: ',', skipEmptyLines: 'greedy' });
  if (parsed.errors.length > 0) {
    throw new ConverterError(
      'csv-parse',
      parseErrorMessage(parsed.errors.map((error) => error.message)),
    );
  }
  // 'greedy' already drops rows of only separators and white space (`,,,,`).
  const rows = parsed.data;
  if (rows.length === 0) throw new ConverterError('csv-empty', MESSAGES.csvEmpty);

  const headerAt = findHeader(rows);
  if (headerAt < 0) {
    throw new ConverterError('csv-columns', columnsMessage(rows[0]!.map((cell) => cell.trim())));
  }
  const columns = rows[headerAt]!.map((cell) => cell.trim());
  const dataRows = rows.slice(headerAt + 1);
  if (dataRows.length === 0) throw new ConverterError('csv-empty', MESSAGES.csvEmpty);

  const at = {
    title: columnIndex(columns, 'Title'),
    url: columnIndex(columns, 'URL'),
    note: columnIndex(columns, 'Note'),
    comment: columnIndex(columns, 'Comment'),
    tags: columnIndex(columns, 'Tags'),
  };
  const cell = (row: readonly string[], index: number): string | undefined =>
    index < 0 ? undefined : row[index];

  const places: ParsedPlace[] = [];
  const warnings: RowWarning[] = [];
  let warningCount = 0;
  // papaparse yields strings, so only a row missing cells can fail the schema: those go through valibot.
  const complete = Math.max(at.title, at.url, at.note, at.comment, at.tags) + 1;
  for (let i = 0; i < dataRows.length; i += 1) {
    const row = dataRows[i]!;
    const record = {
      Title: cell(row, at.title),
      URL: cell(row, at.url),
      Note: cell(row, at.note),
      Comment: cell(row, at.comment),
      Tags: cell(row, at.tags),
    };
    const title = (record.Title ?? '').trim();
    const url = (record.URL ?? '').trim();
    // Not a place: not counted, not charged, not written anywhere (product.md).
    if (title === '' && url === '') continue;
    if (row.length < complete) {
      const checked = v.safeParse(RowSchema, record);
      if (!checked.success) {
        warningCount += 1;
        if (warnings.length < MAX_ROW_WARNINGS) {
          warnings.push({
            row: i + 1,
            message: checked.issues
              .map((issue) => `${v.getDotPath(issue) ?? 'row'}: ${issue.message}`)
              .join('; '),
          });
        }
      }
    }
    // Every place gets the same fields in the same order (absent ones undefined): one object shape
    // keeps the per-place code of a 100,000-place conversion monomorphic.
    places.push({
      title,
      url,
      note: optionalText(record.Note),
      comment: optionalText(record.Comment),
      tags: parseTags(record.Tags),
      coordinates: undefined,
    });
  }
  if (places.length === 0) throw new ConverterError('csv-empty', MESSAGES.csvEmpty);

  const description = rows
    .slice(0, headerAt)
    .map((row) => row.join(',').trim())
    .join('\n');
  return { places, columns, warnings, warningCount, ...(description ? { description } : {}) };
}

/** Counts non-blank records without interpreting them; used only for lists that fail validation. */
export function countNonBlankRows(text: string): number {
  return Papa.parse<string[]>(text, { delimiter: ',', skipEmptyLines: 'greedy' }).data.length;
}
