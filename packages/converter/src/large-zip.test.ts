import { withCompression, withDamagedData, zipRecords } from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ConverterError } from './core/errors.js';
import { LIMITS } from './core/limits.js';
import { inspectArchive } from './library.js';
import {
  MAX_PART_ENTRIES,
  readLargeZip,
  readsByRanges,
  Repack,
  WHOLE_READ_BYTES,
  type RangeSource,
} from './large-zip.js';

/** A ZIP's bytes read by ranges, counting the reads. */
function sourceOf(zip: Uint8Array): RangeSource & { reads: number } {
  const source = {
    size: zip.length,
    reads: 0,
    read: (at: number, length: number) => {
      source.reads += 1;
      return Promise.resolve(zip.slice(at, at + length));
    },
  };
  return source;
}

const LIST =
  'Title,Note,URL,Comment\nColosseum,,"https://www.google.com/maps/search/41.8902,12.4922",\n';

describe('a part of a whole-account export, read by ranges', () => {
  it('takes more entries than an archive read whole, and reads no photo or its metadata', async () => {
    expect(MAX_PART_ENTRIES).toBe(1_000_000);
    const files: Record<string, Uint8Array> = { 'Takeout/Saved/Want to go.csv': strToU8(LIST) };
    for (let i = 0; i < LIMITS.maxEntries / 2; i += 1) {
      files[`Takeout/Google Photos/Trip/IMG_${i}.jpg`] = new Uint8Array(1);
      files[`Takeout/Google Photos/Trip/IMG_${i}.jpg.json`] = strToU8('{"title":"x"}');
    }
    const zip = zipSync(files, { level: 0 });
    expect(Object.keys(files).length).toBeGreaterThan(LIMITS.maxEntries);
    // Read whole, the archive is past its entries limit.
    expect(() => inspectArchive(zip)).toThrow(ConverterError);
    const source = sourceOf(zip);
    const lists = inspectArchive(await readLargeZip(source)).lists;
    expect(lists.map((list) => [list.path, list.rowCount])).toEqual([
      ['Takeout/Saved/Want to go.csv', 1],
    ]);
    // Its end, its list's header and its data: no photo, no metadata file read.
    expect(source.reads).toBeLessThanOrEqual(4);
  });
});

/** What a person is told of an archive: its lists (path and rows) and the warnings, or the refusal. */
function answer(zip: Uint8Array) {
  const warnings: string[] = [];
  try {
    const { lists } = inspectArchive(zip, { logger: { warn: (line) => warnings.push(line) } });
    return { lists: lists.map((list) => [list.path, list.rowCount]), warnings };
  } catch (error) {
    if (!(error instanceof ConverterError)) throw error;
    return { code: error.code, message: error.message };
  }
}

const EXPORT = {
  'Takeout/Saved/Want to go.csv': strToU8(LIST),
  'Takeout/Saved/Favourites.csv': strToU8(LIST.repeat(3)),
  'Takeout/Maps (your places)/Saved Places.json': strToU8(
    '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"google_maps_url":"http://maps.google.com/?cid=1","location":{"name":"Ort"}},"type":"Feature"}]}',
  ),
  'Takeout/Fit/Daily activity metrics.csv': strToU8('Date,Steps\n2026-01-01,5000\n'),
};
const FIT = 'Takeout/Fit/Daily activity metrics.csv';
const WANT = 'Takeout/Saved/Want to go.csv';
const FAVOURITES = 'Takeout/Saved/Favourites.csv';
const STARRED = 'Takeout/Maps (your places)/Saved Places.json';

