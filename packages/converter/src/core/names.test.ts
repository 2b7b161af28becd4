import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAILED_CSV_FILE_NAME,
  DEFAULT_KML_FILE_NAME,
  failedCsvFileName,
  kmlFileName,
  listNameFromPath,
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
});
