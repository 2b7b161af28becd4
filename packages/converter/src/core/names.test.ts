import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAILED_CSV_FILE_NAME,
  DEFAULT_KML_FILE_NAME,
  failedCsvFileName,
  kmlFileName,
  listNameFromPath,
  listOutputNames,
  safeFileStem,
} from './names.js';

describe('file names', () => {
  it('strips .csv in any case and folders of either kind', () => {
    expect(listNameFromPath('Takeout/Saved/Want to go.CSV')).toBe('Want to go');
    expect(listNameFromPath('Takeout\\Saved\\Food.csv')).toBe('Food');
    expect(listNameFromPath('東京 🍜.csv')).toBe('東京 🍜');
  });

  it('names outputs after the list, with the seed defaults when the name is unusable', () => {
    expect(kmlFileName('Want to go')).toBe('Want to go.kml');
    expect(kmlFileName('Want to go', 2, 3)).toBe('Want to go (part 2 of 3).kml');
    expect(failedCsvFileName('Want to go')).toBe('Want to go - failed-places.csv');
    expect(kmlFileName('..')).toBe(DEFAULT_KML_FILE_NAME);
    expect(kmlFileName('', 1, 2)).toBe('my-saved-places (part 1 of 2).kml');
    expect(failedCsvFileName(' . ')).toBe(DEFAULT_FAILED_CSV_FILE_NAME);
    expect(DEFAULT_KML_FILE_NAME).toBe('my-saved-places.kml');
    expect(DEFAULT_FAILED_CSV_FILE_NAME).toBe('failed-places.csv');
  });

  it('never lets a name become a path', () => {
    expect(safeFileStem('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeFileStem('a/b\\c:d*e?f"g<h>i|j\u0001k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
    expect(safeFileStem('x'.repeat(400))).toHaveLength(150);
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
    expect(kmlFileName(second!)).toBe('Default list (T 2).kml');
    expect(kmlFileName(second!, 1, 2)).toBe('Default list (T 2) (part 1 of 2).kml');
    expect(failedCsvFileName(second!)).toBe('Default list (T 2) - failed-places.csv');
    const long = 'x'.repeat(300);
    const [, longTwin] = listOutputNames([`A/${long}.csv`, `${'B'.repeat(200)}/${long}.csv`]);
    expect(longTwin).toHaveLength(150);
    expect(safeFileStem(longTwin!)).toBe(longTwin);
    expect(longTwin).toMatch(/^x+ \(B+\)$/);
  });
});
