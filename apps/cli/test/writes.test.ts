import { generateTakeout, startFakeGoogle, type FakeGoogle } from '@placeport/testkit';
import { REASON_TEXT } from '@placeport/contract';
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { convertArchive, listFiles } from '@placeport/converter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOWHERE, readKmlFile, run as runBin, tempFolder } from './support.js';
import type { CliSummary } from '../src/summary.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('placeport writes safely', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;
  /** A takeout of two lists whose links all carry coordinates: nothing is looked up. */
  let pins: string;
  /** A list with places placed from their links, places a lookup places, and places without a link. */
  const mixedTakeout = generateTakeout({
    seed: 11,
    includeNonPlaceLists: false,
    lists: [{ name: 'Want to go', places: 12, kinds: { pin: 1, ftid: 2, 'no-link': 1 } }],
  });
  const mixedPlaces = mixedTakeout.lists[0]!.places;
  let mixed: string;
  const offline = (args: string[]) =>
    runBin([...args, '--offline'], { google: NOWHERE, cacheHome: dir });
  const online = (args: string[]) => runBin(args, { google: google.url, cacheHome: dir });
  const zipOf = async (name: string, takeout: { zip: Uint8Array }) => {
    const file = path.join(dir, name);
    await writeFile(file, takeout.zip);
    return file;
  };
  /** A victim outside the output folder, which no run may change. */
  const victim = () => path.join(dir, 'victim.txt');

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('writes'));
    google = await startFakeGoogle();
    await writeFile(victim(), 'precious\n');
    pins = await zipOf(
      'pins.zip',
      generateTakeout({
        seed: 3,
        coordinatesInUrls: true,
        includeNonPlaceLists: false,
        lists: [
          { name: 'Food', places: 3 },
          { name: 'Parks', places: 2 },
        ],
      }),
    );
    mixed = await zipOf('mixed.zip', mixedTakeout);
    // Each kind is there: placed at once, placed by a lookup, never placed.
    expect(mixedPlaces.some((p) => p.expected)).toBe(true);
    expect(mixedPlaces.some((p) => !p.expected && p.resolvable)).toBe(true);
    expect(mixedPlaces.some((p) => p.kind === 'no-link')).toBe(true);
  });

  afterAll(async () => {
    await google.close();
    await remove();
  });

  it('writes every file byte for byte as the library writes it, past the write buffer and with characters of every width', async () => {
    // Titles of 1 to 4-byte characters, so pieces rarely fill the write buffer exactly.
    const rows = Array.from({ length: 3_000 }, (_, i) => {
      const title = `${'清水寺 Über 🛴 '.repeat(1 + (i % 7))}${i}`;
      return `${title},Note ${i},"https://www.google.com/maps/search/${(i % 80) + 1}.5,${(i % 170) + 1}.25",`;
    });
    const zip = zipSync({
      'Takeout/Saved/Big list.csv': strToU8(`Title,Note,URL,Comment\n${rows.join('\n')}\n`),
    });
    const out = path.join(dir, 'byte-for-byte');
    const result = await offline(['convert', await zipOf('big.zip', { zip }), '--out', out]);
    expect(result.code).toBe(0);
    const expected = (await convertArchive(zip)).lists.flatMap((list) => listFiles(list, 'kml'));
    expect(expected).toHaveLength(2);
    for (const file of expected) {
      expect(await readFile(path.join(out, file.fileName), 'utf8')).toBe(file.data);
    }
  });

  it('never follows a symbolic link in the output folder: exit 2 naming it, then --force replaces the link by a file', async () => {
    const out = path.join(dir, 'links');
    await mkdir(out);
    await symlink(victim(), path.join(out, 'Food.kml'));
    // A link pointing nowhere: opening it to write would create the file it names.
    const nowhere = path.join(dir, 'made-through-a-link.kml');
    await symlink(nowhere, path.join(out, 'Parks.kml'));

    const refused = await offline(['convert', pins, '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`2 files this run writes are already in ${out}`);
    expect(refused.stderr).toContain('  Food.kml (a symbolic link: never followed)\n');
    expect(refused.stderr).toContain('  Parks.kml (a symbolic link: never followed)\n');
    expect(refused.stderr).toContain('--force');
    expect(await readFile(victim(), 'utf8')).toBe('precious\n');
    await expect(stat(nowhere)).rejects.toThrow();
    expect((await readdir(out)).sort()).toEqual(['Food.kml', 'Parks.kml']);

    const json = await offline(['convert', pins, '--out', out, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: {
        code: 'files-exist',
        files: [path.join(out, 'Food.kml'), path.join(out, 'Parks.kml')],
      },
    });

    const forced = await offline(['convert', pins, '--out', out, '--force', '--json']);
    expect(forced.code).toBe(0);
    for (const name of ['Food.kml', 'Parks.kml']) {
      const info = await lstat(path.join(out, name));
      expect(info.isSymbolicLink()).toBe(false);
      expect(info.isFile()).toBe(true);
    }
    expect(await readKmlFile(path.join(out, 'Food.kml'))).toHaveLength(3);
    expect(await readFile(victim(), 'utf8')).toBe('precious\n');
    await expect(stat(nowhere)).rejects.toThrow();
    // No temporary file is left behind.
    expect((await readdir(out)).sort()).toEqual(['Food.kml', 'Parks.kml']);
  });

  it('never replaces an existing file without --force: exit 2 naming every one, nothing written; --force replaces them', async () => {
    const out = path.join(dir, 'again');
    const first = await offline(['convert', mixed, '--out', out]);
    expect(first.code).toBe(0);
    const names = (await readdir(out)).sort();
    expect(names).toEqual(['Want to go - failed-places.csv', 'Want to go.kml']);
    await writeFile(path.join(out, 'Want to go.kml'), 'edited by hand');

    const again = await offline([
      'convert',
      mixed,
      '--out',
      out,
      '--format',
      'kml',
      '--format',
      'gpx',
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('2 files this run writes are already in');
    expect(again.stderr).toContain('  Want to go.kml\n');
    expect(again.stderr).toContain('  Want to go - failed-places.csv\n');
    expect(again.stderr).not.toContain('Want to go.gpx');
    expect(await readFile(path.join(out, 'Want to go.kml'), 'utf8')).toBe('edited by hand');
    expect((await readdir(out)).sort()).toEqual(names);

    const forced = await offline([
      'convert',
      mixed,
      '--out',
      out,
      '--force',
      '--format',
      'gpx',
      '--format',
      'kml',
    ]);
    expect(forced.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual([...names, 'Want to go.gpx'].sort());
    expect(await readKmlFile(path.join(out, 'Want to go.kml'))).not.toHaveLength(0);
  });

  it('with --force, removes the files of an earlier run it does not write again: a failed-places CSV whose places are all placed now', async () => {
    const out = path.join(dir, 'stale');
    const food = await zipOf(
      'lookups.zip',
      generateTakeout({
        seed: 12,
        quirks: false,
        includeNonPlaceLists: false,
        lists: [{ name: 'Food', places: 4, kinds: { ftid: 1 } }],
      }),
    );
    expect((await offline(['convert', food, '--out', out])).code).toBe(0);
    const csv = path.join(out, 'Food - failed-places.csv');
    // Nothing placed offline: only the failed-places CSV (a map file of no place is not written).
    expect(await readdir(out)).toEqual(['Food - failed-places.csv']);
    // A file the run does not own is never touched.
    await writeFile(path.join(out, 'notes.txt'), 'mine');

    const forced = await online(['convert', food, '--out', out, '--force', '--json']);
    expect(forced.code).toBe(0);
    const summary = JSON.parse(forced.stdout) as CliSummary;
    expect(summary.lists[0]).toMatchObject({ converted: 4, cleared: [csv] });
    expect((await readdir(out)).sort()).toEqual(['Food.kml', 'notes.txt']);
    expect(await readKmlFile(path.join(out, 'Food.kml'))).toHaveLength(4);

    // Run offline again, the map file of the run before goes (its places are in the CSV now, to
    // be looked up again), and the text summary says so.
    const again = await offline(['convert', food, '--out', out, '--force']);
    expect(again.stdout).toContain(
      `    removed ${path.join(out, 'Food.kml')}: an earlier run's, not made again`,
    );
    expect((await readdir(out)).sort()).toEqual(['Food - failed-places.csv', 'notes.txt']);
  });

  it('refuses an --out that is a file (exit 2), before looking anything up', async () => {
    const file = path.join(dir, 'not-a-folder.kml');
    await writeFile(file, 'mine');
    const result = await offline(['convert', pins, '--out', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out ${file} is a file, not a folder`);
    expect(await readFile(file, 'utf8')).toBe('mine');
  });

  it('refuses an --out that cannot be written (exit 2) with the reason, before looking anything up', async () => {
    // A folder under a regular file can be neither made nor written, whoever runs the test.
    const blocker = path.join(dir, 'a-file-in-the-way');
    await writeFile(blocker, 'mine');
    const out = path.join(blocker, 'maps');
    google.clearRequests();
    const result = await online(['convert', mixed, '--out', out, '--no-cache']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--out ${out} cannot be used: a file is in the way of the folder (ENOTDIR)`,
    );
    expect(result.stdout).toBe('');
    expect(google.count()).toBe(0);
    expect(await readFile(blocker, 'utf8')).toBe('mine');
  });

  it.runIf(process.platform === 'linux')(
    'refuses a folder no one may write in (/proc/self, root included) and one the file system will not make, exit 2, before looking anything up',
    async () => {
      google.clearRequests();
      const unwritable = await online(['convert', mixed, '--out', '/proc/self', '--no-cache']);
      expect(unwritable.code).toBe(2);
      expect(unwritable.stderr).toContain(
        '--out /proc/self cannot be written: files cannot be created there (ENOENT)',
      );
      expect(google.count()).toBe(0);
      const out = '/proc/placeport-out';
      const unmade = await online(['convert', mixed, '--out', out, '--no-cache']);
      expect(unmade.code).toBe(2);
      expect(unmade.stderr).toContain(
        `--out ${out} cannot be made: the file system will not make it (ENOENT)`,
      );
      expect(google.count()).toBe(0);
    },
  );

  it('with --json, prints a refused --out as {"error":{"code":"usage","message"}} on stdout', async () => {
    const file = path.join(dir, 'not-a-folder-json.kml');
    await writeFile(file, 'mine');
    const blocker = path.join(dir, 'a-file-in-the-way-json');
    await writeFile(blocker, 'mine');
    const cases: Array<[string, string]> = [
      [file, `--out ${file} is a file, not a folder`],
      [
        path.join(blocker, 'maps'),
        `--out ${path.join(blocker, 'maps')} cannot be used: a file is in the way of the folder (ENOTDIR)`,
      ],
      ...(process.platform === 'linux'
        ? ([
            [
              '/proc/self',
              '--out /proc/self cannot be written: files cannot be created there (ENOENT)',
            ],
          ] as Array<[string, string]>)
        : []),
    ];
    for (const [out, message] of cases) {
      const result = await offline(['convert', pins, '--out', out, '--json']);
      expect({ out, code: result.code, stdout: result.stdout }).toEqual({
        out,
        code: 2,
        stdout: `${JSON.stringify({ error: { code: 'usage', message } })}\n`,
      });
    }
  });

  it('leaves nothing of its check in --out: the folder holds only what the run wrote', async () => {
    const out = path.join(dir, 'probe-gone');
    const result = await offline(['convert', pins, '--out', out]);
    expect(result.code).toBe(0);
    expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('writes a list with a 100-character CJK name under a name within 255 bytes, and the whole summary', async () => {
    const name = '東京で行きたいラーメン屋さん'.repeat(8).slice(0, 100);
    const zip = await zipOf(
      'cjk.zip',
      generateTakeout({
        seed: 4,
        includeNonPlaceLists: false,
        lists: [
          { name, places: 4, kinds: { pin: 1, ftid: 1 } },
          { name: 'After it', places: 2, kinds: { pin: 1 } },
        ],
      }),
    );
    const out = path.join(dir, 'cjk');
    const formats = ['--format', 'geojson', '--format', 'kml'];
    const result = await offline(['convert', zip, '--out', out, '--json', ...formats]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists.map((l) => l.name)).toEqual([name, 'After it']);
    const [cjk, after] = summary.lists;
    expect(cjk!.files.map((f) => path.extname(f))).toEqual(['.geojson', '.kml', '.csv']);
    expect(after!.files).toHaveLength(2);
    expect(summary.totals.total).toBe(6);
    const written = await readdir(out);
    expect(written).toHaveLength(5);
    for (const file of written) expect(bytes(file)).toBeLessThanOrEqual(255);
    const stem = path.basename(cjk!.files[1]!, '.kml');
    expect(name.startsWith(stem)).toBe(true);
    expect(path.basename(cjk!.files[2]!)).toBe(`${stem} - failed-places.csv`);
    expect(await readKmlFile(cjk!.files[1]!)).toHaveLength(cjk!.converted);

    const text = await offline(['convert', zip, '--out', path.join(dir, 'cjk-text')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`✓ ${name}: `);
    expect(text.stdout).toContain('✓ After it: 2 of 2 places placed');
    expect(text.stdout).toContain('Files are in ');
  });

  it('writes a list named CON (or nul, com1) under a name Windows takes', async () => {
    const zip = await zipOf(
      'devices.zip',
      generateTakeout({
        seed: 5,
        coordinatesInUrls: true,
        includeNonPlaceLists: false,
        lists: [
          { name: 'CON', places: 2 },
          { name: 'nul', places: 1 },
          { name: 'com1.old', places: 1 },
        ],
      }),
    );
    const out = path.join(dir, 'devices');
    const result = await offline(['convert', zip, '--out', out, '--json']);
    expect(result.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['CON_.kml', 'com1_.old.kml', 'nul_.kml']);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists.map((l) => [l.name, path.basename(l.files[0]!)])).toEqual([
      ['CON', 'CON_.kml'],
      ['nul', 'nul_.kml'],
      ['com1.old', 'com1_.old.kml'],
    ]);
  });

  it('never writes over the list being converted, even with --force (exit 2)', async () => {
    const folder = path.join(dir, 'own-folder');
    await mkdir(folder, { recursive: true });
    const list = path.join(folder, 'Food.csv');
    const text =
      'Title,Note,URL\nA,,https://www.google.com/maps/place/A/data=!4m2!3m1!8m2!3d38.7!4d-9.1\n';
    await writeFile(list, text);
    for (const force of [[], ['--force']]) {
      const result = await offline(['convert', list, '--out', folder, '--format', 'csv', ...force]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `placeport: ${list} is the file being converted, and this run would write over it: give another --out folder.`,
      );
    }
    expect(await readFile(list, 'utf8')).toBe(text);
    expect(await readdir(folder)).toEqual(['Food.csv']);
    // Another format beside it is fine.
    expect((await offline(['convert', list, '--out', folder])).code).toBe(0);
    expect((await readdir(folder)).sort()).toEqual(['Food.csv', 'Food.kml']);
  });

  it('reports a list whose file cannot be written, with the reason, and writes the others (exit 1)', async () => {
    const out = path.join(dir, 'blocked');
    await mkdir(path.join(out, 'Food.kml'), { recursive: true });
    await writeFile(path.join(out, 'Food.kml', 'inside.txt'), 'kept');

    // Without --force a folder in the way is a file that is already there: nothing is written.
    const refused = await offline(['convert', pins, '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('  Food.kml (a folder: never replaced)\n');
    expect((await readdir(out)).sort()).toEqual(['Food.kml']);

    const json = await offline(['convert', pins, '--out', out, '--force', '--json']);
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.stdout) as CliSummary;
    const [food, parks] = summary.lists;
    expect(food).toMatchObject({
      name: 'Food',
      converted: 3,
      files: [],
      notWritten: [
        { file: path.join(out, 'Food.kml'), reason: 'a folder of that name is in the way' },
      ],
    });
    expect(parks).toMatchObject({ name: 'Parks', files: [path.join(out, 'Parks.kml')] });
    expect(parks).not.toHaveProperty('notWritten');
    expect(await readKmlFile(path.join(out, 'Parks.kml'))).toHaveLength(2);
    expect(await readFile(path.join(out, 'Food.kml', 'inside.txt'), 'utf8')).toBe('kept');
    expect(json.stderr).toContain(
      `placeport: Food: ${path.join(out, 'Food.kml')} could not be written: a folder of that name is in the way`,
    );

    const text = await offline(['convert', pins, '--out', out, '--force']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('✗ Food: 3 of 3 places placed');
    expect(text.stdout).toContain('  1 file could not be written:');
    expect(text.stdout).toContain('✓ Parks: 2 of 2 places placed');
    expect(text.stdout).toContain('1 list could not be written in full');
  });

  it('refuses an archive of more than 200,000 places (its lists together) with the cap in the message, before writing anything; --list converts some of its lists', async () => {
    const pin = 'https://www.google.com/maps/search/38.7,-9.1';
    const rows = (count: number) => `Title,URL\n${`P,${pin}\n`.repeat(count)}`;
    const zip = path.join(dir, 'huge.zip');
    await writeFile(
      zip,
      zipSync({
        'Takeout/Saved/A.csv': strToU8(rows(100_000)),
        'Takeout/Saved/B.csv': strToU8(rows(100_000)),
        'Takeout/Saved/Lisbon.csv': strToU8(
          'Title,URL\nPantheon,"https://www.google.com/maps/place/Pantheon/@41.8986,12.4769,17z/data=!3d41.8986108!4d12.4768729"\n',
        ),
      }),
    );
    const out = path.join(dir, 'huge');
    const message =
      'This archive holds more than 200,000 places, the most placeport converts at once. Convert some of its 3 lists at a time with --list ("A", "B", "Lisbon"), and the others in another run.';
    expect(await offline(['convert', zip, '--out', out])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `placeport: ${message}\n`,
    });
    expect(JSON.parse((await offline(['convert', zip, '--out', out, '--json'])).stdout)).toEqual({
      error: { code: 'too-many-places', message },
    });
    // Two lists chosen, still past it.
    const chosen = await offline([
      'convert',
      zip,
      '--out',
      out,
      '--list',
      'A',
      '--list',
      'B',
      '--list',
      'Lisbon',
    ]);
    expect(chosen).toMatchObject({
      code: 1,
      stderr:
        'placeport: The lists chosen hold more than 200,000 places, the most placeport converts at once. Choose fewer with --list, and convert the others in another run.\n',
    });
    await expect(readdir(out)).rejects.toThrow();
    // The lists chosen are all that is counted: 100,001 places.
    const some = await offline([
      'convert',
      zip,
      '--out',
      out,
      '--list',
      'Lisbon',
      '--list',
      'A',
      '--json',
    ]);
    expect(some.code).toBe(0);
    const summary = JSON.parse(some.stdout) as CliSummary;
    expect(summary.lists.map((list) => [list.name, list.total, list.converted])).toEqual([
      ['Lisbon', 1, 1],
      ['A', 100_000, 0],
    ]);
    expect(await readKmlFile(path.join(out, 'Lisbon.kml'))).toEqual([
      { name: 'Pantheon', lngLat: [12.4768729, 41.8986108] },
    ]);
  });

  it('retries a failed-places CSV into the first run’s folder: the first files stay, the places found go to "(retry)", the CSV keeps only what is still missing', async () => {
    const out = path.join(dir, 'retry');
    expect((await offline(['convert', mixed, '--out', out])).code).toBe(0);
    const kml = path.join(out, 'Want to go.kml');
    const csv = path.join(out, 'Want to go - failed-places.csv');
    const retryKml = path.join(out, 'Want to go (retry).kml');
    const firstKml = await readFile(kml, 'utf8');
    const firstCsv = await readFile(csv, 'utf8');
    const found = mixedPlaces.filter((p) => !p.expected && p.resolvable);
    const missing = mixedPlaces.filter((p) => !p.expected && !p.resolvable);
    expect(missing.length).toBeGreaterThan(0);

    // The README's retry line, as it is written there: no --force.
    const retry = await online(['convert', csv, '--out', out, '--no-cache', '--json']);
    expect(retry.code).toBe(0);
    const line = (JSON.parse(retry.stdout) as CliSummary).lists[0]!;
    expect([line.total, line.converted, line.skipped]).toEqual([
      found.length + missing.length,
      found.length,
      missing.length,
    ]);
    expect(line.files).toEqual([retryKml, csv]);
    expect(await readFile(kml, 'utf8')).toBe(firstKml);
    expect(await readKmlFile(retryKml)).toHaveLength(found.length);
    const still = await readFile(csv, 'utf8');
    expect(still.trim().split('\n')).toHaveLength(1 + missing.length);
    expect(still).toContain(REASON_TEXT.no_link);
    expect(still).not.toContain(REASON_TEXT.not_looked_up);

    // The same failures retried again: "(retry 2)", and nothing of the earlier runs replaced.
    await writeFile(csv, firstCsv);
    const again = await online(['convert', csv, '--out', out, '--no-cache']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(path.join(out, 'Want to go (retry 2).kml'));
    expect(await readFile(kml, 'utf8')).toBe(firstKml);
    expect(await readKmlFile(retryKml)).toHaveLength(found.length);
    expect((await readdir(out)).sort()).toEqual([
      'Want to go (retry 2).kml',
      'Want to go (retry).kml',
      'Want to go - failed-places.csv',
      'Want to go.kml',
    ]);

    // When every place of the CSV is placed, the CSV is removed, and the summary says so.
    const placeable = path.join(out, 'Placeable - failed-places.csv');
    const rows = firstCsv.split('\n').filter((row) => !row.includes(REASON_TEXT.no_link));
    await writeFile(placeable, rows.join('\n'));
    const all = await online(['convert', placeable, '--out', out, '--no-cache']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain(`removed ${placeable}: every place in it is placed now`);
    await expect(stat(placeable)).rejects.toThrow();
    expect(await readKmlFile(path.join(out, 'Placeable (retry).kml'))).toHaveLength(found.length);
  });

  it('retries into another folder without touching the CSV given, and refuses to replace a failed-places CSV there', async () => {
    const first = path.join(dir, 'retry-from');
    expect((await offline(['convert', mixed, '--out', first])).code).toBe(0);
    const csv = path.join(first, 'Want to go - failed-places.csv');
    const before = await readFile(csv, 'utf8');
    const other = path.join(dir, 'retry-to');
    await mkdir(other);
    await symlink(victim(), path.join(other, 'Want to go - failed-places.csv'));
    google.clearRequests();
    const refused = await online(['convert', csv, '--out', other, '--no-cache']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '  Want to go - failed-places.csv (a symbolic link: never followed)',
    );
    expect(google.count()).toBe(0);
    expect(await readFile(victim(), 'utf8')).toBe('precious\n');

    const forced = await online(['convert', csv, '--out', other, '--no-cache', '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(csv, 'utf8')).toBe(before);
    expect(await readFile(victim(), 'utf8')).toBe('precious\n');
    expect((await readdir(other)).sort()).toContain('Want to go (retry).kml');
    expect(
      await readlink(path.join(other, 'Want to go - failed-places.csv')).catch(() => 'a file'),
    ).toBe('a file');
  });
});