describe('an archive read by ranges is answered as the ZIP read whole', () => {
  const zip = zipSync(EXPORT, { level: 6 });
  const foreign = zipSync(
    Object.fromEntries(
      Object.entries(EXPORT).map(([path, bytes]) => [path.replace('/Saved/', '/Listen/'), bytes]),
    ),
    { level: 6 },
  );
  const cases: Array<[string, Uint8Array]> = [
    ['as exported', zip],
    ['a list packed with bzip2 (zipped again by another tool)', withCompression(zip, WANT, 12)],
    ["another product's CSV packed with bzip2", withCompression(zip, FIT, 12)],
    ['the starred places packed with bzip2', withCompression(zip, STARRED, 12)],
    ['a list that cannot be inflated', withDamagedData(zip, WANT)],
    [
      'no list that can be inflated',
      withDamagedData(withDamagedData(withDamagedData(zip, WANT), FAVOURITES), STARRED),
    ],
    ['lists in a "Saved" folder named in another language', foreign],
    [
      "another language, another product's CSV packed with bzip2",
      withCompression(foreign, FIT, 12),
    ],
  ];

  it.each(cases)('%s', async (_case, archive) => {
    const whole = answer(archive);
    expect(answer(await readLargeZip(sourceOf(archive)))).toEqual(whole);
  });

  it('answers each case as its own (the cases differ)', () => {
    const answers = cases.map(([, archive]) => JSON.stringify(answer(archive)));
    expect(answers[1]).toContain('unsupported-compression');
    expect(answers[4]).toContain('Skipped Takeout/Saved/Want to go.csv');
    expect(answers[5]).toContain('incomplete-zip');
    expect(new Set(answers).size).toBeGreaterThanOrEqual(5);
  });

  it('copies lists as they are compressed, and reads no CSV outside "Saved" when it holds one', async () => {
    const reads: Array<[number, number]> = [];
    const source = sourceOf(zip);
    const read = source.read;
    source.read = (at, length) => {
      reads.push([at, length]);
      return read(at, length);
    };
    const repacked = zipRecords(await readLargeZip(source));
    const original = zipRecords(zip);
    expect(
      repacked.map(({ name, compression, size, originalSize }) => ({
        name,
        compression,
        size,
        originalSize,
      })),
    ).toEqual(
      original
        .filter((entry) => entry.name !== FIT)
        .map(({ name, compression, size, originalSize }) => ({
          name,
          compression,
          size,
          originalSize,
        })),
    );
    // The lists' data is read where it starts; the other product's CSV's never is.
    const starts = new Set(reads.map(([at]) => at));
    const dataOf = (name: string) => original.find((entry) => entry.name === name)!.data;
    expect(starts.has(dataOf(WANT))).toBe(true);
    expect(starts.has(dataOf(FIT))).toBe(false);
  });

  it("bounds what it keeps by the lists' limit, counted as compressed (at the limit it reads)", async () => {
    const kept = zipRecords(zip)
      .filter((entry) => entry.name !== FIT)
      .reduce((sum, entry) => sum + entry.size, 0);
    const limits = { maxEntries: 10, maxCsvBytes: kept };
    expect(answer(await readLargeZip(sourceOf(zip), { limits }))).toEqual(answer(zip));
    await expect(
      readLargeZip(sourceOf(zip), { limits: { ...limits, maxCsvBytes: kept - 1 } }),
    ).rejects.toMatchObject({ code: 'archive-too-large' });
  });
});

describe('which archives are read by ranges', () => {
  it('past 64 MB, or past what the limits let be read whole when that is less', () => {
    expect(WHOLE_READ_BYTES).toBe(64 * 1024 * 1024);
    expect(readsByRanges(WHOLE_READ_BYTES)).toBe(false);
    expect(readsByRanges(WHOLE_READ_BYTES + 1)).toBe(true);
    expect(readsByRanges(1_000, { maxArchiveBytes: 1_000 })).toBe(false);
    expect(readsByRanges(1_001, { maxArchiveBytes: 1_000 })).toBe(true);
  });
});

describe('Repack, read in the order a .tgz or a folder gives', () => {
  it('lets go of CSVs outside "Saved" once a CSV inside it is seen, and keeps no more of them', () => {
    const repack = new Repack('archive', { maxEntries: 10, maxCsvBytes: 100 });
    const bytes = (length: number) => strToU8('x'.repeat(length));
    // Another product's CSV, kept: without a "Saved" folder it may hold lists.
    expect(repack.wanted('Takeout/Fit/Daily.csv', 90, true)).toBe('whole');
    repack.keep('Takeout/Fit/Daily.csv', bytes(90));
    // Past the limit while it is kept...
    expect(() => repack.wanted('Takeout/Chrome/History.csv', 11, true)).toThrow(ConverterError);
    // ...but a list in "Saved" lets it go, and is within the limit.
    expect(repack.wanted('Takeout/Saved/Want to go.csv', 60, true)).toBe('whole');
    repack.keep('Takeout/Saved/Want to go.csv', bytes(60));
    expect(repack.wanted('Takeout/Zeta/Later.csv', 5, true)).toBeUndefined();
    expect(repack.wanted('Takeout/Maps (your places)/Saved Places.json', 30, true)).toBe('whole');
    repack.keep('Takeout/Maps (your places)/Saved Places.json', bytes(30));
    expect(zipRecords(repack.zip()).map((entry) => entry.name)).toEqual([
      'Takeout/Saved/Want to go.csv',
      'Takeout/Maps (your places)/Saved Places.json',
    ]);
    // At the limit it keeps; past it, it refuses.
    expect(repack.wanted('Takeout/Saved/Food.csv', 10, true)).toBe('whole');
    expect(() => repack.wanted('Takeout/Saved/Food.csv', 11, true)).toThrow(ConverterError);
  });
});
