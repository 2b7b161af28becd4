import { csvField, csvRow } from './csv.js';
import type { Random } from './random.js';
import type { GeneratedPlace, HeaderVariant } from './types.js';

/** The header row of each variant, as Google writes it. */
export const HEADER_ROWS: Readonly<Record<HeaderVariant, string>> = {
  classic: 'Title,Note,URL,Comment',
  tags: 'Title,Note,URL,Tags,Comment',
  '2022': 'Title,Note,URL',
};

const COLUMN_COUNTS: Readonly<Record<HeaderVariant, number>> = { classic: 4, tags: 5, '2022': 3 };

/** Without quirks, the chance that a row is followed by a blank or all-comma row. */
export const EMPTY_ROW_CHANCE = 0.001;

/** How a CSV file is laid out, apart from its places. */
export interface CsvLayout {
  header: HeaderVariant;
  description?: string;
  bom: boolean;
  crlf: boolean;
}

/** The written file and the count of rows that hold no place. */
export interface WrittenCsv {
  csv: string;
  bytes: Uint8Array;
  emptyRows: number;
}

function placeRow(place: GeneratedPlace, header: HeaderVariant): string {
  const start = `${csvField(place.title)},${csvField(place.note)},${csvField(place.url)}`;
  switch (header) {
    case 'classic':
      return `${start},${csvField(place.comment)}`;
    case 'tags':
      return `${start},,${csvField(place.comment)}`;
    case '2022':
      return start;
  }
}

/** Rows are joined into one string every this many lines, so their pieces die young. */
const LINES_PER_BLOCK = 1024;

/**
 * Writes a list's CSV row by row: optional description and blank line, header, rows, chosen line
 * ends. Blank and all-comma rows go in with quirks at one seeded place each, otherwise rarely,
 * as in real files.
 */
export class CsvWriter {
  readonly #layout: CsvLayout;
  readonly #random: Random;
  readonly #quirks: boolean;
  readonly #commas: string;
  readonly #planned = new Map<number, Array<'blank' | 'commas'>>();
  readonly #blocks: string[] = [];
  #lines: string[] = [];
  #rows = 0;
  #emptyRows = 0;

  /** `places` is how many rows will be added; quirks place their empty rows among them. */
  constructor(layout: CsvLayout, places: number, quirks: boolean, random: Random) {
    this.#layout = layout;
    this.#random = random;
    this.#quirks = quirks;
    this.#commas = ','.repeat(COLUMN_COUNTS[layout.header] - 1);
    if (layout.description !== undefined) this.#lines.push(csvRow([layout.description]), '');
    this.#lines.push(HEADER_ROWS[layout.header]);
    if (layout.header === 'tags') this.#empty('commas');
    if (quirks && places > 0) {
      this.#plan(random.int(places + 1), 'blank');
      this.#plan(random.int(places + 1), 'commas');
    }
  }

  #plan(before: number, row: 'blank' | 'commas'): void {
    this.#planned.set(before, [...(this.#planned.get(before) ?? []), row]);
  }

  #empty(row: 'blank' | 'commas'): void {
    this.#lines.push(row === 'blank' ? '' : this.#commas);
    this.#emptyRows++;
  }

  #emitPlanned(): void {
    for (const row of this.#planned.get(this.#rows) ?? []) this.#empty(row);
  }

  /** Appends one place's row. */
  add(place: GeneratedPlace): void {
    this.#emitPlanned();
    this.#lines.push(placeRow(place, this.#layout.header));
    this.#rows++;
    if (!this.#quirks && this.#random.chance(EMPTY_ROW_CHANCE)) {
      this.#empty(this.#random.chance(0.5) ? 'blank' : 'commas');
    }
    if (this.#lines.length >= LINES_PER_BLOCK) {
      this.#blocks.push(this.#lines.join(this.#eol));
      this.#lines = [];
    }
  }

  get #eol(): string {
    return this.#layout.crlf ? '\r\n' : '\n';
  }

  /** The whole file; call once, after the last row. */
  finish(): WrittenCsv {
    this.#emitPlanned();
    if (this.#lines.length > 0) this.#blocks.push(this.#lines.join(this.#eol));
    const eol = this.#eol;
    const csv = `${this.#layout.bom ? '\uFEFF' : ''}${this.#blocks.join(eol)}${eol}`;
    return { csv, bytes: new TextEncoder().encode(csv), emptyRows: this.#emptyRows };
  }
}

/** Writes a whole list at once with a {@link CsvWriter}. */
export function writeCsv(
  layout: CsvLayout,
  places: readonly GeneratedPlace[],
  quirks: boolean,
  random: Random,
): WrittenCsv {
  const writer = new CsvWriter(layout, places.length, quirks, random);
  for (const place of places) writer.add(place);
  return writer.finish();
}
