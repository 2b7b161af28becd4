import {
  coordinatesForFtid,
  generateTakeout,
  kmlPoints,
  makeZipBomb,
  startFakeGoogle,
  type FakeGoogle,
  type GeneratedList,
} from '@placeport/testkit';
import { LIMITS, resolvedUrlFor } from '@placeport/converter';
import { placeIdsOf } from '@placeport/converter/internal';
import { REASON_TEXT } from '@placeport/contract';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { gpx as gpxToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  expectedName,
  expectedPoint,
  readKmlFile,
  run as runBin,
  startStandInApi,
  tempFolder,
} from './support.js';
import { checkCsvSize } from '../src/main.js';
import type { CliSummary } from '../src/summary.js';

/** The free tier of the PlacePort API: more links than this in one request answer 402. */
const FREE_LINKS_PER_REQUEST = 4;

describe('placeport CLI', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let archive: string;
  let google: FakeGoogle;
  let server: Server;
  let api: string;
  /** Links of every request the stand-in API received, and whether it refuses everything (402). */
  const requests: string[][] = [];
  let refuseAll = false;
  const takeout = generateTakeout({ seed: 42 });
  const placeLists = takeout.lists.filter((l) => l.isPlaceList);
  const run = (args: string[]) => runBin(args, { google: google.url, cacheHome: dir });

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('cli'));
    archive = path.join(dir, 'takeout-export.zip');
    await writeFile(archive, takeout.zip);
    google = await startFakeGoogle();
    // A stand-in for the PlacePort API's resolve endpoint, with its free tier's per-request limit:
    // answers from the testkit's coordinates for each place id.
    ({ url: api, server } = await startStandInApi(({ path: where, urls }) => {
      requests.push(urls);
      const json = (status: number, value: unknown) => ({
        status,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(value),
      });
      if (where !== '/api/resolve-urls-batch') return json(404, {});
      if (refuseAll || urls.length > FREE_LINKS_PER_REQUEST) {
        return json(402, {
          error: { code: 'free_limit', message: 'The free lookups for today are used up.' },
        });
      }
      const results: Record<string, string> = {};
      for (const url of urls) {
        const ids = placeIdsOf(url);
        const place = placeLists.flatMap((l) => l.places).find((p) => p.url === url);
        if (ids && ids !== 'conflict' && ids.ftid)
          results[url] = resolvedUrlFor(coordinatesForFtid(ids.ftid), ids.placeId);
        else if (place?.resolvable) results[url] = resolvedUrlFor(place.resolvable);
      }
      return json(200, { results, failures: {} });
    }));
  });

  afterAll(async () => {
    server.close();
    await google.close();
    await remove();
  });

  beforeEach(() => {
    requests.length = 0;
    refuseAll = false;
    google.clearRequests();
  });

  it('prints help and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('placeport convert <archive.zip | archive.tgz> --out <dir>');
    expect(result.stdout).toContain("Takeout's file type may be .zip (its default) or .tgz");
    expect(result.stdout).toContain(
      'and an export already unzipped (give its folder, e.g.\nTakeout, or just its Saved Places.json)',
    );
    expect(result.stdout).toContain('a .zip part of any size is read, only its lists');
    for (const option of [
      '--google-maps-api-key',
      '--offline',
      '--api',
      '--cache-file',
      '--no-cache',
      '--json',
      '--force',
      '--version',
    ]) {
      expect(result.stdout).toContain(option);
    }
    // Where this machine's cache file is: under XDG_CACHE_HOME, which the test set.
    expect(result.stdout).toContain(path.join(dir, 'placeport', 'places-v1.json'));
    expect(result.stdout).toMatch(/Exit codes:/);
    // The guide brings both sources: the lists and the starred places.
    expect(result.stdout).toContain(
      'select "Saved" (your saved\nlists) and "Maps (your places)" (your starred places)',
    );
    expect(result.stdout).toMatch(/^ {2}3 {4}Google .*could not be reached/m);
    expect(result.stdout).toMatch(/^ {2}130 {2}interrupted by Ctrl-C/m);
    expect(result.stdout).not.toMatch(/PLACEPORT_/);
  });

  it('prints its version with --version and exits 0', async () => {
    const { version } = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('names an unknown option, or one missing its value, in a sentence pointing to --help', async () => {
    const out = path.join(dir, 'usage-words');
    const cases: Array<[string[], string]> = [
      [['--bogus'], '--bogus is not an option of placeport'],
      [['-x'], '-x is not an option of placeport'],
      [['--out'], '--out needs a value'],
      [['--json=yes'], '--json takes no value'],
      // What the arguments hold reaches the terminal as \xHH, never as a control character.
      [
        ['--format', '\u001b[2J'],
        '--format must be one of kml, kmz, gpx, geojson, csv (got "\\x1B[2J")',
      ],
    ];
    for (const [extra, sentence] of cases) {
      const result = await run(['convert', archive, '--out', out, ...extra]);
      expect({ extra, code: result.code, stderr: result.stderr }).toEqual({
        extra,
        code: 2,
        stderr: `placeport: ${sentence}\nRun "placeport --help" for the options.\n`,
      });
    }
    await expect(readdir(out)).rejects.toThrow();
  });

  it('with --json, prints every refusal of the command line as {"error":{"code":"usage","message"}} on stdout', async () => {
    const out = path.join(dir, 'usage-json');
    const cases: Array<[string[], string]> = [
      [
        ['convert', archive, '--out', out, '--format', 'pdf', '--json'],
        '--format must be one of kml, kmz, gpx, geojson, csv (got "pdf")',
      ],
      [
        ['convert', archive, '--out', out, '--json', '--bogus'],
        '--bogus is not an option of placeport',
      ],
      [['convert', archive, '--json', '--out'], '--out needs a value'],
      [
        ['--json'],
        'expected "convert <archive.zip | archive.tgz | failed-places.csv> --out <dir>"',
      ],
      [
        ['convert', archive, '--out', out, '--offline', '--api', api, '--json'],
        '--offline and --api cannot be used together: choose one',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({
        args,
        code: 2,
        stdout: `${JSON.stringify({ error: { code: 'usage', message } })}\n`,
      });
    }
    const badOrigin = await runBin(['convert', archive, '--out', out, '--json'], {
      google: 'not-an-origin',
      cacheHome: dir,
    });
    expect(badOrigin.code).toBe(2);
    expect(JSON.parse(badOrigin.stdout)).toEqual({
      error: {
        code: 'usage',
        message: 'PLACEPORT_MAPS_ORIGIN must be an http(s) origin, e.g. http://127.0.0.1:4010',
      },
    });
    await expect(readdir(out)).rejects.toThrow();
  });

  it('exits 2 on wrong usage, before reading or fetching anything', async () => {
    const out = path.join(dir, 'usage');
    const usage = [
      [],
      ['convert', archive],
      ['convert', archive, '--out', out, '--bogus'],
      ['convert', archive, '--out', out, '--api', 'ftp://x'],
      ['convert', archive, '--out', out, '--offline', '--api', api],
      ['convert', archive, '--out', out, '--offline', '--google-maps-api-key', 'abcdefghijk'],
      ['convert', archive, '--out', out, '--google-maps-api-key', 'not a key'],
      ['convert', archive, '--out', out, '--no-cache', '--cache-file', path.join(dir, 'c.json')],
      ['export', archive, '--out', out],
    ];
    for (const args of usage) {
      const result = await run(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stdout).toBe('');
    }
    const both = await run(['convert', archive, '--out', out, '--offline', '--api', api]);
    expect(both.stderr).toContain('--offline and --api cannot be used together');
    const badOrigin = await runBin(['convert', archive, '--out', out], {
      google: 'not-an-origin',
      cacheHome: dir,
    });
    expect(badOrigin.code).toBe(2);
    expect(badOrigin.stderr).toContain('PLACEPORT_MAPS_ORIGIN must be an http(s) origin');
    expect(requests).toEqual([]);
    expect(google.count()).toBe(0);
    await expect(readdir(out)).rejects.toThrow();
  });

  it('exits 1 with a clear message for a file that is neither a ZIP nor a CSV, a missing file, a zip without lists and a zip bomb', async () => {
    const kml = path.join(dir, 'places.kml');
    await writeFile(kml, '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"/>');
    const notZip = await run(['convert', kml, '--out', dir]);
    expect(notZip).toMatchObject({
      code: 1,
      stderr:
        'placeport: Give a ZIP (or .tgz) file from Google Takeout with your saved places, or a failed-places CSV to retry.\n',
    });
    // A mistyped folder (no extension to judge by) is not found, not of the wrong kind.
    const typo = path.join(dir, 'Takout');
    expect(await run(['convert', typo, '--out', dir])).toMatchObject({
      code: 1,
      stderr: `placeport: File not found: ${typo}\n`,
    });
    const missingCsv = await run(['convert', path.join(dir, 'places.csv'), '--out', dir]);
    expect(missingCsv.code).toBe(1);
    expect(missingCsv.stderr).toContain('File not found');
    for (const name of ['missing.zip', 'missing.tgz']) {
      const missing = await run(['convert', path.join(dir, name), '--out', dir]);
      expect(missing).toMatchObject({
        code: 1,
        stderr: `placeport: File not found: ${path.join(dir, name)}\n`,
      });
    }
    // A pipe would never end opening, a device never end reading: refused before either.
    const fifo = path.join(dir, 'pipe.tgz');
    execFileSync('mkfifo', [fifo]);
    const zero = path.join(dir, 'zero.zip');
    await symlink('/dev/zero', zero);
    for (const input of [fifo, zero]) {
      expect(await run(['convert', input, '--out', path.join(dir, 'never')])).toMatchObject({
        code: 1,
        stderr: `placeport: ${input} is not a file but a device, a pipe or a socket. Give a ZIP (or .tgz) file from Google Takeout with your saved places, or a failed-places CSV to retry.\n`,
      });
    }
    await expect(readdir(path.join(dir, 'never'))).rejects.toThrow();
    const empty = path.join(dir, 'empty.zip');
    await writeFile(
      empty,
      generateTakeout({ seed: 1, lists: [], includeNonPlaceLists: false }).zip,
    );
    expect(await run(['convert', empty, '--out', dir, '--json'])).toMatchObject({
      code: 1,
      stdout: `${JSON.stringify({ error: { code: 'no-csv', message: 'No CSV files found in the zip file.' } })}\n`,
    });
    const bomb = path.join(dir, 'bomb.zip');
    await writeFile(bomb, makeZipBomb(300 * 1024 * 1024));
    const refused = await run(['convert', bomb, '--out', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/more than 256 MB once unpacked/);
  });

  it('reads a folder given as the input as an unzipped export, and says when it holds no list (exit 1)', async () => {
    for (const name of ['folder.zip', 'Takeout']) {
      const folder = path.join(dir, name);
      await mkdir(folder);
      expect(await run(['convert', folder, '--out', path.join(dir, 'from-folder')])).toMatchObject({
        code: 1,
        stderr: `placeport: ${folder} holds no saved place lists. Give the folder of an unzipped Google Takeout export (the one holding "Takeout"), or the ZIP file you downloaded.\n`,
      });
    }
    await expect(readdir(path.join(dir, 'from-folder'))).rejects.toThrow();
  });

  it('reads the starred places given on their own (Saved Places.json, or under another name), and refuses another JSON', async () => {
    const takeout = generateTakeout({
      seed: 5,
      lists: [],
      savedPlacesJson: { format: 'new', places: 6 },
      includeNonPlaceLists: false,
    });
    const starred = unzipSync(takeout.zip)['Takeout/Maps (your places)/Saved Places.json']!;
    const out = path.join(dir, 'starred-alone');
    for (const name of ['Saved Places.json', 'Opgeslagen plaatsen.json']) {
      const file = path.join(dir, name);
      await writeFile(file, starred);
      const result = await run(['convert', file, '--out', out, '--offline', '--json']);
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout) as CliSummary;
      const places = takeout.savedPlaces!.places;
      expect(summary.lists).toMatchObject([
        { name: name.replace(/\.json$/, ''), total: places.length },
      ]);
      const placed = places.filter((place) => place.expected);
      expect(await readKmlFile(path.join(out, name.replace(/\.json$/, '.kml')))).toEqual(
        placed.map((place) => ({
          name: expectedName(place.title ?? ''),
          lngLat: [place.expected!.lng, place.expected!.lat],
        })),
      );
    }
    const other = path.join(dir, 'package.json');
    await writeFile(other, '{"name":"not places"}');
    expect(await run(['convert', other, '--out', out])).toMatchObject({
      code: 1,
      stderr:
        'placeport: package.json is not the starred places of Google Takeout ("Saved Places.json", in "Maps (your places)"). Give a ZIP (or .tgz) file from Google Takeout with your saved places, or a failed-places CSV to retry.\n',
    });
  });

  it('refuses a CSV past the converter’s limit for lists before reading it, and takes one at the limit', async () => {
    // Sparse: past the limit, no disk used, never read.
    const huge = path.join(dir, 'Everything.csv');
    await writeFile(huge, '');
    await truncate(huge, LIMITS.maxCsvBytes + 1);
    const refused = await run(['convert', huge, '--out', path.join(dir, 'huge'), '--json']);
    const message =
      'Everything.csv is larger than 256 MB, far more than a list of saved places holds. Give the ZIP file from Google Takeout (export only "Saved" and "Maps (your places)"), or a failed-places CSV to retry.';
    expect(refused).toMatchObject({
      code: 1,
      stdout: `${JSON.stringify({ error: { code: 'archive-too-large', message } })}\n`,
      stderr: `placeport: ${message}\n`,
    });
    await expect(readdir(path.join(dir, 'huge'))).rejects.toThrow();
    // The bound itself, with a limit of its own (a file of 256 MB would be read whole).
    const limit = { maxCsvBytes: 2 * 1024 * 1024 };
    expect(() => checkCsvSize(limit.maxCsvBytes, 'at.csv', limit)).not.toThrow();
    expect(() => checkCsvSize(limit.maxCsvBytes + 1, 'past.csv', limit)).toThrow(
      'past.csv is larger than 2 MB',
    );
  });

  it('reads a ZIP past 512 MB from its end, and refuses one past 64 GB before reading it', async () => {
    // Sparse: 3 GB of zeros, no disk used; Node could not even read it into one buffer. Its end
    // is read (zip-file.test.ts converts a real part): no directory there, and no ZIP's start.
    const huge = path.join(dir, 'takeout-20261126-001.zip');
    await writeFile(huge, '');
    await truncate(huge, 3 * 1024 ** 3);
    expect(await run(['convert', huge, '--out', dir])).toMatchObject({
      code: 1,
      stderr:
        'placeport: This file is not a ZIP archive. Choose the ZIP file you downloaded from Google Takeout (its name starts with "takeout-").\n',
    });
    await truncate(huge, 64 * 1024 ** 3 + 1);
    expect(await run(['convert', huge, '--out', dir])).toMatchObject({
      code: 1,
      stderr:
        'placeport: This ZIP file is larger than 64 GB, more than a Google Takeout part holds. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.\n',
    });
  });

  it("exits 1 with product.md's messages for an archive of image and page lists only and for a download cut short", async () => {
    const imagesOnly = path.join(dir, 'images-only.zip');
    await writeFile(imagesOnly, generateTakeout({ seed: 2, lists: [] }).zip);
    expect(await run(['convert', imagesOnly, '--out', dir, '--json'])).toMatchObject({
      code: 1,
      stdout: `${JSON.stringify({ error: { code: 'no-place-lists', message: 'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).' } })}\n`,
    });
    const cut = path.join(dir, 'cut-short.zip');
    await writeFile(cut, takeout.zip.subarray(0, Math.floor(takeout.zip.length / 2)));
    expect(await run(['convert', cut, '--out', dir])).toMatchObject({
      code: 1,
      stderr:
        'placeport: This file is not a complete ZIP archive. Download it again from Google Takeout.\n',
    });
  });

  it('--offline: no request at all, KML a real reader parses (longitude first), the rest not_looked_up', async () => {
    const out = path.join(dir, 'offline');
    const result = await run(['convert', archive, '--out', out, '--offline', '--json']);
    expect(result.code).toBe(0);
    expect(google.count()).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lookups).toMatchObject({ mode: 'offline', links: 0 });
    expect(summary.cache).toBeNull();
    expect(summary.lists.map((l) => l.name)).toEqual(placeLists.map((l) => l.name));
    for (const [i, list] of placeLists.entries()) {
      const line = summary.lists[i]!;
      const offline = list.places.filter((p) => p.expected);
      const noLink = list.places.filter((p) => p.kind === 'no-link').length;
      // Takeout's own "no location" (a search for 0,0) needs no lookup to be known as not found.
      const zero = list.places.filter((p) => p.kind === 'zero').length;
      expect([line.total, line.converted, line.skipped]).toEqual([
        list.places.length,
        offline.length,
        list.places.length - offline.length,
      ]);
      expect(line.unplaced).toEqual({
        not_looked_up: list.places.length - offline.length - noLink - zero,
        ...(noLink ? { no_link: noLink } : {}),
        ...(zero ? { not_found: zero } : {}),
      });
      const kmlFile = line.files.find((f) => f.endsWith('.kml'))!;
      expect(await readKmlFile(kmlFile)).toEqual(
        offline.map((p) => ({
          name: expectedName(p.title),
          lngLat: [p.expected!.lng, p.expected!.lat],
        })),
      );
      const failed = line.files.find((f) => f.endsWith('failed-places.csv'))!;
      const csv = await readFile(failed, 'utf8');
      // The seed's columns, and the list's Tags where it had them, then the reason.
      const header =
        list.header === 'tags'
          ? 'Title,Note,URL,Tags,Comment,Reason'
          : 'Title,Note,URL,Comment,Reason';
      expect(csv.startsWith(`\uFEFF${header}\r\n`)).toBe(true);
      expect(csv).toContain(REASON_TEXT.not_looked_up);
    }
    expect((await readdir(out)).sort()).toEqual(
      summary.lists.flatMap((l) => l.files.map((f) => path.basename(f))).sort(),
    );
    // No cache folder is made when nothing is looked up.
    await expect(readdir(path.join(dir, 'placeport'))).rejects.toThrow();

    // The same folder again: the first run's files are replaced only with --force.
    const text = await run(['convert', archive, '--out', out, '--offline', '--force']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(REASON_TEXT.not_looked_up);
    expect(text.stdout).toContain(
      'Lookups were off (--offline): give the failed-places CSVs back to placeport convert without --offline to look those places up (a retry needs no --force).',
    );
  });

  it('--format, repeated: every list in each format, each read back by its own reader', async () => {
    const out = path.join(dir, 'formats');
    const args = ['convert', archive, '--out', out, '--offline', '--json'];
    for (const format of ['gpx', 'kml', 'geojson', 'csv', 'kmz', 'gpx'])
      args.push('--format', format);
    const result = await run(args);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    for (const [i, list] of placeLists.entries()) {
      const files = summary.lists[i]!.files;
      const want = list.places.flatMap((p) => {
        const point = expectedPoint({ ...p, resolvable: undefined });
        return point ? [point] : [];
      });
      // The repeated format is written once; formats in the order given, then the failed places.
      expect(files.map((f) => path.extname(f))).toEqual([
        '.gpx',
        '.kml',
        '.geojson',
        '.csv',
        '.kmz',
        '.csv',
      ]);
      const gpx = gpxToGeoJson(
        new DOMParser().parseFromString(await readFile(files[0]!, 'utf8'), 'text/xml') as never,
      ).features as Array<{ properties: Record<string, unknown> | null; geometry: unknown }>;
      expect(
        gpx.map((f) => ({
          name: f.properties?.name,
          lngLat: (f.geometry as { coordinates: number[] }).coordinates.slice(0, 2),
        })),
      ).toEqual(want);
      expect(await readKmlFile(files[1]!)).toEqual(want);
      const geojson = JSON.parse(await readFile(files[2]!, 'utf8')) as {
        type: string;
        features: Array<{ properties: { name: string }; geometry: { coordinates: number[] } }>;
      };
      expect(geojson.type).toBe('FeatureCollection');
      expect(
        geojson.features.map((f) => ({ name: f.properties.name, lngLat: f.geometry.coordinates })),
      ).toEqual(want);
      const csv = await readFile(files[3]!, 'utf8');
      expect(csv.startsWith('\uFEFFName,Latitude,Longitude,Note,Comment,Tags,URL\r\n')).toBe(true);
      const kmz = unzipSync(new Uint8Array(await readFile(files[4]!)));
      expect(Object.keys(kmz)).toEqual(['doc.kml']);
      expect(kmlPoints(strFromU8(kmz['doc.kml']!))).toEqual(want);
    }
    const refused = await run(['convert', archive, '--out', out, '--format', 'shp']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--format must be one of kml, kmz, gpx, geojson, csv (got "shp")',
    );
  });

  /** Text whose characters are all below U+0100, saved one byte each, as Excel saves Windows-1252. */
  const writeWindows1252 = (file: string, text: string) =>
    writeFile(
      file,
      Uint8Array.from(text, (c) => c.charCodeAt(0)),
    );

  it('reads a failed-places CSV saved again by Excel in Windows-1252, and says so', async () => {
    const csv = path.join(dir, 'Cafés - failed-places.csv');
    const text =
      'Title,Note,URL,Comment,Reason\r\n' +
      'Caf\u00e9 Gr\u00f6\u00dfe,\u0093Fr\u00fch\u0094 \u00805,"https://www.google.com/maps/search/48.85837,2.294481",,x\r\n';
    await writeWindows1252(csv, text);
    const out = path.join(dir, 'cp1252');
    const result = await run(['convert', csv, '--out', out, '--offline']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'placeport: Cafés - failed-places.csv is not UTF-8; it was read as Windows-1252, as Excel saves a CSV.',
    );
    const kml = await readFile(path.join(out, 'Cafés (retry).kml'), 'utf8');
    expect(kml).toContain('<name>Café Größe</name>');
    expect(kml).toContain('“Früh” €5');
  });

  it('shows control characters in the name of a Windows-1252 CSV as \\xHH in its notice', async () => {
    const csv = path.join(dir, '\u001b]0;owned\u0007\u001b[31mCafés.csv');
    const text =
      'Title,Note,URL,Comment\r\n' +
      'Caf\u00e9,,"https://www.google.com/maps/search/48.85837,2.294481",\r\n';
    await writeWindows1252(csv, text);
    const result = await run(['convert', csv, '--out', path.join(dir, 'cp1252-name'), '--offline']);
    expect(result.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(result.stderr).toContain(
      'placeport: \\x1B]0;owned\\x07\\x1B[31mCafés.csv is not UTF-8; it was read as Windows-1252',
    );
  });

  it('takes a failed-places CSV back and looks up just those places, writing files named after the list, as a retry', async () => {
    const first = path.join(dir, 'retry-first');
    const offline = JSON.parse(
      (
        await run([
          'convert',
          archive,
          '--out',
          first,
          '--offline',
          '--json',
          '--list',
          'Want to go',
        ])
      ).stdout,
    ) as CliSummary;
    const failedCsv = offline.lists[0]!.files.find((f) => f.endsWith(' - failed-places.csv'))!;
    expect(path.basename(failedCsv)).toBe('Want to go - failed-places.csv');
    const list = placeLists.find((l) => l.name === 'Want to go')!;
    const retryable = list.places.filter((p) => !p.expected && p.resolvable);

    const second = path.join(dir, 'retry-second');
    const result = await run(['convert', failedCsv, '--out', second, '--no-cache', '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists).toHaveLength(1);
    const line = summary.lists[0]!;
    // The list is named as a retry on the page names it, not after the CSV's file name.
    expect(line.name).toBe('Want to go (failed places)');
    expect([line.total, line.converted]).toEqual([
      list.places.filter((p) => !p.expected).length,
      retryable.length,
    ]);
    expect(line.files.map((f) => path.basename(f))).toEqual([
      'Want to go (retry).kml',
      ...(line.skipped > 0 ? ['Want to go - failed-places.csv'] : []),
    ]);
    // Titles come back without the spreadsheet guard the failed-places CSV gave them.
    expect(await readKmlFile(line.files[0]!)).toEqual(retryable.map((p) => expectedPoint(p)));
  });

  it('--api: looks links up through the API, at most 4 per request, once per distinct place, placed where the API says', async () => {
    const out = path.join(dir, 'online');
    const chosen: GeneratedList = placeLists[0]!;
    const result = await run([
      'convert',
      archive,
      '--out',
      out,
      '--list',
      chosen.name,
      '--api',
      api,
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(google.count()).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    const [line] = summary.lists;
    expect(requests.length).toBeGreaterThan(1);
    expect(Math.max(...requests.map((urls) => urls.length))).toBeLessThanOrEqual(
      FREE_LINKS_PER_REQUEST,
    );
    const asked = requests.flat();
    expect(new Set(asked).size).toBe(asked.length);
    expect(summary.lookups).toMatchObject({
      mode: 'api',
      api,
      links: asked.length,
      apiRequests: requests.length,
    });
    expect(summary.lookups.refused).toBeUndefined();
    const placed = chosen.places.filter((p) => p.expected ?? p.resolvable);
    expect(line?.converted).toBe(placed.length);
    expect(line?.resolved).toBeGreaterThan(0);
    expect(summary.cache).toBeNull();
    expect(await readKmlFile(line!.files[0]!)).toEqual(placed.map((p) => expectedPoint(p)));
  });

  it('--api: when the API refuses (402), the places get `limit` and the summary says so and suggests local lookups', async () => {
    refuseAll = true;
    const chosen = placeLists[0]!;
    const args = ['convert', archive, '--out', path.join(dir, 'refused'), '--list', chosen.name];
    const result = await run([...args, '--api', api, '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    // The API's own words, not its JSON; and nothing more was sent once it refused.
    expect(summary.lookups.refused).toEqual({
      status: 402,
      message: 'The free lookups for today are used up.',
    });
    expect(requests.length).toBeLessThanOrEqual(2);
    expect(summary.lookups.links).toBe(0);
    const needLookup = chosen.places.filter(
      (p) => !p.expected && p.kind !== 'no-link' && p.kind !== 'zero',
    ).length;
    expect(summary.lists[0]!.unplaced.limit).toBe(needLookup);
    expect(summary.lists[0]!.converted).toBe(chosen.places.filter((p) => p.expected).length);

    const text = await run([...args, '--api', api, '--force']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'The PlacePort API refused the lookups (402: The free lookups for today are used up.).',
    );
    expect(text.stdout).not.toContain('Looked up');
    expect(text.stdout).toContain(
      'To look them up from your own computer instead, give those CSVs back to placeport convert without --api (a retry needs no --force), or run the same command without --api and with --force.',
    );
    expect(text.stdout).toContain(REASON_TEXT.limit);
  });

  it('keeps same-named lists from different folders apart in the output folder', async () => {
    const twins = generateTakeout({
      seed: 5,
      coordinatesInUrls: true,
      includeNonPlaceLists: false,
      lists: [
        { name: 'Food', places: 3 },
        { name: 'Food', places: 2, folder: 'Takeout 2/Saved' },
      ],
    });
    const twinsZip = path.join(dir, 'twins.zip');
    await writeFile(twinsZip, twins.zip);
    const out = path.join(dir, 'twins');
    const result = await run(['convert', twinsZip, '--out', out, '--json']);
    expect(result.code).toBe(0);
    expect(google.count()).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['Food (Takeout 2).kml', 'Food.kml']);
    // Nothing was looked up, so no cache file was written.
    expect(JSON.parse(result.stdout)).toMatchObject({ cache: { loaded: 0, saved: null } });
    await expect(readdir(path.join(dir, 'placeport'))).rejects.toThrow();
    expect(await readKmlFile(path.join(out, 'Food (Takeout 2).kml'))).toHaveLength(2);
  });

  it("pairs each same-named list's KML and failed-places CSV, and refuses an ambiguous --list (exit 2) with the candidates' paths", async () => {
    const twins = generateTakeout({
      seed: 6,
      includeNonPlaceLists: false,
      lists: [
        { name: 'Food', places: 4, kinds: { pin: 1, ftid: 1 } },
        { name: 'Food', places: 3, kinds: { pin: 1, ftid: 1 }, folder: 'Takeout 2/Saved' },
      ],
    });
    // Each list has places with and without coordinates in their links: both kinds of file.
    for (const list of twins.lists) {
      expect(list.places.some((p) => p.expected)).toBe(true);
      expect(list.places.some((p) => !p.expected)).toBe(true);
    }
    const twinsZip = path.join(dir, 'twins-failed.zip');
    await writeFile(twinsZip, twins.zip);
    const out = path.join(dir, 'twins-failed');
    const all = await run(['convert', twinsZip, '--out', out, '--offline', '--json']);
    expect(all.code).toBe(0);
    const summary = JSON.parse(all.stdout) as CliSummary;
    expect(summary.lists.map((l) => [l.path, l.files.map((f) => path.basename(f))])).toEqual([
      ['Takeout/Saved/Food.csv', ['Food.kml', 'Food - failed-places.csv']],
      [
        'Takeout 2/Saved/Food.csv',
        ['Food (Takeout 2).kml', 'Food (Takeout 2) - failed-places.csv'],
      ],
    ]);
    expect(await readKmlFile(path.join(out, 'Food (Takeout 2).kml'))).toHaveLength(
      twins.lists[1]!.places.filter((p) => p.expected).length,
    );

    const ambiguousOut = path.join(dir, 'twins-ambiguous');
    const ambiguous = await run(['convert', twinsZip, '--out', ambiguousOut, '--list', 'Food']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toContain('--list "Food" names 2 lists in this archive');
    expect(ambiguous.stderr).toContain('  Takeout/Saved/Food.csv\n');
    expect(ambiguous.stderr).toContain('  Takeout 2/Saved/Food.csv\n');
    await expect(readdir(ambiguousOut)).rejects.toThrow();
    const ambiguousJson = await run([
      'convert',
      twinsZip,
      '--out',
      ambiguousOut,
      '--list',
      'Food',
      '--json',
    ]);
    expect(ambiguousJson.code).toBe(2);
    expect(JSON.parse(ambiguousJson.stdout)).toEqual({
      error: {
        code: 'usage',
        message:
          '--list "Food" names 2 lists in this archive; give its path instead:\n  Takeout/Saved/Food.csv\n  Takeout 2/Saved/Food.csv',
      },
    });

    // A path selects exactly one, and its files keep the name they get beside its twin.
    const exactOut = path.join(dir, 'twins-exact');
    const exact = await run([
      'convert',
      twinsZip,
      '--out',
      exactOut,
      '--offline',
      '--list',
      'Takeout 2/Saved/Food.csv',
    ]);
    expect(exact.code).toBe(0);
    expect((await readdir(exactOut)).sort()).toEqual([
      'Food (Takeout 2) - failed-places.csv',
      'Food (Takeout 2).kml',
    ]);
  });

  it('converts a list chosen twice (by its name and by its path) once', async () => {
    const chosen = placeLists.find((l) => l.name === 'Want to go')!;
    const out = path.join(dir, 'chosen-twice');
    const result = await run([
      'convert',
      archive,
      '--out',
      out,
      '--offline',
      '--json',
      '--list',
      'Want to go',
      '--list',
      chosen.path,
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists.map((l) => l.path)).toEqual([chosen.path]);
    expect(summary.totals.total).toBe(chosen.places.length);
    expect((await readdir(out)).sort()).toEqual([
      'Want to go - failed-places.csv',
      'Want to go.kml',
    ]);
  });

  it('prints a readable summary and refuses an unknown list name', async () => {
    const text = await run(['convert', archive, '--out', path.join(dir, 'text'), '--offline']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`✓ ${placeLists[0]!.name}: \\d+ of ${placeLists[0]!.places.length} places placed`),
    );
    const unknown = await run(['convert', archive, '--out', dir, '--list', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No list named "Nope"');
  });

  it('shows control characters from an archive as \\xHH, never sends them to the terminal', async () => {
    const hostile = generateTakeout({
      seed: 9,
      coordinatesInUrls: true,
      includeNonPlaceLists: false,
      lists: [{ name: 'Good', places: 2 }],
      extraEntries: {
        // Sets the window's title, clears the screen, turns what follows red.
        'Takeout/Saved/Bad.csv': new TextEncoder().encode(
          '\u001b]0;owned\u0007\u001b[2J\u001b[31mName,Where\nA,B\n',
        ),
      },
    });
    const zip = path.join(dir, 'hostile.zip');
    await writeFile(zip, hostile.zip);
    const text = await run(['convert', zip, '--out', path.join(dir, 'hostile')]);
    expect(text.code).toBe(1);
    for (const output of [text.stdout, text.stderr]) {
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(output).toContain('Found columns: \\x1B]0;owned\\x07\\x1B[2J\\x1B[31mName, Where');
    }
    // With --json the reason is the list's own text, escaped by JSON.
    const json = await run(['convert', zip, '--out', path.join(dir, 'hostile-json'), '--json']);
    const summary = JSON.parse(json.stdout) as CliSummary;
    expect(summary.lists.find((l) => l.name === 'Bad')?.skippedReason).toContain(
      '\u001b]0;owned\u0007',
    );
  });

  it('says so and exits 1 when a list of the ZIP cannot be unpacked, after converting the others', async () => {
    const notes = Array.from({ length: 400 }, (_, i) => `Place ${i},note ${i * 7},,`).join('\n');
    const takeout = generateTakeout({
      seed: 10,
      coordinatesInUrls: true,
      includeNonPlaceLists: false,
      lists: [{ name: 'Good', places: 3 }],
      extraEntries: {
        'Takeout/Saved/Damaged.csv': new TextEncoder().encode(`Title,Note,URL,Comment\n${notes}\n`),
      },
    });
    // Its compressed bytes damaged past its local header (30 bytes and its name).
    const zip = Buffer.from(takeout.zip);
    const name = Buffer.from('Takeout/Saved/Damaged.csv');
    const header = zip.indexOf(name) - 30;
    expect(zip.readUInt32LE(header)).toBe(0x04034b50);
    const data = header + 30 + name.length + zip.readUInt16LE(header + 28);
    zip.fill(0xff, data + 2, data + 40);
    const file = path.join(dir, 'damaged.zip');
    await writeFile(file, zip);
    const out = path.join(dir, 'damaged');
    const result = await run(['convert', file, '--out', out, '--json']);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists.map((l) => [l.name, l.converted])).toEqual([['Good', 3]]);
    expect(summary.unread).toEqual([
      expect.stringMatching(/^Skipped Takeout\/Saved\/Damaged\.csv: /),
    ]);
    expect(result.stderr).toContain(`placeport: warning: ${summary.unread![0]}`);
    const text = await run(['convert', file, '--out', out, '--force']);
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n')[0]).toBe(`✗ ${summary.unread![0]}`);
  });

  it('exits 1 when a list cannot be read, after converting the others', async () => {
    const broken = generateTakeout({
      seed: 9,
      coordinatesInUrls: true,
      includeNonPlaceLists: false,
      lists: [{ name: 'Good', places: 3 }],
      extraEntries: { 'Takeout/Saved/Broken.csv': new TextEncoder().encode('Name,Where\nA,B\n') },
    });
    const zip = path.join(dir, 'broken.zip');
    await writeFile(zip, broken.zip);
    const out = path.join(dir, 'broken');
    const result = await run(['convert', zip, '--out', out, '--json']);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists.find((l) => l.name === 'Good')).toMatchObject({ converted: 3 });
    const reason = 'CSV file must contain "Title" and "URL" columns. Found columns: Name, Where';
    expect(summary.lists.find((l) => l.name === 'Broken')?.skippedReason).toBe(reason);
    expect(result.stderr).toContain(`placeport: Broken: ${reason}`);
    expect(await readdir(out)).toEqual(['Good.kml']);
  });
});
