import { makeZipBomb } from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readArchive } from '../inspect.js';
import { entryInterest, looksLikeStarredStart } from './archive.js';
import { ConverterError, MESSAGES } from './errors.js';
import { describeBytes, LIMITS } from './limits.js';

const URL_A = 'https://www.google.com/maps/search/48.85837,2.294481';
const list = (rows: number) =>
  strToU8(
    `Title,Note,URL,Comment\n${Array.from({ length: rows }, (_, i) => `P${i},,${URL_A},`).join('\n')}\n`,
  );

function zip(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files, { level: 6 });
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ConverterError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

const EMPTY_STARRED = '{"type":"FeatureCollection","features":[]}';

describe('archive rules (seed section 5, product.md)', () => {
  it('skips folders and non-CSV files, and excludes every non-place list', () => {
    const bytes = zip({
      'Takeout/': new Uint8Array(),
      'Takeout/Saved/': new Uint8Array(),
      'Takeout/Saved/Want to go.csv': list(2),
      'Takeout/Saved/Favourite images.csv': list(1),
      'Takeout/Saved/Favorite images.csv': list(1),
      'Takeout/Saved/IMAGES.CSV': list(1),
      'Takeout/Saved/Favourite pages.csv': list(1),
      'Takeout/Saved/Favorite Pages.csv': list(1),
      'Takeout/archive_browser.html': strToU8('<html></html>'),
      // No starred places: Takeout writes an empty collection, which is not a list.
      'Takeout/Maps (your places)/Saved Places.json': strToU8(EMPTY_STARRED),
    });
    expect(readArchive(bytes).map((l) => [l.path, l.name, l.rowCount])).toEqual([
      ['Takeout/Saved/Want to go.csv', 'Want to go', 2],
    ]);
  });

  it("finds the starred places under the name Takeout gives them in the account's language", () => {
    const feature = (n: number) =>
      `{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"date":"2024-01-0${n}T00:00:00Z","google_maps_url":"http://maps.google.com/?cid=${n}","location":{"name":"Ort ${n}"}},"type":"Feature"}`;
    const starred = (count: number) =>
      strToU8(
        `{\n  "type": "FeatureCollection",\n  "features": [${Array.from({ length: count }, (_, i) => feature(i + 1)).join(',')}]\n}`,
      );
    // Reviews share the envelope and the link field; labelled places (Home, Work) have no link.
    const reviews = strToU8(
      '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"date":"2024","five_star_rating_published":5,"google_maps_url":"http://maps.google.com/?cid=9","location":{"name":"Café"},"review_text_published":"Gut"},"type":"Feature"}]}',
    );
    const labelled = strToU8(
      '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"address":"Rue 1","name":"Zuhause"},"type":"Feature"}]}',
    );
    const bytes = zipSync(
      {
        'Takeout/Gespeichert/Favoriten.csv': list(1),
        'Takeout/Maps (Meine Orte)/Gespeicherte Orte.json': starred(3),
        'Takeout/Maps (Meine Orte)/Bewertungen.json': reviews,
        'Takeout/Maps/Meine Orte mit Label/Orte mit Label.json': labelled,
        'Takeout/Maps (vos adresses)/Adresses enregistrées.json': starred(2),
        'Takeout/Fit/Daily.json': strToU8('{"type":"FeatureCollection","features":[]}'),
      },
      // Stored and deflated alike: the start of a deflated file is inflated to tell it.
      { level: 0 },
    );
    const read = (archive: Uint8Array) =>
      readArchive(archive).map((l) => [l.path, l.name, l.kind, l.rowCount]);
    const expected = [
      ['Takeout/Gespeichert/Favoriten.csv', 'Favoriten', 'csv', 1],
      ['Takeout/Maps (Meine Orte)/Gespeicherte Orte.json', 'Gespeicherte Orte', 'starred', 3],
      [
        'Takeout/Maps (vos adresses)/Adresses enregistrées.json',
        'Adresses enregistrées',
        'starred',
        2,
      ],
    ];
    expect(read(bytes)).toEqual(expected);
    const deflated = zip({
      'Takeout/Gespeichert/Favoriten.csv': list(1),
      // Past the part of the file looked at: its start alone tells it.
      'Takeout/Maps (Meine Orte)/Gespeicherte Orte.json': starred(2_000),
      'Takeout/Maps (Meine Orte)/Bewertungen.json': reviews,
    });
    expect(read(deflated)).toEqual([
      expected[0],
      ['Takeout/Maps (Meine Orte)/Gespeicherte Orte.json', 'Gespeicherte Orte', 'starred', 2_000],
    ]);
  });

  it("takes Takeout's Saved folder under its name in German, French and Japanese", () => {
    for (const saved of ['Gespeichert', 'Enregistré', '保存済み', 'enregistre\u0301']) {
      const bytes = zip({
        [`Takeout/${saved}/Favoriten.csv`]: list(2),
        // Another product's CSV beside it, with no list header: not a list.
        'Takeout/Fit/Tägliche Aktivitätsmesswerte/2019-01-01.csv': strToU8('Datum,Schritte\n1,2\n'),
      });
      expect(
        readArchive(bytes).map((l) => [l.name, l.rowCount]),
        saved,
      ).toEqual([['Favoriten', 2]]);
      // Known by its name, not its lists' headers: a broken list there is still its list.
      const broken = zip({
        [`Takeout/${saved}/Kaputt.csv`]: strToU8('Name\nx\n'),
        'Takeout/Fit/2019-01-01.csv': strToU8('Datum,Schritte\n1,2\n'),
      });
      expect(
        readArchive(broken).map((l) => l.name),
        saved,
      ).toEqual(['Kaputt']);
    }
  });

  it("without a known Saved folder, takes the folders whose CSVs start with a list's header", () => {
    const fit = Object.fromEntries(
      Array.from({ length: 2_100 }, (_, day) => [
        `Takeout/Fit/Daily/${day}.csv`,
        strToU8('Fecha,Pasos\n2019-01-01,10\n'),
      ]),
    );
    const bytes = zip({
      ...fit,
      'Takeout/YouTube/Suscripciones.csv': strToU8('ID,URL,Título\nx,https://y,z\n'),
      // Lists in a folder whose name is not known, in Spanish: Google's header by position…
      'Takeout/Guardado/Quiero ir.csv': strToU8(
        'Título,Nota,URL,Etiquetas,Comentario\nPlaza,,https://www.google.com/maps/search/40.4,-3.7,,\n',
      ),
      // …beside a list of the same folder whose header is broken: still offered, with its reason.
      'Takeout/Guardado/Roto.csv': strToU8('Nombre\nx\n'),
    });
    expect(readArchive(bytes).map((l) => [l.path, l.problem ?? null])).toEqual([
      ['Takeout/Guardado/Quiero ir.csv', null],
      [
        'Takeout/Guardado/Roto.csv',
        'CSV file must contain "Title" and "URL" columns. Found columns: Nombre',
      ],
    ]);
    // No CSV with a list's header at all: the seed's rule, every CSV.
    const none = zip({ 'A/x.csv': strToU8('a,b\n'), 'B/y.csv': strToU8('c,d\n') });
    expect(readArchive(none).map((l) => l.path)).toEqual(['A/x.csv', 'B/y.csv']);
    // …but not another product's CSVs in a Takeout export (a part without "Saved"): no list. A CSV
    // at the export's top is no product's, and stays the seed's.
    expect(
      readArchive(zip({ ...fit, 'Takeout/x.csv': strToU8('a,b\n') })).map((l) => l.path),
    ).toEqual(['Takeout/x.csv']);
    expect(() => readArchive(zip(fit))).toThrow(MESSAGES.noPlaceLists);
    // The starred places are a list whatever the CSVs are.
    const starred = zip({
      ...fit,
      'Takeout/Maps (your places)/Saved Places.json': strToU8(
        '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"google_maps_url":"http://maps.google.com/?cid=1","location":{"name":"Ort"}},"type":"Feature"}]}',
      ),
    });
    expect(readArchive(starred).map((l) => l.kind)).toEqual(['starred']);
  });

  it('knows a list by its header saved again as UTF-16 or with semicolons, in a folder whose name is not known (i18n audit)', () => {
    const header = 'Titel,Notitie,URL,Tags,Opmerking\n';
    const row = 'Plein,,https://www.google.com/maps/search/52.37,4.89,,\n';
    // A spreadsheet's "Unicode" save: UTF-16 LE after its byte-order mark, which a list reads.
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(Uint16Array.from([...(header + row)].map((c) => c.charCodeAt(0))).buffer),
    ]);
    const fit = { 'Takeout/Fit/2019-01-01.csv': strToU8('Datum,Stappen\n1,2\n') };
    const unicode = zip({ ...fit, 'Takeout/Opgeslagen/Wil ik heen.csv': utf16 });
    expect(readArchive(unicode).map((l) => [l.path, l.rowCount, l.problem ?? null])).toEqual([
      ['Takeout/Opgeslagen/Wil ik heen.csv', 1, null],
    ]);
    // A Dutch Excel's save parts cells with semicolons: offered with the reason it cannot be read,
    // as in a Saved folder, not taken for another product's file (which refused the archive with
    // "select Saved").
    const semicolons = zip({
      ...fit,
      'Takeout/Opgeslagen/Wil ik heen.csv': strToU8((header + row).replace(/,/g, ';')),
    });
    const [list, ...others] = readArchive(semicolons);
    expect(others).toEqual([]);
    expect(list?.path).toBe('Takeout/Opgeslagen/Wil ik heen.csv');
    expect(list?.problem).toMatch(/Title|columns|parse/i);
  });

  it("skips a list whose bytes do not match the archive's CRC-32, as damaged: never a changed pin (library audit)", () => {
    const pins = strToU8(`Title,URL\nEiffel,${URL_A}\n`);
    // Stored, so one byte of the list can be changed in place: 48.85837 becomes 18.85837.
    const bytes = zipSync(
      { 'Takeout/Saved/Pins.csv': pins, 'Takeout/Saved/Food.csv': list(1) },
      { level: 0 },
    );
    /** Where the pin's first digit is in a ZIP's bytes (a byte search: the ZIP is not text). */
    const digitOf = (zipped: Uint8Array) =>
      Buffer.from(zipped.buffer, zipped.byteOffset, zipped.length).indexOf('search/48.') +
      'search/'.length;
    const digit = digitOf(bytes);
    expect(bytes[digit]).toBe('4'.charCodeAt(0));
    bytes[digit] = '1'.charCodeAt(0);
    const warnings: string[] = [];
    const lists = readArchive(bytes, { logger: { warn: (message) => warnings.push(message) } });
    expect(lists.map((l) => l.name)).toEqual(['Food']);
    expect(warnings).toEqual([
      'Skipped Takeout/Saved/Pins.csv: it is damaged and could not be unpacked (its bytes do not match the check sum the archive holds for them).',
    ]);
    // The only list damaged: the archive is refused as incomplete, as one that does not inflate is.
    const alone = zipSync({ 'Takeout/Saved/Pins.csv': pins }, { level: 0 });
    alone[digitOf(alone)] = 0x31;
    expect(codeOf(() => readArchive(alone))).toBe(`incomplete-zip: ${MESSAGES.incompleteZip}`);
    // A caller's own check sum (zlib's in Node) is the one used.
    let checked = 0;
    const sound = zip({ 'Takeout/Saved/Food.csv': list(2) });
    const crc32 = (data: Uint8Array) => {
      checked += data.length;
      return 0;
    };
    expect(codeOf(() => readArchive(sound, { crc32 }))).toBe(
      `incomplete-zip: ${MESSAGES.incompleteZip}`,
    );
    expect(checked).toBe(list(2).length);
  });

  it('skips what macOS adds when it zips the export again (__MACOSX, ._ files)', () => {
    const appleDouble = new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0, ...strToU8('Mac OS X        ')]);
    const bytes = zip({
      'Takeout/Saved/Want to go.csv': list(2),
      'Takeout/Saved/._Want to go.csv': appleDouble,
      '__MACOSX/Takeout/Saved/._Want to go.csv': appleDouble,
      '__MACOSX/Takeout/Maps (your places)/._Saved Places.json': appleDouble,
      'Takeout/.DS_Store': appleDouble,
    });
    expect(readArchive(bytes).map((l) => [l.path, l.rowCount, l.problem])).toEqual([
      ['Takeout/Saved/Want to go.csv', 2, undefined],
    ]);
  });

  it('prefers paths containing "saved places" when there are any', () => {
    const bytes = zip({ 'Takeout/Saved Places/A.csv': list(1), 'Takeout/Other/B.csv': list(1) });
    expect(readArchive(bytes).map((l) => l.name)).toEqual(['A']);
  });

  it('takes the CSVs inside a folder named Saved (any depth, any case) as the lists, and no others', () => {
    const bytes = zip({
      'Takeout/Saved/Want to go.csv': list(1),
      'Takeout/Saved/Trips/Lisbon.csv': list(1),
      'Other export/SAVED/Food.csv': list(1),
      'Takeout/Saved Places/Old.csv': list(1),
      'Takeout/Maps/Something else.csv': list(1),
      'Loose.csv': list(1),
    });
    expect(readArchive(bytes).map((l) => l.path)).toEqual([
      'Takeout/Saved/Want to go.csv',
      'Takeout/Saved/Trips/Lisbon.csv',
      'Other export/SAVED/Food.csv',
    ]);
  });

  it('never lets a list named "My saved places.csv" hide the others', () => {
    // Beside the other lists of Saved/: every list is kept.
    const inSaved = zip({
      'Takeout/Saved/My saved places.csv': list(1),
      'Takeout/Saved/Want to go.csv': list(2),
      'Takeout/Saved/Food.csv': list(3),
    });
    expect(readArchive(inSaved).map((l) => [l.name, l.rowCount])).toEqual([
      ['My saved places', 1],
      ['Want to go', 2],
      ['Food', 3],
    ]);
    // Beside the Saved/ folder: Saved/ holds the lists, and the file's name does not change that.
    const beside = zip({
      'Takeout/My saved places.csv': list(1),
      'Takeout/Saved/Want to go.csv': list(2),
      'Takeout/Saved/Food.csv': list(3),
    });
    expect(readArchive(beside).map((l) => l.name)).toEqual(['Want to go', 'Food']);
    // Without a Saved folder (the seed's rule): "saved places" in a file name prefers nothing.
    const noSaved = zip({ 'Lists/My saved places.csv': list(1), 'Lists/Want to go.csv': list(2) });
    expect(readArchive(noSaved).map((l) => l.name)).toEqual(['My saved places', 'Want to go']);
  });

  it('strips .csv in any case and keeps same-named lists apart by path', () => {
    const bytes = zip({ 'Takeout/Saved/Food.CSV': list(1), 'Older/Saved/Food.csv': list(3) });
    expect(readArchive(bytes).map((l) => [l.path, l.name, l.rowCount, l.outputName])).toEqual([
      ['Takeout/Saved/Food.CSV', 'Food', 1, 'Food'],
      ['Older/Saved/Food.csv', 'Food', 3, 'Food (Older)'],
    ]);
  });

  it('counts non-blank data rows only', () => {
    const csv = strToU8(
      `A description\n\nTitle,Note,URL,Tags,Comment\n,,,,\n"A","multi\nline",${URL_A},,\n\n,,,,\nB,,${URL_A},,\n`,
    );
    expect(readArchive(zip({ 'Saved/L.csv': csv }))[0]?.rowCount).toBe(2);
  });

  it('does not count the row of tag names after a 2025 header, nor any row without Title and URL', () => {
    // rowCount is what the page prices the selection from: 2 places, not 4.
    const csv = strToU8(
      `Title,Note,URL,Tags,Comment\n,,,🛴 Fun stores;📚 Bookstores,\nA,,${URL_A},🛴 Fun stores,\n,a note alone,,,\n,,${URL_A},,\n`,
    );
    const [only] = readArchive(zip({ 'Takeout/Saved/Shops.csv': csv }));
    expect(only?.rowCount).toBe(2);
    expect(only?.parsed).not.toBeInstanceOf(ConverterError);
  });

  it('reads a list that starts with a BOM', () => {
    const bytes = zip({ 'Saved/L.csv': new Uint8Array([0xef, 0xbb, 0xbf, ...list(1)]) });
    const [only] = readArchive(bytes);
    expect(only?.problem).toBeUndefined();
    expect(only?.rowCount).toBe(1);
  });

  it('keeps a list that fails validation, with its reason for later', () => {
    const [only] = readArchive(zip({ 'Saved/Bad.csv': strToU8('Name,Where\nx,y\n') }));
    expect(only?.parsed).toBeInstanceOf(ConverterError);
    expect(only?.rowCount).toBe(1);
  });

  it('says "No CSV files found in the zip file." when there is no CSV at all', () => {
    expect(codeOf(() => readArchive(zip({ 'Takeout/a.txt': strToU8('x') })))).toBe(
      'no-csv: No CSV files found in the zip file.',
    );
    expect(codeOf(() => readArchive(zip({})))).toBe('no-csv: No CSV files found in the zip file.');
  });

  it('says no saved place lists were found when every CSV is an image or page list', () => {
    const message =
      'no-place-lists: No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).';
    expect(codeOf(() => readArchive(zip({ 'Takeout/Saved/Favourite images.csv': list(1) })))).toBe(
      message,
    );
    const imagesAndPages = zip({
      'Takeout/Saved/Favourite images.csv': list(1),
      'Takeout/Saved/favorite IMAGES.csv': list(1),
      'Takeout/Saved/Images.csv': list(1),
      'Takeout/Saved/Favourite Pages.CSV': list(1),
      'Takeout/Saved/favorite pages.csv': list(1),
      'Takeout/archive_browser.html': strToU8('<html></html>'),
    });
    expect(codeOf(() => readArchive(imagesAndPages))).toBe(message);
    // Without a Saved folder too (the seed's rule still excludes them).
    expect(codeOf(() => readArchive(zip({ 'Images.csv': list(1) })))).toBe(message);
  });

  it('says the starred places file is empty when it was the only list (Takeout writes them so)', () => {
    const message =
      'no-place-lists: Your starred places file holds no places, and this archive has no saved place lists. In Google Takeout, select Saved for your saved lists.';
    const starredOnly = zip({
      'Takeout/Maps (your places)/Saved Places.json': strToU8(EMPTY_STARRED),
    });
    expect(codeOf(() => readArchive(starredOnly))).toBe(message);
    const beside = zip({
      'Takeout/Saved/Favourite images.csv': list(1),
      'Takeout/Maps (your places)/Saved Places.json': strToU8(EMPTY_STARRED),
    });
    expect(codeOf(() => readArchive(beside))).toBe(message);
  });

  it('says a ZIP that cannot be read is not complete (a download cut short), whatever fflate says', () => {
    const message =
      'incomplete-zip: This file is not a complete ZIP archive. Download it again from Google Takeout.';
    const whole = zip({
      'Takeout/Saved/Want to go.csv': list(200),
      'Takeout/Saved/B.csv': list(9),
    });
    // Every cut loses the directory at the end of the file, as a broken download does.
    for (const cut of [0, 4, 30, Math.floor(whole.length / 2), whole.length - 1]) {
      expect({ cut, code: codeOf(() => readArchive(whole.subarray(0, cut))) }).toEqual({
        cut,
        code: message,
      });
    }
  });

  it('says a file that is not a ZIP at all is not one (another file named .zip), not that it is cut', () => {
    const message = `not-a-zip: ${MESSAGES.notAZipInside}`;
    expect(codeOf(() => readArchive(strToU8('this is not a zip file at all')))).toBe(message);
    expect(codeOf(() => readArchive(strToU8('%PDF-1.7\n%âãÏÓ\n')))).toBe(message);
    expect(MESSAGES.notAZipInside).toBe(
      'This file is not a ZIP archive. Choose the ZIP file you downloaded from Google Takeout (its name starts with "takeout-").',
    );
    // Starting as a ZIP does, it is one cut short.
    expect(codeOf(() => readArchive(strToU8('PK\u0003\u0004 and then nothing')))).toMatch(
      /^incomplete-zip: /,
    );
  });

  it('skips an entry that fails to inflate and keeps the others', () => {
    const good = list(1);
    const bytes = zip({ 'Saved/A.csv': good, 'Saved/B.csv': list(400) });
    // Corrupt B's deflate stream (it is stored after A's local header and data).
    const corrupt = bytes.slice();
    const nameAt = findBytes(corrupt, strToU8('Saved/B.csv'));
    for (let i = nameAt + 20; i < nameAt + 60; i += 1) corrupt[i] = 0xff;
    const warnings: string[] = [];
    const lists = readArchive(corrupt, { logger: { warn: (w: string) => warnings.push(w) } });
    expect(lists.map((l) => l.path)).toEqual(['Saved/A.csv']);
    expect(warnings[0]).toMatch(/^Skipped Saved\/B\.csv/);
  });

  it('says the archive is not complete when no list can be inflated', () => {
    const corrupt = zip({ 'Saved/B.csv': list(400) }).slice();
    const nameAt = findBytes(corrupt, strToU8('Saved/B.csv'));
    for (let i = nameAt + 20; i < nameAt + 60; i += 1) corrupt[i] = 0xff;
    expect(codeOf(() => readArchive(corrupt))).toBe(
      'incomplete-zip: This file is not a complete ZIP archive. Download it again from Google Takeout.',
    );
  });

  /**
   * `bytes` with `name` marked as compressed by `method` in its local header and in the directory
   * (its data unchanged: the method alone must refuse it, before anything is unpacked).
   */
  function markedAs(bytes: Uint8Array, name: string, method: number): Uint8Array {
    const marked = bytes.slice();
    const view = new DataView(marked.buffer);
    // Where a local header (PK\3\4) and a directory entry (PK\1\2) keep the name and the method.
    const HEADERS = new Map([
      [0x04034b50, { name: 30, length: 26, method: 8 }],
      [0x02014b50, { name: 46, length: 28, method: 10 }],
    ]);
    for (let at = 0; at + 46 <= marked.length; at += 1) {
      const header = HEADERS.get(view.getUint32(at, true));
      if (!header) continue;
      const end = at + header.name + view.getUint16(at + header.length, true);
      const found = new TextDecoder().decode(marked.subarray(at + header.name, end));
      if (found === name) view.setUint16(at + header.method, method, true);
    }
    return marked;
  }

  it.each([
    [12, 'bzip2'],
    [14, 'LZMA'],
    [93, 'Zstandard'],
    [42, 'method 42'],
  ])(
    'refuses a list compressed with method %d, naming it (%s), without telling to download again',
    (method, named) => {
      const bytes = zip({ 'Takeout/Saved/A.csv': list(3), 'Takeout/Saved/B.csv': list(2) });
      // One list of two is enough: converting the other alone would leave a list out unsaid.
      expect(codeOf(() => readArchive(markedAs(bytes, 'Takeout/Saved/B.csv', method)))).toBe(
        `unsupported-compression: This ZIP file was compressed with a method PlacePort cannot read (${named}). Use the ZIP file exactly as Google Takeout gave it, or create it again as a plain ZIP file.`,
      );
    },
  );

  it.each([
    ['stored', 0],
    ['DEFLATE', 6],
  ])(
    'says a list protected with a password (ZipCrypto, %s) is, never "download it again" nor its bytes as columns',
    (_, level) => {
      const bytes = zipSync({
        'Takeout/Saved/A.csv': [list(3), { level: level as 0 | 6 }],
        'Takeout/Saved/B.csv': [list(2), { level: level as 0 | 6 }],
      });
      // The "encrypted" flag (bit 0) in B's local header and directory entry; its bytes unchanged.
      const marked = bytes.slice();
      const view = new DataView(marked.buffer);
      const FLAGS = new Map([
        [0x04034b50, { name: 30, flags: 6 }],
        [0x02014b50, { name: 46, flags: 8 }],
      ]);
      for (let at = 0; at + 46 <= marked.length; at += 1) {
        const header = FLAGS.get(view.getUint32(at, true));
        const name = 'Takeout/Saved/B.csv';
        const found = new TextDecoder().decode(
          marked.subarray(at + (header?.name ?? 0), at + (header?.name ?? 0) + name.length),
        );
        if (header && found === name) view.setUint16(at + header.flags, 1, true);
      }
      expect(codeOf(() => readArchive(marked))).toBe(
        `unsupported-compression: ${MESSAGES.passwordProtected}`,
      );
    },
  );

  it('says a list in WinZip AES (method 99) is protected with a password', () => {
    const bytes = zip({ 'Takeout/Saved/A.csv': list(3) });
    expect(codeOf(() => readArchive(markedAs(bytes, 'Takeout/Saved/A.csv', 99)))).toBe(
      `unsupported-compression: ${MESSAGES.passwordProtected}`,
    );
  });

  it('reads stored and DEFLATE lists, and minds no method of an entry that is not a list', () => {
    const bytes = zipSync({
      'Takeout/Saved/Stored.csv': [list(2), { level: 0 }],
      'Takeout/Saved/Deflated.csv': [list(3), { level: 6 }],
      'Takeout/Saved/Favourite images.csv': list(1),
      'Takeout/archive_browser.html': strToU8('<html></html>'),
    });
    const marked = markedAs(
      markedAs(bytes, 'Takeout/Saved/Favourite images.csv', 12),
      'Takeout/archive_browser.html',
      14,
    );
    expect(readArchive(marked).map((l) => [l.path, l.rowCount])).toEqual([
      ['Takeout/Saved/Stored.csv', 2],
      ['Takeout/Saved/Deflated.csv', 3],
    ]);
  });

  it('treats entry names with .. or absolute paths as names only', () => {
    const bytes = zip({ '../../etc/evil.csv': list(1), '/abs/path/Abs.csv': list(1) });
    const lists = readArchive(bytes);
    expect(lists.map((l) => [l.path, l.name])).toEqual([
      ['../../etc/evil.csv', 'evil'],
      ['/abs/path/Abs.csv', 'Abs'],
    ]);
  });
});

