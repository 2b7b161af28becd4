import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectArchive, LIMITS, type InspectedList } from '@placeport/converter';
import { MAX_PART_ENTRIES } from '@placeport/converter/internal';
import { generateTakeout } from '@placeport/testkit';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_LIMITS, readFolderAsZip } from '../src/folder-archive.js';
import { refusal, run, tempFolder } from './support.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** What a reader of the archive sees of its lists, in path order (a folder is read sorted). */
const seen = (lists: readonly InspectedList[]) =>
  lists
    .map(({ path, name, kind, rowCount, size }) => ({ path, name, kind, rowCount, size }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));

describe('an unzipped Takeout export, given as its folder', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let root: string;
  const takeout = generateTakeout({ seed: 11, coordinatesInUrls: true });
  const files: Record<string, Uint8Array> = {
    ...unzipSync(takeout.zip),
    'Takeout/Maps (Meine Orte)/Gespeicherte Orte.json': encode(
      '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"google_maps_url":"http://maps.google.com/?cid=1","location":{"name":"Ort"}},"type":"Feature"}]}',
    ),
    'Takeout/Maps/Bewertungen.json': encode('{"reviews":[]}'),
    'Takeout/Google Photos/IMG_0001.jpg': new Uint8Array(4_000).fill(0xff),
  };

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('folder'));
    root = path.join(dir, 'export');
    for (const [name, bytes] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      if (!name.endsWith('/')) await writeFile(path.join(root, name), bytes);
    }
    // A link to the whole disk, and one to a list: never followed.
    await symlink('/', path.join(root, 'Takeout', 'everything'));
    await symlink(path.join(root, 'Takeout', 'Saved'), path.join(root, 'Takeout', 'Saved again'));
  });
  afterAll(() => remove());

  it('gives the lists its ZIP gives, named from the folder down, links not followed', async () => {
    const zip = await readFolderAsZip(path.join(root, 'Takeout'));
    expect(seen(inspectArchive(zip).lists)).toEqual(
      seen(inspectArchive(new Uint8Array(takeoutZipWith(files))).lists),
    );
    expect(inspectArchive(zip).lists.map((l) => l.kind)).toContain('starred');
    // Only the lists and the starred places were read into it.
    expect(Object.keys(unzipSync(zip)).filter((name) => !name.endsWith('.csv'))).toEqual([
      'Takeout/Maps (Meine Orte)/Gespeicherte Orte.json',
    ]);
  });

  it('reads the Saved folder given on its own, not the output folder inside it', async () => {
    const saved = path.join(root, 'Takeout', 'Saved');
    await mkdir(path.join(saved, 'maps'), { recursive: true });
    await writeFile(path.join(saved, 'maps', 'Want to go - failed-places.csv'), 'Title,URL\nA,\n');
    const zip = await readFolderAsZip(saved, { skip: path.join(saved, 'maps') });
    await rm(path.join(saved, 'maps'), { recursive: true });
    const lists = inspectArchive(zip).lists;
    expect(lists.map((l) => l.path).sort()).toEqual(
      takeout.lists
        .filter((l) => l.isPlaceList)
        .map((l) => l.path.replace(/^Takeout\//, ''))
        .sort(),
    );
  });

  it('holds as many entries as a part of a whole-account export (unzipped, a file per photo and its metadata)', () => {
    expect(FOLDER_LIMITS).toEqual({
      maxEntries: MAX_PART_ENTRIES,
      maxCsvBytes: LIMITS.maxCsvBytes,
    });
    expect(FOLDER_LIMITS.maxEntries).toBeGreaterThan(LIMITS.maxEntries);
  });

  it('stops at each limit (at the limit it reads), and says when it holds no list', async () => {
    const saved = path.join(root, 'Takeout', 'Saved');
    const names = await readdir(saved);
    let kept = 0;
    for (const name of names) kept += (await readFile(path.join(saved, name))).length;
    const limits = { maxEntries: names.length, maxCsvBytes: kept };
    expect(await refusal(readFolderAsZip(saved, { limits }))).toBeUndefined();
    expect(
      await refusal(
        readFolderAsZip(saved, { limits: { ...limits, maxEntries: names.length - 1 } }),
      ),
    ).toEqual({
      code: 'too-many-entries',
      message: `This folder holds more than ${names.length - 1} files. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    });
    expect(
      await refusal(readFolderAsZip(saved, { limits: { ...limits, maxCsvBytes: kept - 1 } })),
    ).toMatchObject({
      code: 'archive-too-large',
      message: expect.stringMatching(/^The lists in this folder add up to more than /),
    });
    const photos = path.join(root, 'Takeout', 'Google Photos');
    expect(await refusal(readFolderAsZip(photos))).toEqual({
      code: 'no-csv',
      message: `${photos} holds no saved place lists. Give the folder of an unzipped Google Takeout export (the one holding "Takeout"), or the ZIP file you downloaded.`,
    });
  });

  it('converts a folder from the command line to the same files as its ZIP', async () => {
    const where = { google: 'http://127.0.0.1:9', cacheHome: dir };
    const zipFile = path.join(dir, 'takeout.zip');
    await writeFile(zipFile, takeoutZipWith(files));
    const fromZip = await run(
      ['convert', zipFile, '--out', path.join(dir, 'z'), '--offline'],
      where,
    );
    const fromFolder = await run(
      ['convert', path.join(root, 'Takeout'), '--out', path.join(dir, 'f'), '--offline'],
      where,
    );
    expect(fromFolder.code).toBe(fromZip.code);
    expect(fromFolder.stderr).toBe('');
    const written = (await readdir(path.join(dir, 'z'))).sort();
    expect(written.length).toBeGreaterThan(3);
    expect((await readdir(path.join(dir, 'f'))).sort()).toEqual(written);
    for (const name of written) {
      expect(await readFile(path.join(dir, 'f', name))).toEqual(
        await readFile(path.join(dir, 'z', name)),
      );
    }
  });
});

/** The files as a ZIP, as Takeout would have given them. */
function takeoutZipWith(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files);
}
