import Papa from 'papaparse';
import { columnsMessage, ConverterError, MESSAGES, parseErrorMessage } from './errors.js';
import type { PlaceCounter } from './limits.js';
import type { PlaceNeed } from './link-need.js';
import type { ParsedPlace } from './types.js';

/** The header is looked for within this many non-blank rows (a list description may come first). */
export const HEADER_SEARCH_ROWS = 5;
/** A list after parsing: its places, the description above its header, and its columns. */
export interface ParsedCsv {
  places: ParsedPlace[];
  /** Free text found before the header row (a list description), if any. */
  description?: string;
  /**
   * The header as found, trimmed, or Google's English names for a list whose header is in another
   * language (the failed-places CSV keeps the list's Tags column where it was).
   */
  columns: string[];
  /**
   * What each place needs (`placeNeed`), in order, once inspection has read the links; a run plans
   * from it rather than reading every link again. None for a place given its coordinates then;
   * absent on a list parsed but not inspected.
   */
  needs?: readonly (PlaceNeed | undefined)[];
}

/**
 * Google's columns by how many a list has, in its order (product.md): Takeout names them in the
 * account's language (`Titel,Notiz,URL,Tags,Kommentar`, `タイトル,メモ,URL,タグ,コメント`,
 * `Título,Nota,URL,Etiquetas,Comentario`) and keeps only `URL` and the order.
 */
const GOOGLE_COLUMNS: Readonly<Record<number, readonly string[]>> = {
  3: ['Title', 'Note', 'URL'],
  4: ['Title', 'Note', 'URL', 'Comment'],
  5: ['Title', 'Note', 'URL', 'Tags', 'Comment'],
};

/**
 * The header's columns when `row` is the header, else undefined: a row naming both a Title and a
 * URL column (any case, trimmed), as found; or a row of Google's shape in another language (three
 * to five names, none blank, the third `URL`), as Google's English names.
 */
function headerColumns(row: readonly string[]): string[] | undefined {
  const columns = trimmed(row);
  const names = columns.map((cell) => cell.toLowerCase());
  if (names.includes('title') && names.includes('url')) return columns;
  const google = GOOGLE_COLUMNS[row.length];
  if (google && names[2] === 'url' && !names.includes('')) return [...google];
  return undefined;
}

/**
 * Where the header is among `lines` (a list's first lines, as they are): the first of its first
 * {@link HEADER_SEARCH_ROWS} non-blank lines whose cells, split at commas, name a header (a
 * header is never quoted); -1 when none does.
 */
function headerLineIndex(lines: readonly string[]): number {
  let seen = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (headerColumns(line.replace(/^\uFEFF/, '').split(','))) return i;
    seen += 1;
    if (seen === HEADER_SEARCH_ROWS) return -1;
  }
  return -1;
}

/**
 * Whether the start of a CSV file (a few KB of its text) has a list's header within its first
 * {@link HEADER_SEARCH_ROWS} non-blank lines: how a folder of lists is told from other products'
 * CSVs when the archive has no folder known to be Takeout's "Saved". A line cut by the sample's end
 * is not read.
 */
export function hasListHeader(head: string): boolean {
  const lines = head.split(/\r\n|\r|\n/);
  // The last piece may be cut mid-line unless the whole file fitted in the sample.
  lines.pop();
  return headerLineIndex(lines) >= 0;
}

/** How much of a list's start is searched for a description above its header. */
export const DESCRIPTION_SEARCH = 64 * 1024;

/** A description Takeout wrote as one quoted CSV cell (`"Eat, pray, love"`), as its text. */
const QUOTED_CELL = /^"(?:[^"]|"")*"$/;

/**
 * The list's description and where its header starts (in the units of `source`: characters of a
 * text, bytes of bytes), when the header is a plain line below one or more lines of description.
 * The description is free text, not CSV: its lines are taken as they are (trimmed, blank ones
 * dropped), so a quote in it (`"Best" coffee in town`, `Trip,"La dolce vita`) neither fails the
 * list nor swallows the header; one written as a single quoted cell is read as that cell. Undefined
 * when the header is the first line, or is not found as a plain line in the first
 * {@link DESCRIPTION_SEARCH} units (then the whole list is read as CSV).
 */