describe('archive limits (checked from the directory, before inflating)', () => {
  // How fast the refusal is belongs to `pnpm bench`; here, that nothing was inflated: memory holds
  // far less than the 300 MB the entry would unpack to.
  it('refuses a 300 MB zip bomb without inflating it', () => {
    const bomb = makeZipBomb(300 * 1024 * 1024);
    const heapBefore = process.memoryUsage().arrayBuffers;
    expect(codeOf(() => readArchive(bomb))).toBe(
      'archive-too-large: The lists in this ZIP file add up to more than 256 MB once unpacked. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.',
    );
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(50 * 1024 * 1024);
  });

  it('accepts lists exactly at the unpacked-size limit and refuses one byte more', () => {
    const bytes = zip({ 'Saved/A.csv': list(50) });
    const size = readArchive(bytes)[0]!.size;
    expect(readArchive(bytes, { limits: { ...LIMITS, maxCsvBytes: size } })).toHaveLength(1);
    expect(
      codeOf(() => readArchive(bytes, { limits: { ...LIMITS, maxCsvBytes: size - 1 } })),
    ).toMatch(/^archive-too-large/);
  });

  it('accepts exactly the entry limit and refuses one more', () => {
    const files = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`Saved/L${i}.csv`, list(1)]),
    );
    const bytes = zip(files);
    expect(readArchive(bytes, { limits: { ...LIMITS, maxEntries: 10 } })).toHaveLength(10);
    expect(codeOf(() => readArchive(bytes, { limits: { ...LIMITS, maxEntries: 9 } }))).toMatch(
      /^too-many-entries: .*more than 9 files/,
    );
    expect(readArchive(bytes, { limits: { ...LIMITS, maxLists: 10 } })).toHaveLength(10);
    expect(codeOf(() => readArchive(bytes, { limits: { ...LIMITS, maxLists: 9 } }))).toMatch(
      /^too-many-entries: .*more than 9 lists/,
    );
  });

  it('accepts an archive at the file-size limit and refuses one byte more', () => {
    const bytes = zip({ 'Saved/A.csv': list(1) });
    expect(
      readArchive(bytes, { limits: { ...LIMITS, maxArchiveBytes: bytes.length } }),
    ).toHaveLength(1);
    expect(
      codeOf(() =>
        readArchive(bytes, { limits: { ...LIMITS, maxArchiveBytes: bytes.length - 1 } }),
      ),
    ).toMatch(/^archive-too-large: This ZIP file is larger than/);
  });

  it('never inflates past the size the directory declares', () => {
    // A lying directory: declares 10 bytes for an entry that inflates to much more.
    const bytes = zip({ 'Saved/A.csv': list(200) });
    const lied = bytes.slice();
    const view = new DataView(lied.buffer);
    const cd = findBytes(lied, new Uint8Array([0x50, 0x4b, 0x01, 0x02]));
    view.setUint32(cd + 24, 10, true);
    const lists = (() => {
      try {
        return readArchive(lied);
      } catch (error) {
        return error;
      }
    })();
    if (Array.isArray(lists)) expect(lists.every((l) => l.size <= 10)).toBe(true);
    else expect(lists).toBeInstanceOf(ConverterError);
  });
});

function findBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i <= haystack.length - needle.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('not found');
}

describe("entries of an archive read from another container (the CLI's .tgz)", () => {
  it('keeps every CSV and the starred places whole, sniffs other JSON, skips the rest', () => {
    const expected: Array<[string, 'whole' | 'start' | undefined]> = [
      ['Takeout/Saved/Want to go.csv', 'whole'],
      ['Takeout/Saved/Favourite images.csv', 'whole'],
      ['Takeout/Fit/Daily.CSV', 'whole'],
      ['Takeout/Maps (your places)/Saved Places.json', 'whole'],
      ['Takeout/Maps (Meine Orte)/Gespeicherte Orte.json', 'start'],
      ['Takeout/Saved/', undefined],
      ['__MACOSX/Takeout/Saved/._Want to go.csv', undefined],
      ['Takeout/Google Photos/IMG_0001.jpg', undefined],
      ['Takeout/archive_browser.html', undefined],
      ['Takeout/Google Photos/Trip/IMG_0001.JPG.json', undefined],
      ['Takeout/Google Fotos/Reise/VID_2.mp4.supplemental-metadata.json', undefined],
    ];
    expect(expected.map(([path]) => [path, entryInterest(path)])).toEqual(expected);
  });

  it('tells the starred places from other JSON by their start', () => {
    const starred =
      '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"google_maps_url":"http://maps.google.com/?cid=1","location":{"name":"Ort"}},"type":"Feature"}]}';
    expect(looksLikeStarredStart(strToU8(starred))).toBe(true);
    expect(looksLikeStarredStart(strToU8('{"reviews":[]}'))).toBe(false);
    expect(looksLikeStarredStart(strToU8('{"type":"FeatureCollection","features":[]}'))).toBe(
      false,
    );
  });
});

describe('describeBytes', () => {
  it.each([
    [64 * 1024, '64 KB'],
    [256 * 1024 ** 2, '256 MB'],
    [1024 ** 3 - 1, '1024 MB'],
    [1024 ** 3, '1 GB'],
    [1.5 * 1024 ** 3, '1.5 GB'],
    [2 * 1024 ** 3 + 1, '2 GB'],
    [32 * 1024 ** 3, '32 GB'],
  ])('%d bytes: %s', (bytes, text) => {
    expect(describeBytes(bytes)).toBe(text);
  });
});
