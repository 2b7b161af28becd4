import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { inspectArchive, type InspectedList } from '@placeport/converter';
import { describeBytes, inspectZipContents, MAX_PART_BYTES } from '@placeport/converter/internal';
import { generateTakeout } from '@placeport/testkit';
import { unzipSync, zipSync } from 'fflate';
import { packTar, type TarEntry } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTarSize,
  MAX_TAR_BYTES,
  MAX_TAR_GROWTH,
  maxTarBytesFor,
  readTarLists,
  tarKindOf,
} from '../src/tar-archive.js';
import { refusal, run, tempFolder } from './support.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** What a reader of the archive sees of its lists. */
const seen = (lists: readonly InspectedList[]) =>
  lists.map(({ path, name, kind, rowCount, size }) => ({ path, name, kind, rowCount, size }));

/** A starred-places file in the new format, under the German name Takeout gives it. */
const STARRED = encode(
  '{"type":"FeatureCollection","features":[{"geometry":{"coordinates":[2.29,48.85],"type":"Point"},"properties":{"date":"2024-01-01T00:00:00Z","google_maps_url":"http://maps.google.com/?cid=1","location":{"name":"Ort"}},"type":"Feature"}]}',
);

describe('a Takeout .tgz', () => {
  let dir: string;
  let remove: () => Promise<void>;
  const takeout = generateTakeout({ seed: 7, coordinatesInUrls: true });
  /**
   * Every file of the generated ZIP, after what a whole export holds beside the lists (files
   * skipped first, so an archive cut short is cut while a list is read after them).
   */
  const files: Record<string, Uint8Array> = {
    'Takeout/Google Photos/IMG_0001.jpg': new Uint8Array(40_000).fill(0xff),
    // Another product's JSON, larger than the sniffed start: never kept.
    'Takeout/Maps/Bewertungen.json': encode(`{"reviews":[${'"x",'.repeat(20_000)}"x"]}`),
    'Takeout/Maps (Meine Orte)/Gespeicherte Orte.json': STARRED,
    ...unzipSync(takeout.zip),
  };
  const entries = (prefix = ''): TarEntry[] => [
    { header: { name: `${prefix}Takeout/`, type: 'directory', size: 0 } },
    ...Object.entries(files).map(([name, body]) => ({
      header: { name: `${prefix}${name}`, size: body.length },
      body,
    })),
  ];
  const write = async (name: string, bytes: Uint8Array) => {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    return file;
  };

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('tar'));
  });
  afterAll(() => remove());

  it('is read up to the largest Takeout part (64 GB), and refused past it before it is read', () => {
    expect(() => checkTarSize(MAX_PART_BYTES, 'tgz')).not.toThrow();
    expect(() => checkTarSize(MAX_PART_BYTES + 1, 'tgz')).toThrow(
      'This .tgz file is larger than 64 GB, more than a Google Takeout part holds. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.',
    );
    expect(() => checkTarSize(MAX_PART_BYTES + 1, 'tar')).toThrow(/^This \.tar file is larger/);
  });

  it('may unpack to 16 times its size, or 2 GB when that is more (a gzip bomb is not read for long)', () => {
    expect(MAX_TAR_GROWTH).toBe(16);
    expect(maxTarBytesFor(1_000)).toBe(MAX_TAR_BYTES);
    expect(maxTarBytesFor(MAX_TAR_BYTES / 16)).toBe(MAX_TAR_BYTES);
    expect(maxTarBytesFor(MAX_TAR_BYTES / 16 + 1)).toBe(MAX_TAR_BYTES + 16);
    expect(maxTarBytesFor(50 * 1024 ** 3)).toBe(800 * 1024 ** 3);
  });

  it('tells the bytes read as they are read, from 0 to its size, and stops when aborted', async () => {
    const tgz = gzipSync(await packTar(entries()));
    const file = await write('progress.tgz', tgz);
    const told: Array<[number, number]> = [];
    await readTarLists(file, 'tgz', { onRead: (read, size) => told.push([read, size]) });
    expect(told[0]).toEqual([0, tgz.length]);
    expect(told.at(-1)).toEqual([tgz.length, tgz.length]);
    expect(told.every(([read], at) => at === 0 || read > told[at - 1]![0])).toBe(true);
    const stop = new AbortController();
    const reason = new Error('stopped');
    stop.abort(reason);
    await expect(readTarLists(file, 'tgz', { signal: stop.signal })).rejects.toBe(reason);
  });

  it('is told by its name: .tgz, .tar.gz and .tar, in any case', () => {
    expect(
      ['takeout-1.tgz', 'TAKEOUT.TAR.GZ', 'a.tar', 'a.zip', 'a.gz', 'a.tgz.csv'].map(tarKindOf),
    ).toEqual(['tgz', 'tgz', 'tar', undefined, undefined, undefined]);
  });

  it('gives the lists the same ZIP gives, keeping only what the list rules read', async () => {
    const tar = await packTar(entries());
    const contents = await readTarLists(await write('takeout.tgz', gzipSync(tar)), 'tgz');
    const expected = inspectArchive(new Uint8Array(zipOf(files))).lists;
    expect(seen(inspectZipContents(contents).lists)).toEqual(seen(expected));
    expect(expected.map((list) => list.kind)).toContain('starred');
    // The photo and the other JSON were skipped; the HTML index too.
    expect(contents.entries.map((entry) => entry.name).sort()).toEqual(
      Object.keys(files)
        .filter((name) => /\.csv$/i.test(name) || name.endsWith('Gespeicherte Orte.json'))
        .sort(),
    );
  });

  it('reads names starting "./", and a .tgz that is already ungzipped (a plain tar)', async () => {
    const tar = await packTar(entries('./'));
    const expected = seen(inspectArchive(new Uint8Array(zipOf(files))).lists);
    const zipped = await readTarLists(await write('dot.tgz', gzipSync(tar)), 'tgz');
    expect(seen(inspectZipContents(zipped).lists)).toEqual(expected);
    const plain = await readTarLists(await write('plain.tgz', tar), 'tgz');
    expect(seen(inspectZipContents(plain).lists)).toEqual(expected);
  });

  it('reads GNU and POSIX tars written by tar itself, long non-ASCII names included', async () => {
    const root = path.join(dir, 'gnu-tree');
    const long = `Très long nom de liste — ${'éèà '.repeat(30)}fin`;
    await mkdir(path.join(root, 'Takeout', 'Saved'), { recursive: true });
    const list = 'Title,Note,URL,Comment\nA,,"https://www.google.com/maps/search/1.5,2.5",\n';
    await writeFile(path.join(root, 'Takeout', 'Saved', `${long}.csv`), list);
    await writeFile(path.join(root, 'Takeout', 'Saved', 'Short.csv'), list);
    for (const format of ['gnu', 'pax']) {
      const file = path.join(dir, `${format}.tgz`);
      await promisify(execFile)('tar', [`--format=${format}`, '-czf', file, '-C', root, 'Takeout']);
      const names = inspectZipContents(await readTarLists(file, 'tgz'))
        .lists.map((l) => l.name)
        .sort();
      expect({ format, names }).toEqual({ format, names: [long, 'Short'].sort() });
    }
  });

  it('refuses a file that is neither gzip nor tar, and one cut short, with what to do', async () => {
    const tgz = gzipSync(await packTar(entries()));
    expect(await refusal(readTarLists(await write('fake.tgz', takeout.zip), 'tgz'))).toEqual({
      code: 'not-a-zip',
      message:
        'This file is not a .tgz archive. Choose the file you downloaded from Google Takeout (its name starts with "takeout-").',
    });
    const incomplete = {
      code: 'incomplete-zip',
      message: 'This file is not a complete .tgz archive. Download it again from Google Takeout.',
    };
    // Cut anywhere (inside a header, a list being kept, a file being skipped), gzip or the tar in
    // it: refused, never a hang, never the lists before the cut passed off as the archive.
    const tar = await packTar(entries());
    for (const [name, whole, wrap] of [
      ['gzip', tgz, (bytes: Uint8Array) => bytes],
      ['tar', tar, (bytes: Uint8Array) => gzipSync(bytes)],
    ] as const) {
      for (let at = 10; at < whole.length - 1024; at += Math.ceil(whole.length / 40)) {
        const file = await write(`cut-${name}.tgz`, wrap(whole.subarray(0, at)));
        expect({ name, at, refused: await refusal(readTarLists(file, 'tgz')) }).toEqual({
          name,
          at,
          refused: incomplete,
        });
      }
    }
    // A header whose checksum fails (the first file's name, right after the folder's header).
    const damaged = new Uint8Array(tar);
    damaged[512 + 10] = damaged[512 + 10]! ^ 0x20;
    expect(
      await refusal(readTarLists(await write('damaged.tgz', gzipSync(damaged)), 'tgz')),
    ).toEqual(incomplete);
  });

  it('stops at each limit: bytes unpacked, entries, and bytes kept (at the limit it reads)', async () => {
    expect(MAX_TAR_BYTES).toBe(2 * 1024 ** 3);
    const tar = await packTar(entries());
    const file = await write('limits.tgz', gzipSync(tar));
    const count = Object.keys(files).length + 1;
    const kept = Object.entries(files)
      .filter(([name]) => /\.csv$/i.test(name) || name.endsWith('Gespeicherte Orte.json'))
      .reduce((sum, [, bytes]) => sum + bytes.length, 0);
    const limits = { maxEntries: count, maxCsvBytes: kept };
    const read = (options: Parameters<typeof readTarLists>[2]) =>
      refusal(readTarLists(file, 'tgz', options));
    expect(await read({ limits, maxTarBytes: tar.length })).toBeUndefined();
    expect(await read({ limits, maxTarBytes: tar.length - 1 })).toEqual({
      code: 'archive-too-large',
      message: `This archive unpacks to more than ${describeBytes(tar.length - 1)}. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    });
    expect(await read({ limits: { ...limits, maxEntries: count - 1 } })).toEqual({
      code: 'too-many-entries',
      message: `This archive holds more than ${count - 1} files. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    });
    expect(await read({ limits: { ...limits, maxCsvBytes: kept - 1 } })).toMatchObject({
      code: 'archive-too-large',
      message: expect.stringMatching(/^The lists in this archive add up to more than /),
    });
  });

  it('lets another product\'s CSVs before "Saved" pass the lists\' limit, and keeps the last of a path written twice', async () => {
    const list = (rows: number) =>
      encode(
        `Title,Note,URL,Comment\n${'A,,"https://www.google.com/maps/search/1.5,2.5",\n'.repeat(rows)}`,
      );
    const drive = encode(`Date,Steps\n${'2026-01-01,5000\n'.repeat(200)}`);
    const limits = { maxEntries: 100, maxCsvBytes: 1_000 };
    expect(drive.length).toBeGreaterThan(limits.maxCsvBytes);
    const tgz = (members: Array<[string, Uint8Array]>) =>
      packTar(members.map(([name, body]) => ({ header: { name, size: body.length }, body })));
    // Drive sorts before Saved in a whole-account export; a list added again with `tar -r`.
    const whole = await tgz([
      ['Takeout/Drive/dataset.csv', drive],
      ['Takeout/Saved/Food.csv', list(1)],
      ['Takeout/Saved/Food.csv', list(3)],
    ]);
    const lists = inspectZipContents(
      await readTarLists(await write('drive-first.tgz', gzipSync(whole)), 'tgz', { limits }),
    ).lists;
    expect(lists.map((l) => [l.path, l.rowCount])).toEqual([['Takeout/Saved/Food.csv', 3]]);
    // Without "Saved", past the limit is past it.
    const noSaved = await tgz([
      ['Takeout/Drive/dataset.csv', drive],
      ['Takeout/Drive/other.csv', list(1)],
    ]);
    expect(
      await refusal(
        readTarLists(await write('drive-only.tgz', gzipSync(noSaved)), 'tgz', { limits }),
      ),
    ).toMatchObject({ code: 'archive-too-large' });
  });

  it('reads a hard link to a list as the list (tar writes one for a file given twice)', async () => {
    const list = encode(
      'Title,Note,URL,Comment\nA,,"https://www.google.com/maps/search/1.5,2.5",\n',
    );
    const tar = await packTar([
      { header: { name: 'Takeout/Archive/Food.csv', size: list.length }, body: list },
      {
        header: {
          name: 'Takeout/Saved/Food.csv',
          type: 'link',
          linkname: 'Takeout/Archive/Food.csv',
          size: 0,
        },
      },
      {
        header: {
          name: 'Takeout/Saved/Gone.csv',
          type: 'link',
          linkname: 'Takeout/Nowhere.csv',
          size: 0,
        },
      },
    ]);
    const contents = await readTarLists(await write('linked.tgz', gzipSync(tar)), 'tgz');
    expect(inspectZipContents(contents).lists.map((l) => [l.path, l.rowCount])).toEqual([
      ['Takeout/Saved/Food.csv', 1],
    ]);
  });

  it('says a .tgz with no CSV is one, not a zip file', async () => {
    const photos = await packTar([
      { header: { name: 'Takeout/Google Photos/IMG_1.jpg', size: 3 }, body: encode('jpg') },
    ]);
    const file = await write('photos.tgz', gzipSync(photos));
    expect(
      await run(['convert', file, '--out', path.join(dir, 'p'), '--offline'], {
        google: 'http://127.0.0.1:9',
        cacheHome: dir,
      }),
    ).toMatchObject({ code: 1, stderr: 'placeport: No CSV files found in the .tgz file.\n' });
  });

  it('converts a .tgz from the command line to the same files as its ZIP', async () => {
    const where = { google: 'http://127.0.0.1:9', cacheHome: dir };
    const zipFile = await write('takeout-cli.zip', zipOf(files));
    const tgzFile = await write('takeout-cli.tgz', gzipSync(await packTar(entries())));
    const fromZip = await run(
      ['convert', zipFile, '--out', path.join(dir, 'z'), '--offline'],
      where,
    );
    const fromTgz = await run(
      ['convert', tgzFile, '--out', path.join(dir, 't'), '--offline'],
      where,
    );
    expect(fromTgz.code).toBe(fromZip.code);
    expect(fromTgz.stderr).toBe('');
    const written = (await readdir(path.join(dir, 'z'), { recursive: true })).sort();
    expect(written.length).toBeGreaterThan(3);
    expect((await readdir(path.join(dir, 't'), { recursive: true })).sort()).toEqual(written);
    for (const name of written.filter((n) => n.endsWith('.kml'))) {
      expect(await readFile(path.join(dir, 't', name))).toEqual(
        await readFile(path.join(dir, 'z', name)),
      );
    }
    // Known by its first bytes, whatever its name says: a .tgz renamed .zip, files saved
    // without their extension.
    const tgzBytes = await readFile(tgzFile);
    const zipBytes = await readFile(zipFile);
    for (const [name, bytes] of [
      ['takeout-renamed.zip', tgzBytes],
      ['takeout-no-extension', tgzBytes],
      ['takeout-zip-no-extension', zipBytes],
    ] as const) {
      const out = path.join(dir, `sniffed-${name}`);
      const result = await run(
        ['convert', await write(name, bytes), '--out', out, '--offline'],
        where,
      );
      expect(result.code, name).toBe(fromZip.code);
      expect((await readdir(out, { recursive: true })).sort(), name).toEqual(written);
    }
    // Neither a ZIP, a gzip nor a tar, and no name to go by: refused as before.
    const unknown = await run(
      ['convert', await write('notes', encode('hello')), '--out', path.join(dir, 'u')],
      where,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Give a ZIP (or .tgz) file from Google Takeout');
    const notArchive = await run(
      ['convert', await write('notes.tgz', encode('hello')), '--out', path.join(dir, 'n')],
      where,
    );
    expect(notArchive).toMatchObject({
      code: 1,
      stderr:
        'placeport: This file is not a .tgz archive. Choose the file you downloaded from Google Takeout (its name starts with "takeout-").\n',
    });
  });
});

/** The files as a ZIP, as Takeout would have given them (DEFLATE). */
function zipOf(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files);
}
