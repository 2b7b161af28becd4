import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { ConverterError } from './errors.js';
import {
  countNonBlankRows,
  decodeCsvFile,
  eachPlainRecord,
  NotPlain,
  parseSavedPlacesCsv,
} from './csv.js';
import { PlaceCounter } from './limits.js';

function errorOf(text: string): ConverterError {
  try {
    parseSavedPlacesCsv(text);
  } catch (error) {
    if (error instanceof ConverterError) return error;
    throw error;
  }
  throw new Error('expected a ConverterError');
}

const URL_A = 'https://www.google.com/maps/place/A/data=!4m2!3m1!1s0x1:0x2';

describe('parseSavedPlacesCsv', () => {
  it('reads the classic header with notes and comments', () => {
    const csv = `Title,Note,URL,Comment\nCafé,Good coffee,${URL_A},Go early\n`;
    expect(parseSavedPlacesCsv(csv).places).toEqual([
      { title: 'Café', note: 'Good coffee', url: URL_A, comment: 'Go early' },
    ]);
  });

  it('reads the 2022 header without Comment and the 2025 header with Tags', () => {
    expect(parseSavedPlacesCsv(`Title,Note,URL\nA,,${URL_A}\n`).places).toEqual([
      { title: 'A', url: URL_A },
    ]);
    const tags = `Title,Note,URL,Tags,Comment\n,,,,\nA,n,${URL_A},food,c\n`;
    expect(parseSavedPlacesCsv(tags).places).toEqual([
      { title: 'A', note: 'n', url: URL_A, comment: 'c', tags: ['food'] },
    ]);
  });

  it('keeps the Tags cell as tag names, split on ";" and trimmed', () => {
    const csv = `Title,Note,URL,Tags,Comment\nA,,${URL_A},🛴 Fun stores; 📚 Bookstores ;;,\nB,,${URL_A}, ; ,\n`;
    const [a, b] = parseSavedPlacesCsv(csv).places;
    expect(a?.tags).toEqual(['🛴 Fun stores', '📚 Bookstores']);
    expect(b?.tags).toBeUndefined();
  });

  it('drops every row with neither a Title nor a URL: the tag row after a 2025 header is not a place', () => {
    const csv = `Title,Note,URL,Tags,Comment\n,,,🛴 Fun stores;📚 Bookstores,\nA,,${URL_A},🛴 Fun stores,\n, a note ,,,and a comment\n,,${URL_A},,\nNo link,,,,\n`;
    const parsed = parseSavedPlacesCsv(csv);
    expect(parsed.places.map((p) => [p.title, p.url])).toEqual([
      ['A', URL_A],
      ['', URL_A],
      ['No link', ''],
    ]);
    // A list whose only row is its tag names holds no place: it is read, and empty.
    expect(parseSavedPlacesCsv('Title,Note,URL,Tags,Comment\n,,,🛴 Fun stores,\n').places).toEqual(
      [],
    );
  });

  it('finds the header after a list description and keeps the description', () => {
    const csv = `Places for the Tokyo trip, spring\n\nTitle,Note,URL,Comment\nA,,${URL_A},\n`;
    const parsed = parseSavedPlacesCsv(csv);
    expect(parsed.description).toBe('Places for the Tokyo trip, spring');
    expect(parsed.places).toHaveLength(1);
  });

  it('takes a description as free text: a quote in it neither fails the list nor swallows the header', () => {
    const places = `Title,Note,URL,Comment\nA,,${URL_A},\n"B","x",${URL_A},\n`;
    for (const description of [
      '"Best" coffee in town',
      'Trip,"La dolce vita',
      '"Eat, pray, love" trip\n"La dolce vita" spots',
      'Unclosed "quote',
    ]) {
      for (const newline of ['\n', '\r\n']) {
        const csv = `${description.replace(/\n/g, newline)}${newline}${newline}${places}`;
        for (const source of [csv, new TextEncoder().encode(`\uFEFF${csv}`)]) {
          const parsed = parseSavedPlacesCsv(source);
          expect(parsed.description).toBe(description);
          expect(parsed.places.map((place) => place.title)).toEqual(['A', 'B']);
        }
      }
    }
  });

  it('finds the header after a description that is not UTF-8, counting its lines in the bytes', () => {
    const head = Uint8Array.from('Caf\u00e9s \u00e0 Paris\r\n\r\n', (c) => c.charCodeAt(0));
    // Not Google's order: a header read from the wrong byte is no header at all.
    const places = new TextEncoder().encode(`Title,URL,Note\r\nA,${URL_A},\r\n`);
    const parsed = parseSavedPlacesCsv(new Uint8Array([...head, ...places]));
    expect(parsed.description).toBe('Caf\ufffds \ufffd Paris');
    expect(parsed.places.map((place) => place.url)).toEqual([URL_A]);
  });

  it('reads a description written as one quoted cell as that cell', () => {
    const places = `Title,Note,URL\nA,,${URL_A}\n`;
    expect(parseSavedPlacesCsv(`"Eat, pray, ""love"""\n\n${places}`).description).toBe(
      'Eat, pray, "love"',
    );
    expect(parseSavedPlacesCsv(`"Two lines,\nof ""notes"""\n\n${places}`).description).toBe(
      'Two lines,\nof "notes"',
    );
  });

  it('looks for the header in the first five non-blank lines only, as before', () => {
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) => `About "it" ${i}`).join('\n\n');
    const places = `Title,Note,URL\nA,,${URL_A}\n`;
    expect(parseSavedPlacesCsv(`${lines(4)}\n${places}`).places).toHaveLength(1);
    expect(() => parseSavedPlacesCsv(`${lines(5)}\n${places}`)).toThrow(ConverterError);
  });

  it('trims headers and tolerates BOM, CRLF and quoted multi-line notes (their CRLF read as LF)', () => {
    const csv = `\uFEFF Title , Note ,URL ,Comment\r\n"Bar ""Le Zinc""","line one\r\nline two, with comma",${URL_A},\r\n`;
    expect(parseSavedPlacesCsv(csv).places).toEqual([
      { title: 'Bar "Le Zinc"', note: 'line one\nline two, with comma', url: URL_A },
    ]);
  });

  it('keeps a CRLF one line break when a piece ends between its CR and LF', () => {
    // The second piece starts after the header's LF and holds no LF: it is cut at 32 KB, right
    // after the note's CR.
    const header = 'Title,Note,URL\n';
    const note = 'x'.repeat(32 * 1024 - 4);
    const text = `${header}P,"${note}\r\ny",${URL_A}\n`;
    expect(text.indexOf('\r')).toBe(header.length + 32 * 1024 - 1);
    for (const source of [text, new TextEncoder().encode(text)]) {
      expect(parseSavedPlacesCsv(source).places).toEqual([
        { title: 'P', note: `${note}\ny`, url: URL_A },
      ]);
    }
  });

  it('reads every place of a list whose lines end in mixed ways (a hand-edited list)', () => {
    const rows = ['A,n,u1,c', 'B,n,u2,c', 'C,n,u3,c', 'D,"two\rlines",u4,c'];
    const read = (source: string | Uint8Array) =>
      parseSavedPlacesCsv(source).places.map((place) => [place.title, place.note, place.comment]);
    const want = [
      ['A', 'n', 'c'],
      ['B', 'n', 'c'],
      ['C', 'n', 'c'],
      ['D', 'two\nlines', 'c'],
    ];
    // Mostly CRLF with one LF line, mostly LF with CRLF lines, and old Mac CR.
    const mostlyCrlf = `Title,Note,URL,Comment\r\n${rows[0]}\r\n${rows[1]}\n${rows[2]}\r\n${rows[3]}\r\n`;
    const mostlyLf = `Title,Note,URL,Comment\n${rows[0]}\n${rows[1]}\r\n${rows[2]}\n${rows[3]}\r\n`;
    const cr = `Title,Note,URL,Comment\r${rows.join('\r')}\r`;
    for (const text of [mostlyCrlf, mostlyLf, cr]) {
      expect(read(text)).toEqual(want);
      expect(read(new TextEncoder().encode(`\uFEFF${text}`))).toEqual(want);
    }
  });

  it('drops blank and all-comma rows', () => {
    const csv = `Title,Note,URL,Comment\n\n,,,\n  , , , \nA,,${URL_A},\n\n`;
    expect(parseSavedPlacesCsv(csv).places).toHaveLength(1);
  });

  it('keeps a row missing cells, with empty strings', () => {
    const parsed = parseSavedPlacesCsv(`Title,Note,URL,Comment\nA,,${URL_A},\nShort\n`);
    expect(parsed.places[1]).toEqual({ title: 'Short', url: '' });
  });

  it('reads a list with its header and no place as empty (Takeout writes such lists)', () => {
    for (const text of [
      'Title,Note,URL,Comment\n',
      'Title,Note,URL,Comment\n,,,\n',
      '\uFEFFTitle,Note,URL\r\n',
    ]) {
      expect(parseSavedPlacesCsv(text).places).toEqual([]);
    }
  });

  it("reads Google's columns named in the account's language, by their order", () => {
    // Takeout localizes the header and keeps `URL` and the order (German, Japanese, Spanish exports).
    const german = `Titel,Notiz,URL,Tags,Kommentar\n,,,,\nGesetzte Markierung,Klettergebiet,${URL_A},Kletter;Draußen,Früh hin\n`;
    const read = parseSavedPlacesCsv(german);
    expect(read.places).toEqual([
      {
        title: 'Gesetzte Markierung',
        note: 'Klettergebiet',
        url: URL_A,
        tags: ['Kletter', 'Draußen'],
        comment: 'Früh hin',
      },
    ]);
    // The failed-places CSV finds the Tags column by Google's English names.
    expect(read.columns).toEqual(['Title', 'Note', 'URL', 'Tags', 'Comment']);
    expect(
      parseSavedPlacesCsv(`\uFEFFタイトル,メモ,URL,コメント\r\n寺,静か,${URL_A},朝\r\n`).places,
    ).toEqual([{ title: '寺', note: '静か', url: URL_A, comment: '朝' }]);
    expect(parseSavedPlacesCsv(`Mi lista\n\nTítulo,Nota,URL\nPlaza,,${URL_A}\n`)).toMatchObject({
      description: 'Mi lista',
      places: [{ title: 'Plaza', url: URL_A }],
    });
  });

  it("takes a row for Google's localized header only in Google's shape", () => {
    // URL not third, a blank name, or six columns: not Google's header, so the seed's column error.
    for (const header of ['Titel,URL,Notiz', 'Titel,,URL,Kommentar', 'A,B,URL,C,D,E']) {
      expect(errorOf(`${header}\nx,y,z\n`).code).toBe('csv-columns');
    }
    // English names win over the shape: a list with its own columns is read by them.
    expect(parseSavedPlacesCsv(`Note,Title,URL\nquiet,A,${URL_A}\n`).places).toEqual([
      { title: 'A', note: 'quiet', url: URL_A },
    ]);
  });

  it('uses the seed messages for a file with no content at all and for missing columns', () => {
    expect(errorOf('').message).toBe('CSV file is empty or contains no valid data rows.');
    expect(errorOf('\n\n  \n').message).toBe('CSV file is empty or contains no valid data rows.');
    expect(errorOf('Name,Address\nA,B\n').message).toBe(
      'CSV file must contain "Title" and "URL" columns. Found columns: Name, Address',
    );
  });

  it('looks for the header only within the first 5 non-blank rows', () => {
    const lines = ['d1', 'd2', 'd3', 'd4'];
    expect(parseSavedPlacesCsv(`${lines.join('\n')}\nTitle,URL\nA,${URL_A}\n`).places).toHaveLength(
      1,
    );
    const error = errorOf(`${[...lines, 'd5'].join('\n')}\nTitle,URL\nA,${URL_A}\n`);
    expect(error.code).toBe('csv-columns');
    expect(error.message).toBe(
      'CSV file must contain "Title" and "URL" columns. Found columns: d1',
    );
  });

  it('reports parser errors joined by a comma', () => {
    const error = errorOf(`Title,URL\n"unterminated,${URL_A}\n`);
    expect(error.code).toBe('csv-parse');
    expect(error.message).toMatch(/^CSV parsing error: .+/);
  });

  it('reads each list on its own: nothing of one list (an error, a stop at the cap, its line ending) reaches the next', () => {
    // The parser is made once and reused for every list of a run.
    const lf = `Title,URL\nA,${URL_A}\nB,${URL_A}\n`;
    const crlf = `Title,URL\r\n"C\r\nD",${URL_A}\r\nE,${URL_A}\r\n`;
    const read = (text: string) => parseSavedPlacesCsv(text).places.map((place) => place.title);
    expect(read(lf)).toEqual(['A', 'B']);
    expect(errorOf(`Title,URL\n"unterminated,${URL_A}\n`).code).toBe('csv-parse');
    expect(read(crlf)).toEqual(['C\nD', 'E']);
    // Stopped by the cap inside a piece, the parse is abandoned half-way through its text.
    const long = `Title,URL\n${Array.from({ length: 3000 }, (_, i) => `P${i},${URL_A}`).join('\n')}\n`;
    expect(() => parseSavedPlacesCsv(long, new PlaceCounter(10))).toThrow(
      expect.objectContaining({ code: 'too-many-places' }),
    );
    expect(read(lf)).toEqual(['A', 'B']);
    expect(read(crlf)).toEqual(['C\nD', 'E']);
    expect(read(long)).toHaveLength(3000);
    expect(countNonBlankRows(lf)).toBe(3);
    expect(read(lf)).toEqual(['A', 'B']);
  });

  it('never throws anything but its own errors on arbitrary input (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.string({ maxLength: 200 }),
        (bytes, text) => {
          for (const input of [new TextDecoder().decode(bytes), text, `Title,URL\n${text}`]) {
            try {
              // Read (a header was found, places or not), or refused with its own error.
              const parsed = parseSavedPlacesCsv(input);
              expect(parsed.columns.length).toBeGreaterThan(0);
            } catch (error) {
              expect(error).toBeInstanceOf(ConverterError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a list read from its bytes, a piece at a time', () => {
  const outcome = (read: () => unknown) => {
    try {
      return read();
    } catch (error) {
      return error;
    }
  };
  // Cells cut by every piece's end: quoted lines, doubled quotes, characters of 2 to 4 bytes,
  // carriage returns, blank rows, a description, a BOM; and texts that fail to parse.
  const row = fc.tuple(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', '"', '\n', '\r\n', 'é', '清水', '🛴', ',,,', ' '),
  );

  it('reads a text and its bytes alike, a piece at a time, with the records papaparse finds in the whole text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 500, max: 3_000 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (rows, repeat, newline, bom) => {
          const lines = rows.map(([title, note, odd]) => {
            const quoted = `"${`${note}${odd}`.replace(/"/g, '""')}"`;
            return `${title.replace(/[",\r\n]/g, '')},${quoted},${URL_A},${odd === '"' ? '"x' : ''}`;
          });
          const body = Array.from({ length: repeat }, (_, i) => lines[i % lines.length]);
          const text = `${bom ? '\ufeff' : ''}About this list${newline}Title,Note,URL,Comment${newline}${body.join(newline)}${newline}`;
          const bytes = new TextEncoder().encode(text);
          expect(outcome(() => parseSavedPlacesCsv(bytes))).toEqual(
            outcome(() => parseSavedPlacesCsv(text)),
          );
          expect(countNonBlankRows(bytes)).toBe(countNonBlankRows(text));
          // Both are cut into pieces: papaparse reading the whole text in one go, its lines ended
          // with LF as the parse ends them, is the reference.
          const whole = Papa.parse<string[]>(text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n'), {
            delimiter: ',',
            newline: '\n',
            skipEmptyLines: 'greedy',
          });
          expect(countNonBlankRows(text)).toBe(whole.data.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('cuts a line longer than a piece between characters, never inside one (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), (chars) => {
        const note = chars.repeat(Math.ceil(70_000 / chars.length)).replace(/"/g, '""');
        const text = `Title,Note,URL\nLong,"${note}",${URL_A}\nShort,,${URL_A}\n`;
        const bytes = new TextEncoder().encode(text);
        expect(outcome(() => parseSavedPlacesCsv(bytes))).toEqual(
          outcome(() => parseSavedPlacesCsv(text)),
        );
      }),
      { numRuns: 30 },
    );
  });
});

describe("the plain pass over a list's bytes", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  /** The records the plain pass hands on, each row's cells. */
  const plainRows = (bytes: Uint8Array): string[][] => {
    const rows: string[][] = [];
    eachPlainRecord(bytes, { row: (row) => rows.push(row) });
    return rows;
  };
  /** papaparse's records of the whole text, lines ended with LF, blank ones dropped. */
  const papaRows = (text: string): string[][] =>
    Papa.parse<string[]>(text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n'), {
      delimiter: ',',
      newline: '\n',
      skipEmptyLines: 'greedy',
    }).data;
  const outcome = (read: () => unknown) => {
    try {
      return read();
    } catch (error) {
      return error;
    }
  };

  it('reads quoted cells, doubled quotes, every line end, a BOM and blank rows as papaparse does', () => {
    const text =
      '\ufeffTitle,Note,URL,Tags,Comment\r\n' +
      `"Caf\u00e9, ""Le"" Bar","line one\r\nline two\rthree",${URL_A},\ud83d\udef4 Fun;\ud83d\udcda Books,\n` +
      '\n,,,,\r' +
      `Plain,,${URL_A},,"a ""quoted"" comment"\r` +
      `\u6e05\u6c34\u5bfa,"",${URL_A},,last,`;
    const rows = plainRows(encode(text));
    expect(rows).toEqual(papaRows(text));
    expect(rows[1]).toEqual([
      'Caf\u00e9, "Le" Bar',
      'line one\nline two\nthree',
      URL_A,
      '\ud83d\udef4 Fun;\ud83d\udcda Books',
      '',
    ]);
    expect(rows[3]).toEqual(['\u6e05\u6c34\u5bfa', '', URL_A, '', 'last', '']);
  });

  it('reads a Buffer holding a slice of a larger one at its own offset, and a plain Uint8Array, alike', () => {
    const text = `Title,URL\nCaf\u00e9 Ana,${URL_A}\n"Quoted, title",${URL_A}\nplain,${URL_A}\n`;
    const inside = Buffer.from(`xxxxx${text}yyyyy`).subarray(5, 5 + encode(text).length);
    expect(inside.byteOffset).toBeGreaterThan(0);
    expect(plainRows(inside)).toEqual(papaRows(text));
    expect(plainRows(new Uint8Array(encode(text)))).toEqual(papaRows(text));
  });

  it('leaves to papaparse every quote it would read otherwise or report', () => {
    for (const text of [
      `Title,URL\nJoe's "Best" Pizza,${URL_A}\n`, // a quote inside an unquoted cell
      `Title,URL\n"never closed,${URL_A}\n`,
      `Title,URL\n"closed" then more,${URL_A}\n`,
      `Title,URL\n"closed" ,${URL_A}\n`, // papaparse allows spaces after the closing quote
      `Title,URL\nA,${URL_A}\n"ends on a doubled quote""`,
    ]) {
      expect(() => plainRows(encode(text)), text).toThrow(NotPlain);
      // The list is still read, exactly as from its text.
      expect(outcome(() => parseSavedPlacesCsv(encode(text)))).toEqual(
        outcome(() => parseSavedPlacesCsv(text)),
      );
    }
    expect(
      parseSavedPlacesCsv(encode(`Title,URL\nJoe's "Best" Pizza,${URL_A}\n`)).places[0]!.title,
    ).toBe('Joe\'s "Best" Pizza');
    expect(errorOf(`Title,URL\n"never closed,${URL_A}\n`).code).toBe('csv-parse');
  });

  it('counts each place once when a list is read again after the plain pass stopped', () => {
    const places = Array.from({ length: 50 }, (_, i) => `P${i},${URL_A}`).join('\n');
    const bytes = encode(`Title,URL\n${places}\nLate "quote",${URL_A}\n`);
    const counter = new PlaceCounter(51);
    expect(parseSavedPlacesCsv(bytes, counter).places).toHaveLength(51);
    expect(counter.count).toBe(51);
    expect(() => parseSavedPlacesCsv(bytes, new PlaceCounter(50))).toThrow(
      expect.objectContaining({ code: 'too-many-places' }),
    );
  });

  it('reads a list that is not UTF-8 as Windows-1252, whichever pass meets the byte first', () => {
    const cafe = Uint8Array.from([0x43, 0x61, 0x66, 0xe9]); // "Café" in Windows-1252
    const join = (...parts: (string | Uint8Array)[]) =>
      Uint8Array.from(
        parts.flatMap((part) => [...(typeof part === 'string' ? encode(part) : part)]),
      );
    expect(parseSavedPlacesCsv(join('Title,URL\n', cafe, `,${URL_A}\n`)).places[0]!.title).toBe(
      'Café',
    );
    // The plain pass stops at the quote first; papaparse's pass then meets the byte.
    const both = parseSavedPlacesCsv(join('Title,URL\nA "b",', `${URL_A}\n`, cafe, `,${URL_A}\n`));
    expect(both.places.map((place) => place.title)).toEqual(['A "b"', 'Café']);
  });

  it('reads any text of quotes, commas, line ends and characters as papaparse does, or leaves it to papaparse (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'b c',
      ',',
      '"',
      '""',
      '\n',
      '\r',
      '\r\n',
      ' ',
      '\u00e9',
      '\u6e05',
      '\ud83d\udef4',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        const bytes = encode(text);
        let rows: string[][] | undefined;
        try {
          rows = plainRows(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(NotPlain);
        }
        if (rows) expect(rows).toEqual(papaRows(text));
        const header = encode(`Title,Note,URL\n${text}`);
        expect(outcome(() => parseSavedPlacesCsv(header))).toEqual(
          outcome(() => parseSavedPlacesCsv(`Title,Note,URL\n${text}`)),
        );
        expect(countNonBlankRows(bytes)).toBe(countNonBlankRows(text));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('countNonBlankRows', () => {
  it('counts records, not lines, and skips blank ones', () => {
    expect(countNonBlankRows('a,b\n"x\ny",z\n\n,,\n')).toBe(2);
  });
});

describe('a list in UTF-16 (saved again as "Unicode" by a spreadsheet)', () => {
  it('is read from its bytes as the same list, in either byte order', () => {
    const text = `Title,Note,URL\nCafé,Größe,${URL_A}\n`;
    const le = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(Uint16Array.from(text, (c) => c.charCodeAt(0)).buffer),
    ]);
    const be = new Uint8Array(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1]!, le[i]!];
    for (const bytes of [le, be]) {
      expect(parseSavedPlacesCsv(bytes).places).toEqual([
        { title: 'Café', note: 'Größe', url: URL_A },
      ]);
      expect(countNonBlankRows(bytes)).toBe(2);
    }
  });
});

