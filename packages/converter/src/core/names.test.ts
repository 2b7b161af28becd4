import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, outputFileName } from './formats/output.js';
import {
  cutToBytes,
  DEFAULT_FAILED_CSV_FILE_NAME,
  DEFAULT_KML_FILE_NAME,
  failedCsvFileName,
  labelledStem,
  listNameFromPath,
  listOutputNames,
  MAX_FILE_NAME_BYTES,
  MAX_STEM_BYTES,
  safeFileStem,
  takeoutPartOf,
  anotherPartSentence,
  utf8Length,
} from './names.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** Every file name one list can get: each format, unsplit and split, and its failed-places CSV. */
function namesOf(list: string): string[] {
  return [
    ...OUTPUT_FORMATS.flatMap((format) => [
      outputFileName(list, format),
      outputFileName(list, format, 1, 2),
      outputFileName(list, format, 999, 999),
    ]),
    failedCsvFileName(list),
  ];
}

describe('file names', () => {
  it('strips .csv in any case and folders of either kind', () => {
    expect(listNameFromPath('Takeout/Saved/Want to go.CSV')).toBe('Want to go');
    expect(listNameFromPath('Takeout\\Saved\\Food.csv')).toBe('Food');
    expect(listNameFromPath('東京 🍜.csv')).toBe('東京 🍜');
  });

  it('drops the characters that set text direction from a name, as its files do', () => {
    // Shown with its override, "Trip\u202Evsc.exe" read "Tripexe.csv" and was saved as Tripvsc.exe.
    expect(listNameFromPath('Saved/Trip\u202Evsc.exe.csv')).toBe('Tripvsc.exe');
    expect(listNameFromPath('Saved/\u2067שלום\u2069 \u200Fx\u202A\u202C\u061C.csv')).toBe('שלום x');
    expect(outputFileName(listNameFromPath('Trip\u202Evsc.exe.csv'), 'kml')).toBe(
      'Tripvsc.exe.kml',
    );
    // Joiners are letters' business (Persian names, emoji), not direction: they stay in the name.
    expect(listNameFromPath('می\u200Cخواهم.csv')).toBe('می\u200Cخواهم');
  });

  it('names outputs after the list, with the seed defaults when the name is unusable', () => {
    expect(outputFileName('Want to go', 'kml')).toBe('Want to go.kml');
    expect(outputFileName('Want to go', 'kml', 2, 3)).toBe('Want to go (part 2 of 3).kml');
    expect(failedCsvFileName('Want to go')).toBe('Want to go - failed-places.csv');
    expect(outputFileName('..', 'kml')).toBe(DEFAULT_KML_FILE_NAME);
    expect(outputFileName('', 'kml', 1, 2)).toBe('my-saved-places (part 1 of 2).kml');
    expect(failedCsvFileName(' . ')).toBe(DEFAULT_FAILED_CSV_FILE_NAME);
    expect(DEFAULT_KML_FILE_NAME).toBe('my-saved-places.kml');
    expect(DEFAULT_FAILED_CSV_FILE_NAME).toBe('failed-places.csv');
  });

  it('never lets a name become a path', () => {
    expect(safeFileStem('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeFileStem('a/b\\c:d*e?f"g<h>i|j\u0001k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
    expect(safeFileStem('x'.repeat(400))).toHaveLength(MAX_STEM_BYTES);
    // Bidirectional controls would make a name read otherwise ("lmk.exe.xls"); its letters stay.
    expect(safeFileStem('\u202eslx.exe')).toBe('slx.exe');
    expect(safeFileStem('\u2067שלום\u2069 \u200fcafe\u200e')).toBe('שלום cafe');
    expect(safeFileStem('عربي\u061c 2')).toBe('عربي 2');
  });

  it('drops the invisible format characters a browser would save as "_"', () => {
    // Chromium saved "می‌خواهم بروم" as "می_خواهم بروم": the name shown was not the name saved.
    expect(safeFileStem('می\u200cخواهم بروم')).toBe('میخواهم بروم');
    expect(safeFileStem('👨\u200d👩\u200d👧 Family 🏳️\u200d🌈')).toBe('👨👩👧 Family 🏳️🌈');
    expect(safeFileStem('Donau\u00addampf\ufeff')).toBe('Donaudampf');
    expect(safeFileStem('Scotland 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}')).toBe(
      'Scotland 🏴',
    );
  });

  it('tells same-named lists apart by the folders where their paths differ; the first keeps the plain name', () => {
    expect(
      listOutputNames([
        'Takeout/Saved/Default list.csv',
        'Takeout 2/Saved/Default list.csv',
        'Takeout/Saved/Food.csv',
      ]),
    ).toEqual(['Default list', 'Default list (Takeout 2)', 'Food']);
    // Several differing folders are joined; a list whose folders all match the first's is named by
    // all of them. Each is told apart from the first, so adding a twin never renames the others.
    expect(
      listOutputNames([
        'A/X/Saved/Want to go.csv',
        'A/Y/Saved/Want to go.csv',
        'B/Z/Saved/Want to go.csv',
        'A/X/Saved/Old/Want to go.csv',
      ]),
    ).toEqual(['Want to go', 'Want to go (Y)', 'Want to go (B - Z)', 'Want to go (Old)']);
    expect(listOutputNames(['Old/Saved/Food.csv', 'Saved/Food.csv'])).toEqual([
      'Food',
      'Food (Saved)',
    ]);
  });

  it('compares names as file systems that ignore case do, and numbers what folders cannot tell apart', () => {
    expect(listOutputNames(['Saved/Food.csv', 'Saved/FOOD.CSV', 'Saved/food.csv'])).toEqual([
      'Food',
      'FOOD (2)',
      'food (3)',
    ]);
    // A list really named like a told-apart one keeps its name; the twin gets a number instead.
    expect(
      listOutputNames(['X/Saved/Food.csv', 'Old/Saved/Food.csv', 'X/Saved/Food (Old).csv']),
    ).toEqual(['Food', 'Food (2)', 'Food (Old)']);
    // Names that are unusable as file names fall back to the seed default, told apart the same way.
    expect(listOutputNames(['A/.csv', 'B/..csv'])).toEqual(['', 'my-saved-places (B)']);
    // Lists that share nothing keep their names, whatever their folders.
    expect(listOutputNames(['A/x.csv', 'B/y.csv'])).toEqual(['x', 'y']);
  });

  it('keeps the KML parts and the failed-places CSV of a told-apart list paired, and names of any length safe', () => {
    const [, second] = listOutputNames(['T/Saved/Default list.csv', 'T 2/Saved/Default list.csv']);
    expect(outputFileName(second!, 'kml')).toBe('Default list (T 2).kml');
    expect(outputFileName(second!, 'kml', 1, 2)).toBe('Default list (T 2) (part 1 of 2).kml');
    expect(failedCsvFileName(second!)).toBe('Default list (T 2) - failed-places.csv');
    const long = 'x'.repeat(300);
    const [, longTwin] = listOutputNames([`A/${long}.csv`, `${'B'.repeat(200)}/${long}.csv`]);
    expect(longTwin).toHaveLength(MAX_STEM_BYTES);
    expect(safeFileStem(longTwin!)).toBe(longTwin);
    expect(longTwin).toMatch(/^x+ \(B+\)$/);
  });

  it('cuts a 100-character CJK name by bytes: every file of the list within 255 bytes, one stem for all', () => {
    const name = '東京で行きたい場所'.repeat(12).slice(0, 100);
    expect(bytes(name)).toBe(300);
    const stem = safeFileStem(name);
    expect(bytes(stem)).toBeLessThanOrEqual(MAX_STEM_BYTES);
    expect(name.startsWith(stem)).toBe(true);
    expect(stem).toHaveLength(66); // 198 bytes: a 67th character (201 bytes) would not fit
    for (const file of namesOf(name)) {
      expect(bytes(file)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
      expect(file.startsWith(stem)).toBe(true);
    }
    expect(failedCsvFileName(name)).toBe(`${stem} - failed-places.csv`);
  });

  it('cuts between graphemes, never inside a flag, a keycap, a skin tone or a letter with its accents', () => {
    const keycap = '1\ufe0f\u20e3'; // 7 bytes, 3 code points, one grapheme
    expect(safeFileStem(`a${keycap.repeat(40)}`)).toBe(`a${keycap.repeat(28)}`);
    const toned = '👩🏽'; // 8 bytes, 2 code points, one grapheme
    expect(safeFileStem(`ab${toned.repeat(40)}`)).toBe(`ab${toned.repeat(24)}`);
    expect(safeFileStem(`a${'🇯🇵'.repeat(40)}`)).toBe(`a${'🇯🇵'.repeat(24)}`);
    expect(cutToBytes('e\u0301e\u0301', 4)).toBe('e\u0301');
    expect(cutToBytes('e\u0301e\u0301', 5)).toBe('e\u0301');
    // One grapheme longer than the whole budget is cut between code points, still valid UTF-16.
    const zalgo = `a${'\u0301\u0302'.repeat(100)}`;
    const cut = safeFileStem(zalgo);
    expect(bytes(cut)).toBeLessThanOrEqual(MAX_STEM_BYTES);
    expect(zalgo.normalize('NFC').startsWith(cut)).toBe(true);
    // Names are NFC, so a decomposed and a composed name give one file name.
    expect(safeFileStem('Cafe\u0301')).toBe('Café');
  });

  it('gives Windows device names a suffix, with any extension and in any case, and drops trailing dots and spaces', () => {
    expect(outputFileName('CON', 'kml')).toBe('CON_.kml');
    expect(failedCsvFileName('nul')).toBe('nul_ - failed-places.csv');
    expect(outputFileName('Aux', 'gpx', 1, 2)).toBe('Aux_ (part 1 of 2).gpx');
    expect(safeFileStem('com1.backup')).toBe('com1_.backup');
    expect(safeFileStem('LPT9 .old')).toBe('LPT9_ .old');
    expect(safeFileStem('COM\u00b9')).toBe('COM\u00b9_');
    expect(safeFileStem('PRN. . ')).toBe('PRN_');
    for (const kept of ['COM10', 'CONSOLE', 'Convent', 'LPT', 'my con', 'NUL-points']) {
      expect(safeFileStem(kept)).toBe(kept);
    }
    expect(safeFileStem('Food. . ')).toBe('Food');
    expect(safeFileStem('\ud800 broken \udc00')).toBe('_ broken _');
  });

  it('keeps a label (folder, retry) whole after a long name, within the stem budget', () => {
    const long = '東'.repeat(100);
    const retry = labelledStem(long, 'retry');
    expect(retry.endsWith('東 (retry)')).toBe(true);
    expect(bytes(retry)).toBeLessThanOrEqual(MAX_STEM_BYTES);
    expect(labelledStem('CON', 'retry')).toBe('CON_ (retry)');
    expect(labelledStem('', 'retry')).toBe('my-saved-places (retry)');
    const [, twin] = listOutputNames([`A/Saved/${long}.csv`, `B/Saved/${long}.csv`]);
    expect(twin!.endsWith(' (B)')).toBe(true);
    expect(bytes(twin!)).toBeLessThanOrEqual(MAX_STEM_BYTES);
  });

  it('never gives a name a file system refuses, whatever the list is called (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (name) => {
        for (const file of namesOf(name)) {
          expect(bytes(file)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
          expect(utf8Length(file)).toBe(bytes(file)); // well-formed: no lone surrogate
          // eslint-disable-next-line no-control-regex
          expect(file).not.toMatch(/[\u0000-\u001f\u007f<>:"/\\|?*]|^[\s.]|[\s.]$/);
          expect(file).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)\s*(\.|$)/i);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('takeoutPartOf', () => {
  it.each([
    ['takeout-20261127T103000Z-003.zip', 3],
    ['takeout-20261127T103000Z-001.tgz', 1],
    ['TAKEOUT-20261127T103000Z-012.TAR.GZ', 12],
    ['takeout-20261127T103000Z-3.zip', undefined],
    ['takeout-20261127T103000Z-003.csv', undefined],
    ['my-export-003.zip', undefined],
    ['takeout-20261127T103000Z-003 (1).zip', 3],
    ['takeout-20261127T103000Z-003 (copy).zip', undefined],
    // The part's folder, unzipped (Safari leaves it so).
    ['takeout-20261127T103000Z-002', 2],
    ['takeout-20261127T103000Z-002.pdf', undefined],
  ])('%s is part %s', (name, part) => {
    expect(takeoutPartOf(name)).toBe(part);
  });
});

describe('anotherPartSentence', () => {
  it('says the lists are in another part, and for part 1, which may be the only one, what else to do', () => {
    expect(anotherPartSentence(2, 'choose')).toBe(
      'This is part 2 of an export in several parts: choose the part that holds the "Saved" folder.',
    );
    expect(anotherPartSentence(1, 'give')).toBe(
      'If this export came in several parts, give the part that holds the "Saved" folder; if it is the only one, export again from Google Takeout with Saved selected.',
    );
  });
});