function descriptionAbove(
  source: CsvSource,
): { description: string; headerAt: number } | undefined {
  const whole = source.length <= DESCRIPTION_SEARCH;
  const sample =
    typeof source === 'string'
      ? source.slice(0, DESCRIPTION_SEARCH)
      : sampleDecoder.decode(source.subarray(0, DESCRIPTION_SEARCH));
  const lines: string[] = [];
  const starts: number[] = [];
  const ends = /\r\n?|\n/g;
  let at = 0;
  let nonBlank = 0;
  // The header is among the first few non-blank lines, or not there at all.
  for (let end = ends.exec(sample); end && nonBlank < HEADER_SEARCH_ROWS; end = ends.exec(sample)) {
    const line = sample.slice(at, end.index);
    starts.push(at);
    lines.push(line);
    if (line.trim() !== '') nonBlank += 1;
    at = end.index + end[0].length;
  }
  if (whole && nonBlank < HEADER_SEARCH_ROWS && at < sample.length) {
    starts.push(at);
    lines.push(sample.slice(at));
  }
  const index = headerLineIndex(lines);
  if (index <= 0) return undefined;
  const text = lines
    .slice(0, index)
    .map((line) => line.replace(/^\uFEFF/, '').trim())
    .filter((line) => line !== '')
    .join('\n');
  return {
    description: QUOTED_CELL.test(text) ? text.slice(1, -1).replace(/""/g, '"').trim() : text,
    headerAt: typeof source === 'string' ? starts[index]! : lineStart(source, index),
  };
}

/**
 * Where line `line` (counted from 0) of `bytes` starts: after that many line ends (LF, CRLF or
 * CR), counted in the bytes themselves, since bytes that are not UTF-8 decode to characters of
 * another length, while a line end's byte is never part of a UTF-8 character.
 */
function lineStart(bytes: Uint8Array, line: number): number {
  let at = 0;
  for (let ended = 0; ended < line; ended += 1) {
    while (bytes[at] !== 10 && bytes[at] !== 13) at += 1;
    at += bytes[at] === 13 && bytes[at + 1] === 10 ? 2 : 1;
  }
  return at;
}

function trimmed(row: readonly string[]): string[] {
  return row.map((cell) => cell.trim());
}

function columnIndex(columns: readonly string[], name: string): number {
  return columns.findIndex((column) => column.toLowerCase() === name.toLowerCase());
}

