import {
  coordinatesForFtid,
  generateTakeout,
  makeZipBomb,
  type GeneratedList,
} from '@placeport/testkit';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPlaceRef } from '../src/core/place-ids.js';
import { kmlPoints } from './read-kml.js';
import { resolvedUrlFor } from '../src/core/coordinates.js';
import { UNTITLED_PLACE_NAME } from '../src/core/kml.js';
import { stripForbiddenXmlChars } from '../src/core/xml.js';

const BIN = fileURLToPath(new URL('../bin/placeport.js', import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const readKml = kmlPoints;

const expectedName = (title: string) => stripForbiddenXmlChars(title).trim() || UNTITLED_PLACE_NAME;

describe('placeport CLI', () => {
  let dir: string;
  let archive: string;
  let server: Server;
  let api: string;
  const requests: string[][] = [];
  const takeout = generateTakeout({ seed: 42 });
  const placeLists = takeout.lists.filter((l) => l.isPlaceList);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'placeport-cli-'));
    archive = path.join(dir, 'takeout-export.zip');
    await writeFile(archive, takeout.zip);
    // A stand-in for the PlacePort API's resolve endpoint: answers from the testkit's coordinates for each place id.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const { urls } = JSON.parse(body) as { urls: string[] };
        requests.push(urls);
        const results: Record<string, string> = {};
        for (const url of urls) {
          const ref = extractPlaceRef(url);
          const place = placeLists.flatMap((l) => l.places).find((p) => p.url === url);
          if (ref?.ftid) results[url] = resolvedUrlFor(coordinatesForFtid(ref.ftid), ref.placeId);
          else if (place?.resolvable) results[url] = resolvedUrlFor(place.resolvable);
        }
        res.writeHead(req.url === '/api/resolve-urls-batch' ? 200 : 404, {
          'Content-Type': 'application/json',
        });
        res.end(JSON.stringify({ results }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints help and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('placeport convert <archive.zip> --out <dir>');
  });

  it('exits 2 on wrong usage', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['convert', archive])).code).toBe(2);
    expect((await run(['convert', archive, '--out', dir, '--bogus'])).code).toBe(2);
    expect((await run(['convert', archive, '--out', dir, '--api', 'ftp://x'])).code).toBe(2);
  });

  it('exits 1 with the seed message for a non-zip, a missing file, a zip without lists and a zip bomb', async () => {
    const notZip = await run(['convert', path.join(dir, 'places.csv'), '--out', dir]);
    expect(notZip).toMatchObject({
      code: 1,
      stderr: 'placeport: Please upload a ZIP file from Google Takeout with your saved places.\n',
    });
    const missing = await run(['convert', path.join(dir, 'missing.zip'), '--out', dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('File not found');
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

  it('converts offline: KML a real reader parses with the right names and coordinates (longitude first)', async () => {
    const out = path.join(dir, 'offline');
    const result = await run(['convert', archive, '--out', out, '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      lists: Array<{
        name: string;
        path: string;
        total: number;
        converted: number;
        skipped: number;
        files: string[];
      }>;
    };
    expect(summary.lists.map((l) => l.name)).toEqual(placeLists.map((l) => l.name));
    for (const [i, list] of placeLists.entries()) {
      const line = summary.lists[i]!;
      const offline = list.places.filter((p) => p.expected);
      expect([line.total, line.converted, line.skipped]).toEqual([
        list.places.length,
        offline.length,
        list.places.length - offline.length,
      ]);
      const kmlFile = line.files.find((f) => f.endsWith('.kml'))!;
      expect(readKml(await readFile(kmlFile, 'utf8'))).toEqual(
        offline.map((p) => ({
          name: expectedName(p.title),
          lngLat: [p.expected!.lng, p.expected!.lat],
        })),
      );
      const failed = line.files.find((f) => f.endsWith('failed-places.csv'))!;
      expect((await readFile(failed, 'utf8')).startsWith('\uFEFFTitle,Note,URL,Comment')).toBe(
        true,
      );
    }
    expect((await readdir(out)).sort()).toEqual(
      summary.lists.flatMap((l) => l.files.map((f) => path.basename(f))).sort(),
    );
  });

  it('resolves links through --api, once per distinct place, and places them where the API says', async () => {
    const out = path.join(dir, 'online');
    const chosen: GeneratedList = placeLists[0]!;
    requests.length = 0;
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
    const [line] = (
      JSON.parse(result.stdout) as {
        lists: Array<{ converted: number; resolved: number; files: string[] }>;
      }
    ).lists;
    const asked = requests.flat();
    expect(new Set(asked).size).toBe(asked.length);
    const placed = chosen.places.filter((p) => p.expected ?? p.resolvable);
    expect(line?.converted).toBe(placed.length);
    expect(line?.resolved).toBeGreaterThan(0);
    const features = readKml(await readFile(line!.files[0]!, 'utf8'));
    expect(features).toEqual(
      placed.map((p) => {
        const where = (p.expected ?? p.resolvable)!;
        return { name: expectedName(p.title), lngLat: [where.lng, where.lat] };
      }),
    );
  });

  it('keeps same-named lists from different folders apart in the output folder', async () => {
    const twins = generateTakeout({
      seed: 5,
      coordinatesInUrls: true,
      includeNonPlaceLists: false,
      lists: [
        { name: 'Food', places: 3 },
        { name: 'Food', places: 2, folder: 'Takeout/Older' },
      ],
    });
    const twinsZip = path.join(dir, 'twins.zip');
    await writeFile(twinsZip, twins.zip);
    const out = path.join(dir, 'twins');
    const result = await run(['convert', twinsZip, '--out', out, '--json']);
    expect(result.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['Food (2).kml', 'Food.kml']);
    expect(readKml(await readFile(path.join(out, 'Food (2).kml'), 'utf8'))).toHaveLength(2);
  });

  it('prints a readable summary and refuses an unknown list name', async () => {
    const text = await run(['convert', archive, '--out', path.join(dir, 'text')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        `✓ ${placeLists[0]!.name}: \\d+ of ${placeLists[0]!.places.length} places converted`,
      ),
    );
    const unknown = await run(['convert', archive, '--out', dir, '--list', 'Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No list named "Nope"');
  });
});
