import { withCompression, withDamagedData, zipRecords } from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ConverterError } from './core/errors.js';
import { LIMITS, type Limits } from './core/limits.js';
import type { ZipContents } from './core/zip-directory.js';
import { inspectArchive, inspectZipContents } from './library.js';
import {
  MAX_KEPT_FILES,
  MAX_PART_ENTRIES,
  PART_LIMITS,
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
    const lists = inspectZipContents(await readLargeZip(source)).lists;
    expect(lists.map((list) => [list.path, list.rowCount])).toEqual([
      ['Takeout/Saved/Want to go.csv', 1],
    ]);
    // Its end, its directory (past the end's 64 KB), then its list: no photo, no metadata file read.
    expect(source.reads).toBe(3);
  });
});

/**
 * What a person is told of an archive, read whole or by ranges: its lists (path and rows) and the
 * warnings, or the refusal. Anything but a ConverterError (a rule asking for what the ranges did not
 * read) fails the test.
 */
function answer(archive: Uint8Array | ZipContents, limits = LIMITS) {
  const warnings: string[] = [];
  const logger = { warn: (line: string) => warnings.push(line) };
  try {
    const { lists } =
      archive instanceof Uint8Array
        ? inspectArchive(archive, { logger, limits })
        : inspectZipContents(archive, { logger, limits });
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

/** The answer for `zip` read by ranges, with `limits` (its entries a part's): a refusal while reading too. */
async function byRanges(zip: Uint8Array, limits = LIMITS) {
  try {
    const part = { ...limits, maxEntries: MAX_PART_ENTRIES };
    return answer(await readLargeZip(sourceOf(zip), { limits: part }), part);
  } catch (error) {
    if (!(error instanceof ConverterError)) throw error;
    return { code: error.code, message: error.message };
  }
}

/** The directory record and local header of `zip`'s entry `name`, to damage a copy with. */
function damaged(zip: Uint8Array, name: string, damage: (copy: DataView, record: number) => void) {
  const copy = zip.slice();
  const record = zipRecords(zip).find((entry) => entry.name === name)!.record;
  damage(new DataView(copy.buffer), record);
  return copy;
}

/** A copy of `zip` whose entry `name` has no local header where the directory says it starts. */
const withHeaderMissing = (zip: Uint8Array, name: string) =>
  damaged(zip, name, (view, record) => view.setUint32(view.getUint32(record + 42, true), 0, true));

/** A copy of `zip` whose directory declares `size` compressed bytes for its entry `name`. */
const withDeclaredSize = (zip: Uint8Array, name: string, size: number) =>
  damaged(zip, name, (view, record) => view.setUint32(record + 20, size, true));

const SETTINGS = 'Takeout/Chrome/Settings.json';
const IMAGES = 'Takeout/Saved/Favourite images.csv';

describe('an archive read by ranges is answered as the ZIP read whole', () => {
  const zip = zipSync(EXPORT, { level: 6 });
  const foreign = zipSync(
    Object.fromEntries(
      Object.entries(EXPORT).map(([path, bytes]) => [path.replace('/Saved/', '/Listen/'), bytes]),
    ),
    { level: 6 },
  );
  const stored = zipSync({ ...EXPORT, [IMAGES]: strToU8('Title,URL\n') }, { level: 0 });
  const storedWant = zipRecords(stored).find((entry) => entry.name === WANT)!;
  const withSettings = zipSync({ ...EXPORT, [SETTINGS]: strToU8('{"theme":"dark"}') });
  const { [STARRED]: starred, ...unstarred } = EXPORT;
  const cases: Array<[string, Uint8Array, Limits?]> = [
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
    ['a list whose local header is missing', withHeaderMissing(zip, WANT)],
    ['the starred places, their local header missing', withHeaderMissing(zip, STARRED)],
    ["another product's JSON, its local header missing", withHeaderMissing(withSettings, SETTINGS)],
    [
      'a stored list declaring more compressed bytes than it holds',
      withDeclaredSize(stored, WANT, storedWant.originalSize + 100),
    ],
    [
      'a list of images declaring more bytes than the file holds',
      withDeclaredSize(stored, IMAGES, 0x7fffffff),
    ],
    [
      'two lists whose names differ only in case',
      zipSync({ ...EXPORT, 'Takeout/Saved/WANT TO GO.csv': strToU8(LIST.repeat(2)) }),
    ],
    [
      "the starred places under a photo's metadata name",
      zipSync({ ...unstarred, 'Takeout/Maps/Places.jpg.json': starred! }),
    ],
    [
      'a part without "Saved", its CSVs past the lists\' limit',
      zipSync({ [FIT]: EXPORT[FIT]!, 'Takeout/Fit/Daily/2026-01-02.csv': EXPORT[FIT]! }),
      { ...LIMITS, maxCsvBytes: 20 },
    ],
    [
      'a list of pages in "Saved" past the lists\' limit',
      zipSync({ ...EXPORT, 'Takeout/Saved/Favourite pages.csv': strToU8('x'.repeat(4_000)) }),
      { ...LIMITS, maxCsvBytes: 1_000 },
    ],
    ['more lists than the limit', zip, { ...LIMITS, maxLists: 2 }],
  ];

  it.each(cases)('%s', async (_case, archive, limits = LIMITS) => {
    expect(await byRanges(archive, limits)).toEqual(answer(archive, limits));
  });

  it('answers each case as its own (the cases differ)', () => {
    const answers = cases.map(([, archive, limits]) => JSON.stringify(answer(archive, limits)));
    expect(answers[1]).toContain('unsupported-compression');
    expect(answers[4]).toContain('Skipped Takeout/Saved/Want to go.csv');
    expect(answers[5]).toContain('incomplete-zip');
    expect(answers[8]).toContain(
      'Skipped Takeout/Saved/Want to go.csv: it is damaged and could not be unpacked (ZIP entry header missing).',
    );
    expect(answers[9]).toContain('Skipped Takeout/Maps (your places)/Saved Places.json');
    expect(answers[10]).toBe(answers[0]);
    expect(answers[13]).toContain('WANT TO GO.csv');
    expect(answers[14]).not.toContain('Places.jpg.json');
    expect(answers[15]).toContain('no-place-lists');
    expect(answers[16]).toContain('Want to go.csv');
    expect(answers[17]).toContain('too-many-entries');
    expect(new Set(answers).size).toBeGreaterThanOrEqual(10);
  });

  it('reads the lists\' data, still compressed, and no CSV outside "Saved" when it holds one', async () => {
    const reads: Array<[number, number]> = [];
    const source = sourceOf(zip);
    const read = source.read;
    source.read = (at, length) => {
      reads.push([at, length]);
      return read(at, length);
    };
    const contents = await readLargeZip(source);
    const original = zipRecords(zip);
    const entryOf = (name: string) => contents.entries.find((entry) => entry.name === name)!;
    const recordOf = (name: string) => original.find((entry) => entry.name === name)!;
    for (const name of [WANT, FAVOURITES, STARRED]) {
      const { data, size } = recordOf(name);
      expect(contents.data(entryOf(name))).toEqual(zip.subarray(data, data + size));
    }
    // The other product's CSV is never read: neither its header nor its data.
    const fit = zipRecords(zip).find((entry) => entry.name === FIT)!;
    const fitHeader = new DataView(zip.buffer).getUint32(fit.record + 42, true);
    expect(reads.some(([at]) => at === fitHeader || at === fit.data)).toBe(false);
    expect(() => contents.data(entryOf(FIT))).toThrow(/was not read/);
  });

  it("refuses past the part's entries, known from the directory's end before it is read", async () => {
    const entries = zipRecords(zip).length;
    const limits = { ...PART_LIMITS, maxEntries: entries };
    expect(answer(await readLargeZip(sourceOf(zip), { limits }))).toEqual(answer(zip));
    await expect(
      readLargeZip(sourceOf(zip), { limits: { ...limits, maxEntries: entries - 1 } }),
    ).rejects.toMatchObject({
      code: 'too-many-entries',
      message: `This ZIP file holds more than ${entries - 1} files. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    });
  });

  it("holds a part's lists to the lists' limit, unpacked (at the limit it reads)", async () => {
    const lists = zipRecords(zip)
      .filter((entry) => entry.name !== FIT)
      .reduce((sum, entry) => sum + entry.originalSize, 0);
    const limits = { ...PART_LIMITS, maxCsvBytes: lists };
    expect(answer(await readLargeZip(sourceOf(zip), { limits }), limits)).toEqual(answer(zip));
    await expect(
      readLargeZip(sourceOf(zip), { limits: { ...limits, maxCsvBytes: lists - 1 } }),
    ).rejects.toMatchObject({ code: 'archive-too-large' });
  });
});

describe('which archives are read by ranges', () => {
  it('past 16 MB, or past what the limits let be read whole when that is less', () => {
    expect(WHOLE_READ_BYTES).toBe(16 * 1024 * 1024);
    expect(readsByRanges(WHOLE_READ_BYTES)).toBe(false);
    expect(readsByRanges(WHOLE_READ_BYTES + 1)).toBe(true);
    expect(readsByRanges(1_000, { maxArchiveBytes: 1_000 })).toBe(false);
    expect(readsByRanges(1_001, { maxArchiveBytes: 1_000 })).toBe(true);
  });
});

describe('Repack, read in the order a .tgz or a folder gives', () => {
  const bytes = (length: number) => strToU8('x'.repeat(length));
  const names = (repack: Repack) => repack.contents().entries.map((entry) => entry.name);

  it('lets go of CSVs outside "Saved" once a CSV inside it is seen, and keeps no more of them', () => {
    const repack = new Repack('archive', { maxEntries: 10, maxCsvBytes: 100 });
    // Another product's CSV, kept: without a "Saved" folder it may hold lists.
    expect(repack.wanted('Takeout/Fit/Daily.csv', 90, true)).toBe('whole');
    repack.keep('Takeout/Fit/Daily.csv', bytes(90));
    // A list in "Saved" lets it go, and is within the limit.
    expect(repack.wanted('Takeout/Saved/Want to go.csv', 60, true)).toBe('whole');
    repack.keep('Takeout/Saved/Want to go.csv', bytes(60));
    expect(repack.wanted('Takeout/Zeta/Later.csv', 5, true)).toBeUndefined();
    expect(repack.wanted('Takeout/Maps (your places)/Saved Places.json', 30, true)).toBe('whole');
    repack.keep('Takeout/Maps (your places)/Saved Places.json', bytes(30));
    expect(names(repack)).toEqual([
      'Takeout/Saved/Want to go.csv',
      'Takeout/Maps (your places)/Saved Places.json',
    ]);
    // At the limit it keeps; past it, a list in "Saved" refuses.
    expect(repack.wanted('Takeout/Saved/Food.csv', 10, true)).toBe('whole');
    expect(() => repack.wanted('Takeout/Saved/Food.csv', 11, true)).toThrow(ConverterError);
  });

  it('lets go of CSVs outside "Saved" past the limit before it comes, and refuses only if it never does', () => {
    const fill = () => {
      const repack = new Repack('archive', { maxEntries: 10, maxCsvBytes: 100 });
      repack.keep('Takeout/Drive/a.csv', bytes(90));
      // Another product's CSV past the limit: the ones kept from outside "Saved" are let go.
      expect(repack.wanted('Takeout/Drive/b.csv', 11, true)).toBeUndefined();
      expect(repack.size).toBe(0);
      // From then on no CSV outside "Saved" is kept, whatever its size.
      expect(repack.wanted('Takeout/Drive/c.csv', 1, true)).toBeUndefined();
      return repack;
    };
    const saved = fill();
    expect(saved.wanted('Takeout/Saved/Want to go.csv', 100, true)).toBe('whole');
    saved.keep('Takeout/Saved/Want to go.csv', bytes(100));
    expect(names(saved)).toEqual(['Takeout/Saved/Want to go.csv']);
    expect(() => fill().contents()).toThrow(expect.objectContaining({ code: 'archive-too-large' }));
  });

  it('keeps the last of a path found twice, as unpacking the archive would', () => {
    const repack = new Repack('archive', { maxEntries: 10, maxCsvBytes: 100 });
    repack.keep('Takeout/Saved/Food.csv', bytes(60));
    repack.keep('Takeout/Saved/Want to go.csv', bytes(10));
    // What a path already kept takes is free for its new bytes.
    expect(repack.wanted('Takeout/Saved/Food.csv', 90, true)).toBe('whole');
    repack.keep('Takeout/Saved/Food.csv', bytes(90));
    const contents = repack.contents();
    expect(names(repack)).toEqual(['Takeout/Saved/Want to go.csv', 'Takeout/Saved/Food.csv']);
    expect(contents.data(contents.entries[1]!).length).toBe(90);
  });

  it("keeps at most an archive's entries, so its ZIP never needs ZIP64's count (at the limit it keeps)", () => {
    expect(MAX_KEPT_FILES).toBe(LIMITS.maxEntries);
    const repack = new Repack('archive', { maxEntries: MAX_PART_ENTRIES, maxCsvBytes: 1e9 });
    const line = strToU8('Title,URL\n');
    for (let i = 0; i < MAX_KEPT_FILES; i += 1) repack.keep(`Takeout/Saved/${i}.csv`, line);
    expect(repack.size).toBe(MAX_KEPT_FILES);
    expect(() => repack.keep('Takeout/Saved/one more.csv', line)).toThrow(
      expect.objectContaining({
        code: 'too-many-entries',
        message: `This archive holds more than 50,000 CSV files. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
      }),
    );
  });
});
