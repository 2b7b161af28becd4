import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectArchive, LIMITS, MESSAGES, type InspectedList } from '@placeport/converter';
import { generateTakeout, kmlPoints, writeSparseZip64Part } from '@placeport/testkit';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PART_BYTES } from '@placeport/converter/internal';
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
    const zip = await readLargeZip(file, takeout.zip.length);
    expect(seen(inspectArchive(zip).lists)).toEqual(seen(inspectArchive(takeout.zip).lists));
    expect(inspectArchive(zip).lists.map((list) => list.kind)).toContain('starred');
    expect(Object.keys(unzipSync(zip)).some((name) => /Records|IMG/.test(name))).toBe(false);
  });

  it('refuses a file with no ZIP directory (not a ZIP, or cut short), and a CSV it cannot unpack', async () => {
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
    // The first list marked bzip2 (12) in the directory: another tool zipped the export again.
    const packed = new Uint8Array(takeout.zip);
    const view = new DataView(packed.buffer);
    let at = view.getUint32(packed.length - 22 + 16, true);
    while (
      !new TextDecoder()
        .decode(packed.subarray(at + 46, at + 46 + view.getUint16(at + 28, true)))
        .endsWith('.csv')
    ) {
      at +=
        46 +
        view.getUint16(at + 28, true) +
        view.getUint16(at + 30, true) +
        view.getUint16(at + 32, true);
    }
    view.setUint16(at + 10, 12, true);
    const bzip = path.join(dir, 'bzip.zip');
    await writeFile(bzip, packed);
    expect(await refusal(readLargeZip(bzip, packed.length))).toMatchObject({
      code: 'unsupported-compression',
      message: expect.stringContaining('(bzip2)'),
    });
    // The same list declaring 4 GB of compressed bytes for a few KB unpacked: a damaged directory.
    view.setUint16(at + 10, 8, true);
    view.setUint32(at + 20, 0xfffffff0, true);
    const lying = path.join(dir, 'lying.zip');
    await writeFile(lying, packed);
    expect(await refusal(readLargeZip(lying, packed.length))).toEqual({
      code: 'incomplete-zip',
      message: MESSAGES.incompleteZip,
    });
  });

  it('stops at the entries and list bytes limits (at the limit it reads)', async () => {
    const file = path.join(dir, 'limits.zip');
    await writeFile(file, takeout.zip);
    const entries = Object.keys(unzipSync(takeout.zip)).length;
    const full = await readLargeZip(file, takeout.zip.length);
    const kept = inspectArchive(full).lists.reduce((sum, list) => sum + list.size, 0);
    const keptAll = Object.values(unzipSync(full)).reduce((s, b) => s + b.length, 0);
    const limits = { maxEntries: entries, maxCsvBytes: keptAll };
    expect(kept).toBeLessThanOrEqual(keptAll);
    expect(await refusal(readLargeZip(file, takeout.zip.length, { limits }))).toBeUndefined();
    expect(
      await refusal(
        readLargeZip(file, takeout.zip.length, { limits: { ...limits, maxEntries: entries - 1 } }),
      ),
    ).toMatchObject({ code: 'too-many-entries' });
    expect(
      await refusal(
        readLargeZip(file, takeout.zip.length, { limits: { ...limits, maxCsvBytes: keptAll - 1 } }),
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