describe('a list whose bytes are not UTF-8 (saved again by Excel on Windows, zipped by hand)', () => {
  /** Windows-1252 bytes of `text` (its characters are all in Latin-1 but € and –). */
  const HIGH: Record<string, number> = { '€': 0x80, '–': 0x96 };
  const cp1252 = (text: string) => new Uint8Array([...text].map((c) => HIGH[c] ?? c.charCodeAt(0)));
  const url = 'https://www.google.com/maps/place/A/data=!4m2!3m1!1s0x0:0x1';

  it('is read as Windows-1252, counted once, wherever the first such byte is', () => {
    // Far past the first piece too, so rows were read (and counted) before the bytes give it away.
    const plain = Array.from({ length: 3_000 }, (_, i) => `Plain ${i},,${url}\n`).join('');
    const text = `Title,Note,URL\n${plain}Café Crème,München – 5 €,${url}\n`;
    const counter = new PlaceCounter();
    const { places } = parseSavedPlacesCsv(cp1252(text), counter);
    expect(places).toHaveLength(3_001);
    expect(places.at(-1)).toMatchObject({ title: 'Café Crème', note: 'München – 5 €' });
    expect(counter.count).toBe(3_001);
    expect(countNonBlankRows(cp1252(text), new PlaceCounter())).toBe(3_002);
    // UTF-8 is read as it is.
    const utf8 = parseSavedPlacesCsv(new TextEncoder().encode(text)).places.at(-1);
    expect(utf8).toMatchObject({ title: 'Café Crème', note: 'München – 5 €' });
  });
});

