import type Papa from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import { parseSavedPlacesCsv } from './csv.js';
import { MAX_FOUND_COLUMNS_CHARS } from './errors.js';

/** Every character papaparse is given to read, over all its calls. */
const read = vi.hoisted(() => ({ chars: 0 }));

vi.mock('papaparse', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof Papa }>()).default;
  class CountingParser extends actual.Parser {
    constructor(config: Papa.ParseConfig) {
      super(config);
      const parse = this.parse.bind(this);
      this.parse = (input: string, baseIndex: number, ignoreLastRow: boolean) => {
        read.chars += input.length;
        return parse(input, baseIndex, ignoreLastRow);
      };
    }
  }
  return { default: { ...actual, Parser: CountingParser } };
});

const URL_A = 'https://www.google.com/maps/search/1.5,2.5';

/** The originals, for the spies that count how far searches reach. */
const lastIndexOfText = String.prototype.lastIndexOf;
const bytesLastIndexOf = Uint8Array.prototype.lastIndexOf;
function lastIndexOfBytes(bytes: Uint8Array, value: number, from?: number): number {
  return from === undefined
    ? bytesLastIndexOf.call(bytes, value)
    : bytesLastIndexOf.call(bytes, value, from);
}

describe('a record longer than many pieces', () => {
  it('is read a bounded number of times, not once per piece (the parse stays linear)', () => {
    const note = 'n'.repeat(4_000_000);
    const text = `Title,Note,URL\nLong,"${note}",${URL_A}\nShort,,${URL_A}\n`;
    for (const source of [text, new TextEncoder().encode(text)]) {
      read.chars = 0;
      const { places } = parseSavedPlacesCsv(source);
      expect(places.map((place) => [place.title, place.note?.length])).toEqual([
        ['Long', note.length],
        ['Short', undefined],
      ]);
      // Read again with every 32 KB piece, the note would be read ~120 times (~250 million
      // characters); parsed again only when it has doubled, a few times its length.
      expect(read.chars).toBeLessThan(4 * text.length);
    }
  });

  it('looks for line ends in each piece only, never back through the whole list', () => {
    const line = `Title,Note,URL\nLong,"${'n'.repeat(4_000_000)}",${URL_A}\n`;
    const bytes = new TextEncoder().encode(line);
    // Each search's reach: from where it starts back to the start of what it searches.
    let reached = 0;
    const inBytes = vi.spyOn(Uint8Array.prototype, 'lastIndexOf').mockImplementation(function (
      this: Uint8Array,
      value: number,
      from?: number,
    ) {
      reached += from === undefined ? this.length : from + 1;
      return lastIndexOfBytes(this, value, from);
    });
    const inText = vi.spyOn(String.prototype, 'lastIndexOf').mockImplementation(function (
      this: string,
      search: string,
      from?: number,
    ) {
      reached += from === undefined ? this.length : from + 1;
      return lastIndexOfText.call(this, search, from);
    });
    try {
      for (const source of [line, bytes]) {
        reached = 0;
        expect(parseSavedPlacesCsv(source).places).toHaveLength(1);
        // Searched back to the list's start from every 32 KB piece: ~500 million; once each: ~4 million.
        expect(reached).toBeLessThan(2 * line.length);
      }
    } finally {
      inBytes.mockRestore();
      inText.mockRestore();
    }
  });

  it('refuses a file that is one endless line with a short message', () => {
    const line = `Title;Note;URL ${'x'.repeat(3_000_000)}`;
    read.chars = 0;
    expect(() => parseSavedPlacesCsv(new TextEncoder().encode(`${line}\n`))).toThrow(
      /^CSV file must contain "Title" and "URL" columns\. Found columns: Title;Note;URL x+…$/,
    );
    expect(read.chars).toBeLessThan(4 * line.length);
    try {
      parseSavedPlacesCsv(line);
    } catch (error) {
      const found = (error as Error).message.split('Found columns: ')[1]!;
      expect(found).toHaveLength(MAX_FOUND_COLUMNS_CHARS + 1);
    }
  });
});
