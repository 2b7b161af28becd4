import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectArchive, LIMITS, type InspectedList } from '@placeport/converter';
import { inspectZipContents, MAX_PART_ENTRIES } from '@placeport/converter/internal';
import { generateTakeout } from '@placeport/testkit';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_LIMITS, readFolderLists } from '../src/folder-archive.js';
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
    const zip = await readFolderLists(path.join(root, 'Takeout'));
    expect(seen(inspectZipContents(zip).lists)).toEqual(
      seen(inspectArchive(new Uint8Array(takeoutZipWith(files))).lists),
    );
    expect(inspectZipContents(zip).lists.map((l) => l.kind)).toContain('starred');
    // Only the lists and the starred places were read into it.
    expect(zip.entries.map((e) => e.name).filter((name) => !name.endsWith('.csv'))).toEqual([
      'Takeout/Maps (Meine Orte)/Gespeicherte Orte.json',
    ]);
  });

  it('reads the Saved folder given on its own, not the output folder inside it', async () => {
    const saved = path.join(root, 'Takeout', 'Saved');
    await mkdir(path.join(saved, 'maps'), { recursive: true });
    await writeFile(path.join(saved, 'maps', 'Want to go - failed-places.csv'), 'Title,URL\nA,\n');
    const zip = await readFolderLists(saved, { skip: path.join(saved, 'maps') });
    await rm(path.join(saved, 'maps'), { recursive: true });
    const lists = inspectZipContents(zip).lists;
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
    expect(await refusal(readFolderLists(saved, { limits }))).toBeUndefined();
    expect(
      await refusal(
        readFolderLists(saved, { limits: { ...limits, maxEntries: names.length - 1 } }),
      ),
    ).toEqual({
      code: 'too-many-entries',
      message: `This folder holds more than ${names.length - 1} files. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    });
    expect(
      await refusal(readFolderLists(saved, { limits: { ...limits, maxCsvBytes: kept - 1 } })),
    ).toMatchObject({
      code: 'archive-too-large',
      message: expect.stringMatching(/^The lists in this folder add up to more than /),
    });
    const photos = path.join(root, 'Takeout', 'Google Photos');
    expect(await refusal(readFolderLists(photos))).toEqual({
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

describe('a folder whose names are not UTF-8, or given as its own --out', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('folder-bytes'));
  });
  afterAll(() => remove());
  const list = 'Title,Note,URL,Comment\nA,,"https://www.google.com/maps/search/1.5,2.5",\n';

  it('reads folders and lists named in Latin-1 (as an old zip tool left them), the names shown as UTF-8 can', async () => {
    const root = path.join(dir, 'Takeout');
    // "Vacances été" and "Café.csv" in Latin-1: bytes that are not UTF-8.
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const photos = Buffer.concat([Buffer.from(`${root}/`), latin1('Vacances été')]);
    await mkdir(photos, { recursive: true });
    await writeFile(Buffer.concat([photos, Buffer.from('/IMG_1.jpg.json')]), '{"title":"x"}');
    await mkdir(path.join(root, 'Saved'), { recursive: true });
    await writeFile(path.join(root, 'Saved', 'Food.csv'), list);
    await writeFile(
      Buffer.concat([Buffer.from(`${root}/Saved/`), latin1('Café.csv')]),
      list.repeat(1),
    );
    const warnings: string[] = [];
    const lists = inspectZipContents(
      await readFolderLists(root, { warn: (text) => warnings.push(text) }),
    ).lists;
    expect(lists.map((l) => [l.name, l.rowCount])).toEqual([
      ['Caf\ufffd', 1],
      ['Food', 1],
    ]);
    expect(warnings).toEqual([]);
  });

  it('refuses --out the folder being converted, whose written files the next run would read as lists', async () => {
    const saved = path.join(dir, 'Saved');
    await mkdir(saved, { recursive: true });
    await writeFile(path.join(saved, 'Want to go.csv'), list);
    const where = { google: 'http://127.0.0.1:9', cacheHome: dir };
    expect(await run(['convert', saved, '--out', `${saved}/`, '--offline'], where)).toMatchObject({
      code: 2,
      stderr: `placeport: --out ${saved}/ is the folder being converted: the files a run writes there would be read as lists by the next. Give another --out folder.\nRun "placeport --help" for the options.\n`,
    });
    expect(await readdir(saved)).toEqual(['Want to go.csv']);
  });

  it('says which part an unzipped part of an export in several is, when it holds no list', async () => {
    const part = path.join(dir, 'takeout-20261127T110000Z-002');
    await mkdir(path.join(part, 'Takeout', 'Google Photos'), { recursive: true });
    await writeFile(path.join(part, 'Takeout', 'Google Photos', 'IMG_2.jpg'), 'jpg');
    const answer = await run(['convert', part, '--out', path.join(dir, 'p'), '--offline'], {
      google: 'http://127.0.0.1:9',
      cacheHome: dir,
    });
    expect(answer.code).toBe(1);
    expect(answer.stderr).toContain(
      'This is part 2 of an export in several parts: give the part that holds the "Saved" folder.',
    );
  });
});

/** The files as a ZIP, as Takeout would have given them. */
function takeoutZipWith(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files);
}