describe('decodeCsvFile', () => {
  const text = 'Title,Note,URL\nCafé Größe,Rüdesheim €5,https://x\n';
  it('reads UTF-8 with or without its mark, and UTF-16 with its mark', () => {
    const utf8 = new TextEncoder().encode(text);
    expect(decodeCsvFile(utf8)).toEqual({ text, encoding: 'utf-8' });
    expect(decodeCsvFile(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toEqual({
      text,
      encoding: 'utf-8',
    });
    const le = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(Uint16Array.from(text, (c) => c.charCodeAt(0)).buffer),
    ]);
    expect(decodeCsvFile(le)).toEqual({ text, encoding: 'utf-16' });
    const be = new Uint8Array(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1]!, le[i]!];
    expect(decodeCsvFile(be)).toEqual({ text, encoding: 'utf-16' });
  });

  it('reads what is not UTF-8 as Windows-1252, as Excel saves a CSV on Western Windows', () => {
    // "Café Größe,Rüdesheim €5" in Windows-1252: é df f6 fc and the euro sign 0x80 (which
    // Node 20's decoder alone reads as a C1 control).
    const cp1252 = Uint8Array.from(
      'Title,Note,URL\nCaf\u00e9 Gr\u00f6\u00dfe,R\u00fcdesheim \u00805,https://x\n',
      (c) => c.charCodeAt(0),
    );
    expect(decodeCsvFile(cp1252)).toEqual({ text, encoding: 'windows-1252' });
    expect(parseSavedPlacesCsv(decodeCsvFile(cp1252).text).places[0]).toMatchObject({
      title: 'Café Größe',
      note: 'Rüdesheim €5',
    });
  });
});
