import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectArchive, LIMITS, MESSAGES, type InspectedList } from '@placeport/converter';
import { generateTakeout, kmlPoints, writeSparseZip64Part, zipRecords } from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectZipContents, MAX_PART_BYTES } from '@placeport/converter/internal';
import { readLargeZipFile as readLargeZip } from '../src/zip-file.js';
import { refusal, run, tempFolder } from './support.js';

/** What a reader of the archive sees of its lists. */
const seen = (lists: readonly InspectedList[]) =>
  lists.map(({ path, name, kind, rowCount, size }) => ({ path, name, kind, rowCount, size }));

const STARRED =
  '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"google_maps_url":"http://maps.google.com/?cid=1","location":{"name":"Ort"}},"type":"Feature"}]}';

describe('a Takeout ZIP too large to read whole (a part of a whole-account export)', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const takeout = generateTakeout({
    seed: 23,
    coordinatesInUrls: true,
    savedPlacesJson: { places: 5, format: 'new' },
    extraEntries: {
      'Takeout/Google Photos/IMG_0001.jpg': new Uint8Array(200_000).fill(7),
      // Another product's JSON, deflating past the compressed bytes a start is judged from.
      'Takeout/Location History/Records.json': strToU8(
        `{"locations":[${Array.from({ length: 40_000 }, (_, i) => `{"latitudeE7":${i * 7919},"t":"${(i * 104729).toString(36)}"}`).join(',')}]}`,
      ),
    },
  });

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('large-zip'));
  });
  afterAll(() => remove());

  it('reads only its lists and starred places, and gives the lists the whole ZIP gives', async () => {
    const file = path.join(dir, 'takeout.zip');
    await writeFile(file, takeout.zip);
    const contents = await readLargeZip(file, takeout.zip.length);
    const lists = inspectZipContents(contents).lists;
    expect(seen(lists)).toEqual(seen(inspectArchive(takeout.zip).lists));
    expect(lists.map((list) => list.kind)).toContain('starred');
    // Neither the photo nor the other product's JSON (judged by its start) is held.
    for (const entry of contents.entries.filter((e) => /Records|IMG/.test(e.name))) {
      expect(() => contents.data(entry)).toThrow(/was not read/);
    }
  });

  it('refuses a file with no ZIP directory (not a ZIP, or cut short), and skips a list the directory puts past the end', async () => {
    const notZip = path.join(dir, 'not.zip');
    await writeFile(notZip, new Uint8Array(100_000).fill(1));
    expect(await refusal(readLargeZip(notZip, 100_000))).toEqual({
      code: 'not-a-zip',
      message: MESSAGES.notAZipInside,
    });
    const cut = path.join(dir, 'cut.zip');
    const half = takeout.zip.subarray(0, takeout.zip.length >> 1);
    await writeFile(cut, half);
    expect(await refusal(readLargeZip(cut, half.length))).toEqual({
      code: 'incomplete-zip',
      message: MESSAGES.incompleteZip,
    });
    // A list declaring 4 GB of compressed bytes for a few KB unpacked (a damaged directory): its
    // data would run past the file's end, so it is skipped as the ZIP read whole skips it, and
    // nothing near 4 GB is read.
    const list = zipRecords(takeout.zip).find((entry) =>
      entry.name.endsWith('/Saved/Want to go.csv'),
    )!;
    const lying = new Uint8Array(takeout.zip);
    new DataView(lying.buffer).setUint32(list.record + 20, 0xfffffff0, true);
    const file = path.join(dir, 'lying.zip');
    await writeFile(file, lying);
    const warned = (read: (logger: { warn: (line: string) => void }) => InspectedList[]) => {
      const warnings: string[] = [];
      return { lists: seen(read({ warn: (line) => warnings.push(line) })), warnings };
    };
    const contents = await readLargeZip(file, lying.length);
    const byRanges = warned((logger) => inspectZipContents(contents, { logger }).lists);
    expect(byRanges).toEqual(warned((logger) => inspectArchive(lying, { logger }).lists));
    expect(byRanges.warnings).toEqual([
      `Skipped ${list.name}: it is damaged and could not be unpacked (ZIP entry cut short).`,
    ]);
  });

  it("stops at the entries and lists' limits (at the limit it reads)", async () => {
    const file = path.join(dir, 'limits.zip');
    await writeFile(file, takeout.zip);
    const entries = zipRecords(takeout.zip).length;
    const lists = inspectArchive(takeout.zip).lists.reduce((sum, list) => sum + list.size, 0);
    const limits = { ...LIMITS, maxEntries: entries, maxCsvBytes: lists };
    expect(await refusal(readLargeZip(file, takeout.zip.length, { limits }))).toBeUndefined();
    expect(
      await refusal(
        readLargeZip(file, takeout.zip.length, { limits: { ...limits, maxEntries: entries - 1 } }),
      ),
    ).toMatchObject({ code: 'too-many-entries' });
    expect(
      await refusal(
        readLargeZip(file, takeout.zip.length, { limits: { ...limits, maxCsvBytes: lists - 1 } }),
      ),
    ).toMatchObject({ code: 'archive-too-large' });
  });

  it('says a part of an export in several that holds no list is one, and where the lists are', async () => {
    const where = { google: 'http://127.0.0.1:9', cacheHome: dir };
    const photos = zipSync({ 'Takeout/Google Photos/IMG_0002.jpg': new Uint8Array(100) });
    const part = path.join(dir, 'takeout-20261127T110000Z-002.zip');
    await writeFile(part, photos);
    expect(await run(['convert', part, '--out', path.join(dir, 'p')], where)).toMatchObject({
      code: 1,
      stderr: `placeport: ${MESSAGES.noCsv} This is part 2 of an export in several parts: give the part that holds the "Saved" folder.\n`,
    });
    // A part holding another product's CSVs (Fit's days), which are no lists: the same.
    const fit = path.join(dir, 'takeout-20261127T110000Z-004.zip');
    await writeFile(
      fit,
      zipSync({
        'Takeout/Fit/Daily activity metrics/2024-01-01.csv': strToU8('Start time,Calories\n0,1\n'),
        'Takeout/Fit/Daily activity metrics/2024-01-02.csv': strToU8('Start time,Calories\n0,2\n'),
      }),
    );
    expect(await run(['convert', fit, '--out', path.join(dir, 'p')], where)).toMatchObject({
      code: 1,
      stderr: `placeport: ${MESSAGES.noPlaceLists} This is part 4 of an export in several parts: give the part that holds the "Saved" folder.\n`,
    });
    // Named otherwise, it is the seed's message alone.
    const single = path.join(dir, 'photos.zip');
    await writeFile(single, photos);
    expect(await run(['convert', single, '--out', path.join(dir, 'p')], where)).toMatchObject({
      code: 1,
      stderr: `placeport: ${MESSAGES.noCsv}\n`,
    });
  });

  it('converts a ZIP64 part of more than 5 GB from the command line, reading only its lists', async () => {
    expect(MAX_PART_BYTES).toBe(64 * 1024 ** 3);
    const file = path.join(dir, 'takeout-20261127T110000Z-003.zip');
    const size = await writeSparseZip64Part(file, {
      'Takeout/Saved/Want to go.csv':
        'Title,Note,URL,Comment\nColosseum,,"https://www.google.com/maps/search/41.8902,12.4922",\nPantheon,,"https://www.google.com/maps/place/Pantheon/@41.8986,12.4769,17z/data=!3d41.8986108!4d12.4768729",\n',
      'Takeout/Maps (your places)/Saved Places.json': STARRED,
    });
    expect(size).toBeGreaterThan(LIMITS.maxArchiveBytes * 10);
    const out = path.join(dir, 'part-out');
    const result = await run(['convert', file, '--out', out, '--offline'], {
      google: 'http://127.0.0.1:9',
      cacheHome: dir,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect((await readdir(out)).sort()).toEqual(['Saved Places.kml', 'Want to go.kml']);
    expect(kmlPoints(await readFile(path.join(out, 'Want to go.kml'), 'utf8'))).toEqual([
      { name: 'Colosseum', lngLat: [12.4922, 41.8902] },
      { name: 'Pantheon', lngLat: [12.4768729, 41.8986108] },
    ]);
  });
});