/** A Note or Comment cell, undefined when empty. */
function optionalText(text: string | undefined): string | undefined {
  return text === '' ? undefined : text;
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

/** True for a row of only separators and white space (`,,,,`), which papaparse's 'greedy' drops. */
function isBlankRow(row: readonly string[]): boolean {
  for (let i = 0; i < row.length; i += 1) if (row[i]!.trim() !== '') return false;
  return true;
}

/** A saved list: its text, or its UTF-8 bytes, which are read in pieces (see {@link eachRecord}). */
export type CsvSource = string | Uint8Array;

/** Bytes decoded at a time: a piece's text dies young once its cells are copied out. */
const PIECE_BYTES = 32 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/**
 * Decodes a piece as it is (a BOM is dropped at the start of the list only), refusing bytes that
 * are not UTF-8: the list is then read again as Windows-1252 ({@link NotUtf8}).
 */
const piecesDecoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/**
 * Thrown while a list's bytes are read when they are not UTF-8 (a list saved again by Excel on
 * Windows, then zipped by hand): the caller reads the list again from its Windows-1252 text.
 */
class NotUtf8 extends Error {}

/** Decodes the start of a list, which may end inside a character, as it is. */
const sampleDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
let scratch = new Uint8Array(PIECE_BYTES);
/** Views of `scratch` by length, made once each: one per cell would be garbage the parse pays for. */
let views: Uint8Array[] = [];
/** Cells up to this long get a kept view of `scratch` (a link is rarely longer). */
const VIEWED_LENGTH = 1024;

/**
 * A cell as a string of its own: papaparse's cells are slices of the text they were read from, which
 * V8 keeps alive as long as one slice is. An ASCII cell (a link, most titles) is copied at one byte
 * a character, the others as they are; V8 copies short slices itself.
 */
function detached(cell: string): string {
  if (cell.length < 13) return cell;
  if (scratch.length < cell.length) {
    scratch = new Uint8Array(cell.length);
    views = [];
  }
  const { read, written } = encoder.encodeInto(cell, scratch);
  if (read !== cell.length || written !== read) return ` ${cell}`.slice(1);
  if (written > VIEWED_LENGTH) return decoder.decode(scratch.subarray(0, written));
  return decoder.decode((views[written] ??= scratch.subarray(0, written)));
}

/**
 * The text of UTF-8 `bytes` in pieces of at most {@link PIECE_BYTES}, each ending after a line
 * feed where the piece has one (so the record cut by its end is rare) and never inside a character;
 * a leading BOM dropped, as decoding the whole does.
 */
function* piecesOf(bytes: Uint8Array): Generator<string> {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length) {
    let end = Math.min(bytes.length, at + PIECE_BYTES);
    // Looked for in this piece only: searching back from its end to the list's start would read a
    // line of megabytes again for every piece of it.
    const lineEnd = end < bytes.length ? bytes.subarray(at, end).lastIndexOf(10) : -1;
    if (lineEnd >= 0) end = at + lineEnd + 1;
    else while (end < bytes.length && end > at + 1 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
    let piece: string;
    try {
      piece = piecesDecoder.decode(bytes.subarray(at, end));
    } catch {
      throw new NotUtf8();
    }
    yield piece;
    at = end;
  }
}

/**
 * A list's text in pieces of at most {@link PIECE_BYTES} characters, cut as {@link piecesOf} cuts
 * bytes: after a line feed where the piece has one, and never between the two halves of a
 * character outside the Basic Multilingual Plane. Each piece is a slice of the text, not a copy.
 */
function* textPiecesOf(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + PIECE_BYTES);
    const lineEnd = end < text.length ? text.slice(at, end).lastIndexOf('\n') : -1;
    if (lineEnd >= 0) end = at + lineEnd + 1;
    else if (end < text.length && end > at + 1 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) {
      end -= 1;
    }
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * The pieces with every line ending a line feed. Real exports end lines with LF; in a list with a
 * carriage return anywhere (CRLF, old Mac CR, or a mix, as a hand-edited list has) CRLF and CR
 * become LF, so one parser reads every list, and a line ended otherwise than the rest never glues
 * two places together (papaparse takes one line ending for the whole file, guessed from its
 * start). Inside a quoted note a CRLF becomes LF too, which every output writes the same. A CR
 * ending a piece waits for the next, which may start with its LF.
 */
function* withLineFeeds(pieces: Iterable<string>): Generator<string> {
  let carried = false;
  for (const piece of pieces) {
    let text: string = carried ? `\r${piece}` : piece;
    carried = text.endsWith('\r');
    if (carried) text = text.slice(0, -1);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    if (text) yield text;
  }
  if (carried) yield '\n';
}

/** Where {@link eachRecord} hands each non-blank record, as it is read. */
export interface RowSink {
  row(row: string[]): void;
}

/**
 * papaparse's parser, made once and reused for every list of the run. `Parser` keeps no state
 * between calls to `parse` (it resets its cursor), but each one makes its own `parse` closure: a
 * new parser per list made V8 optimize `parse` (papaparse's whole scanner, ~25-50 ms of compiling
 * each time) and `eachRecord` again for every list (issue 19). Lines end with LF by then
 * ({@link withLineFeeds}).
 */
let parser: Papa.Parser | undefined;

function lineFeedParser(): Papa.Parser {
  // The quote-aware scanner reads record by record; the fast path would split every line first.
  parser ??= new Papa.Parser({ delimiter: ',', newline: '\n', fastMode: false });
  return parser;
}

/**
 * Runs papaparse over `source` a piece at a time (never the whole file's rows at once), handing
 * `sink` each non-blank record and collecting the parser's error messages. Text and bytes alike
 * are parsed a piece at a time, the record cut by a piece's end read again with the next, as
 * papaparse reads a file; bytes are decoded piece by piece, so the list's whole text never exists. A piece's rows come back together (a `step`
 * callback would cost a result object and two arrays per row); the errors of the cut record are
 * left for the piece that reads it whole. `sink.row` may throw to stop (the place cap); the throw ends
 * the parse and goes to the caller.
 */
function eachRecord(source: CsvSource, sink: RowSink): string[] {
  const errors: string[] = [];
  const parser = lineFeedParser();
  const pieces = withLineFeeds(
    typeof source === 'string' ? textPiecesOf(source) : piecesOf(source),
  );
  let rest = '';
  let at = 0;
  // A record longer than a piece (a note of megabytes, or a list that is one endless line) is
  // parsed again only once twice as much of it is read: reading it again with every piece would
  // take time growing with the square of its length, seconds for a few megabytes.
  let parseFrom = 0;
  for (let piece = pieces.next(); !piece.done;) {
    const next = pieces.next();
    const text = rest + piece.value;
    if (!next.done && text.length < parseFrom) {
      rest = text;
      piece = next;
      continue;
    }
    const {
      data,
      errors: found,
      meta,
    } = parser.parse(text, at, !next.done) as Papa.ParseResult<string[]>;
    // An error of the record cut by the piece's end is in the row after the last one returned.
    for (const error of found)
      if (next.done || error.row! < data.length) errors.push(error.message);
    for (let i = 0; i < data.length; i += 1) {
      const row = data[i]!;
      if (isBlankRow(row)) continue;
      for (let j = 0; j < row.length; j += 1) row[j] = detached(row[j]!);
      sink.row(row);
    }
    rest = text.slice(meta.cursor - at);
    at = meta.cursor;
    parseFrom = rest.length > PIECE_BYTES ? 2 * rest.length : 0;
    piece = next;
  }
  return errors;
}

/**
 * Thrown by {@link eachPlainRecord} at a quote it does not read as papaparse would (one inside an
 * unquoted cell, one never closed, a closing one followed by more than a separator): the list is
 * then read again by papaparse ({@link eachRecord}), whose errors name what is wrong.
 */
export class NotPlain extends Error {}

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** Decodes one cell, refusing bytes that are not UTF-8 as {@link piecesDecoder} does. */
const cellDecoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/** Node's Buffer, where there is one: it reads ASCII into a string without a view of the bytes. */
interface AsciiReader {
  toString(encoding: 'latin1', start: number, end: number): string;
}
const NodeBuffer = (
  globalThis as {
    Buffer?: { from(buffer: ArrayBufferLike, offset: number, length: number): AsciiReader };
  }
).Buffer;

/**
 * The text of `bytes` from `start` to `end`, a string of its own: nothing else is kept alive. An
 * ASCII cell (every link, most titles) is read by Node's Buffer where there is one (half the time of
 * a decoder and the view it decodes).
 */
function cellText(
  bytes: Uint8Array,
  ascii: AsciiReader | undefined,
  start: number,
  end: number,
  high: number,
): string {
  if (start === end) return '';
  if (high < 0x80 && ascii) return ascii.toString('latin1', start, end);
  try {
    return cellDecoder.decode(bytes.subarray(start, end));
  } catch {
    throw new NotUtf8();
  }
}

/**
 * Reads a list's UTF-8 bytes record by record as {@link eachRecord} does, in one pass over the
 * bytes: commas end cells; LF, CRLF and CR end records (inside a quoted cell they become LF); a
 * cell starting with a quote runs to its closing quote, a doubled quote inside it being one. Each
 * cell is decoded from its own bytes, so no text of the list is ever made but the cells, and none
 * keeps another alive. Where papaparse would report an error, or read a quote otherwise, it throws
 * {@link NotPlain} before any error is lost: the caller reads the list again with papaparse.
 */
export function eachPlainRecord(bytes: Uint8Array, sink: RowSink): string[] {
  const length = bytes.length;
  const ascii = NodeBuffer?.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let row: string[] = [];
  for (;;) {
    let cell: string;
    if (bytes[at] === QUOTE) {
      const start = at + 1;
      let close = bytes.indexOf(QUOTE, start);
      let doubled = false;
      while (close >= 0 && bytes[close + 1] === QUOTE) {
        doubled = true;
        close = bytes.indexOf(QUOTE, close + 2);
      }
      if (close < 0) throw new NotPlain();
      cell = cellText(bytes, ascii, start, close, 0x80);
      if (doubled) cell = cell.replaceAll('""', '"');
      if (cell.includes('\r')) cell = cell.replace(/\r\n?/g, '\n');
      at = close + 1;
      const next = bytes[at];
      if (at < length && next !== COMMA && next !== LF && next !== CR) throw new NotPlain();
    } else {
      const start = at;
      let high = 0;
      for (; at < length; at += 1) {
        const byte = bytes[at]!;
        if (byte === COMMA || byte === LF || byte === CR) break;
        if (byte === QUOTE) throw new NotPlain();
        high |= byte;
      }
      cell = cellText(bytes, ascii, start, at, high);
    }
    row.push(cell);
    if (at < length && bytes[at] === COMMA) {
      at += 1;
      continue;
    }
    if (!isBlankRow(row)) sink.row(row);
    if (at >= length) return [];
    at += bytes[at] === CR && bytes[at + 1] === LF ? 2 : 1;
    if (at >= length) return [];
    row = [];
  }
}

/** Column positions of the fields a place is read from (-1: the list has no such column). */
type ColumnsAt = Record<'title' | 'url' | 'note' | 'comment' | 'tags', number>;

/**
 * A list's records as they come: the rows before the header (a list description) and the header
 * itself, at most {@link HEADER_SEARCH_ROWS}; after it, its places, counted against the cap. One
 * class for every list (not a closure per list), so the call from `eachRecord` has one target.
 */
class ListRows implements RowSink {
  readonly head: string[][] = [];
  readonly places: ParsedPlace[] = [];
  /** Set once the header is found. */
  private at: ColumnsAt | undefined;
  /** The header's columns, in Google's English names when the list names them in another language. */
  columns: string[] = [];

  constructor(private readonly counter: PlaceCounter | undefined) {}

  get found(): boolean {
    return this.at !== undefined;
  }

  row(row: string[]): void {
    if (this.at) return this.add(this.at, row);
    if (this.head.length === HEADER_SEARCH_ROWS) return; // no header where one may be: rows are nothing
    this.head.push(row);
    const columns = headerColumns(row);
    if (!columns) return;
    this.columns = columns;
    this.at = {
      title: columnIndex(columns, 'Title'),
      url: columnIndex(columns, 'URL'),
      note: columnIndex(columns, 'Note'),
      comment: columnIndex(columns, 'Comment'),
      tags: columnIndex(columns, 'Tags'),
    };
  }

  private add(at: ColumnsAt, row: readonly string[]): void {
    // Straight reads, no per-row closure or record: this runs once per place of a 100,000-place list.
    const title = at.title < 0 ? '' : (row[at.title] ?? '').trim();
    const url = at.url < 0 ? '' : (row[at.url] ?? '').trim();
    // Not a place: not counted, not charged, not written anywhere (product.md).
    if (title === '' && url === '') return;
    this.counter?.add();
    // Every place gets the same fields in the same order (absent ones undefined): one object shape
    // keeps the per-place code of a 100,000-place conversion monomorphic.
    this.places.push({
      title,
      url,
      note: at.note < 0 ? undefined : optionalText(row[at.note]),
      comment: at.comment < 0 ? undefined : optionalText(row[at.comment]),
      tags: at.tags < 0 ? undefined : parseTags(row[at.tags]),
      coordinates: undefined,
    });
  }
}

/** Counts records; past the first (the header), each counts against the cap. */
class RowCount implements RowSink {
  rows = 0;

  constructor(private readonly counter: PlaceCounter | undefined) {}

  row(): void {
    this.rows += 1;
    if (this.rows > 1) this.counter?.add();
  }
}

/**
 * Parses a saved-places CSV per the seed and product.md: BOM and CRLF tolerated, quoted multi-line notes,
 * the header found after an optional list description (in English, or Google's columns in the
 * account's language: see {@link headerColumns}), blank and all-comma rows dropped, and a row
 * with neither a Title nor a URL is not a place (2025+ exports put the list's tag names alone in the
 * row after the header). The Tags column, when there is one, becomes each place's `tags`; other
 * extra columns are ignored. A row missing cells is kept with empty strings. A list with its header and no place (Takeout writes "Test" or "Work" lists so, often with
 * the 2025+ tag row) is read as empty: no places, not an error. Throws ConverterError with the seed's
 * messages for parser errors, a missing header, or a file with no content at all. Records are read one at a time; with a `counter`, each place is counted as it is read, and
 * the archive's place cap stops the parse at the first place past it (`too-many-places`).
 */
export function parseSavedPlacesCsv(source: CsvSource, counter?: PlaceCounter): ParsedCsv {
  return readingPlainFirst(source, counter, parseCsvText);
}

/**
 * Runs `read` over `source`, its bytes by the plain pass ({@link eachPlainRecord}); where that pass
 * stops at a quote papaparse reads otherwise, runs it again with papaparse. When the bytes turn out
 * not to be UTF-8, runs it again over their Windows-1252 text ({@link decodeCsvFile}). Each time the
 * places it had counted are taken back first: "Café" stays "Café", where reading on would have
 * written "Caf\uFFFD" and charged for it, and no place is counted twice.
 */
function readingPlainFirst<T>(
  source: CsvSource,
  counter: PlaceCounter | undefined,
  read: (source: CsvSource, records: Records, counter?: PlaceCounter) => T,
): T {
  const counted = counter?.count ?? 0;
  const again = (input: CsvSource): T => {
    counter?.rewind(counted);
    return read(input, eachRecord, counter);
  };
  try {
    return read(source, plainFirst, counter);
  } catch (error) {
    if (typeof source === 'string') throw error;
    if (error instanceof NotUtf8) return again(decodeCsvFile(source).text);
    if (!(error instanceof NotPlain)) throw error;
  }
  // A quote papaparse reads otherwise, or reports: the list is read again by papaparse.
  try {
    return again(source);
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    return again(decodeCsvFile(source).text);
  }
}

/** How a list's records are read: papaparse ({@link eachRecord}) or the plain pass over bytes. */
type Records = (source: CsvSource, sink: RowSink) => string[];

/** The plain pass over bytes ({@link eachPlainRecord}), papaparse over a text. */
const plainFirst: Records = (source, sink) =>
  typeof source === 'string' ? eachRecord(source, sink) : eachPlainRecord(source, sink);

function parseCsvText(source: CsvSource, records: Records, counter?: PlaceCounter): ParsedCsv {
  const text = asText(source);
  const input = typeof text === 'string' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const above = descriptionAbove(input);
  const rows = new ListRows(counter);
  const errors = records(
    above
      ? typeof input === 'string'
        ? input.slice(above.headerAt)
        : input.subarray(above.headerAt)
      : input,
    rows,
  );
  const { head } = rows;
  if (errors.length > 0) throw new ConverterError('csv-parse', parseErrorMessage(errors));
  if (head.length === 0) throw new ConverterError('csv-empty', MESSAGES.csvEmpty);
  if (!rows.found) throw new ConverterError('csv-columns', columnsMessage(trimmed(head[0]!)));

  const description =
    above?.description ??
    head
      .slice(0, -1)
      .map((row) => row.join(',').trim())
      .join('\n');
  return { places: rows.places, columns: rows.columns, ...(description ? { description } : {}) };
}

/**
 * Counts non-blank records without interpreting them (nor keeping them); used only for lists that
 * fail validation. With a `counter`, every record after the first (the header) counts against the
 * archive's place cap, as the list's row count is shown as its places.
 */
export function countNonBlankRows(source: CsvSource, counter?: PlaceCounter): number {
  return readingPlainFirst(source, counter, (text, records, counting) => {
    const count = new RowCount(counting);
    records(asText(text), count);
    return count.rows;
  });
}

/**
 * Windows-1252's characters for the bytes 0x80-0x9F (the rest is Latin-1): Node 20's TextDecoder
 * reads "windows-1252" as Latin-1 and gives C1 controls for them (the euro sign, curly quotes).
 * Undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) stay as they are.
 */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Windows-1252 text of `bytes`, whatever the runtime's decoder makes of 0x80-0x9F. */
function windows1252(bytes: Uint8Array): string {
  return new TextDecoder('windows-1252')
    .decode(bytes)
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/**
 * A list's bytes as text when they start with a UTF-16 byte-order mark (a list saved again as
 * "Unicode" by a spreadsheet), else as they are: UTF-8, read a piece at a time.
 */
export function asText(source: CsvSource): CsvSource {
  if (typeof source === 'string' || source.length < 2) return source;
  const [first, second] = source;
  return (first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff)
    ? decodeCsvFile(source).text
    : source;
}

/** How {@link decodeCsvFile} read a CSV file's bytes. */
export type CsvFileEncoding = 'utf-8' | 'utf-16' | 'windows-1252';

/**
 * The text of a CSV file given on its own (a failed-places CSV to retry, or a list exported by
 * itself), whatever program saved it last: UTF-8 (Takeout's, and PlacePort's), with or without its
 * byte-order mark; UTF-16 with its mark; and otherwise Windows-1252, what Excel's "CSV (Comma
 * delimited)" writes on Western Windows (read as UTF-8, "Café" became "Caf\uFFFD" with no word).
 */
export function decodeCsvFile(bytes: Uint8Array): { text: string; encoding: CsvFileEncoding } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16' };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: windows1252(bytes), encoding: 'windows-1252' };
  }
}
