/**
 * Runs that cannot look everything up, end to end with the built `placeport`: Google out of reach
 * (a refused port, a name DNS cannot find), a run interrupted by Ctrl-C in the middle of its
 * lookups and the run after it, archives with empty lists, and a retry that keeps the places' tags.
 * Every assertion is on what the run did and said, never on how long it took.
 */
import {
  ftidForCid,
  generateTakeout,
  startFakeGoogle,
  type FakeGoogle,
  type GeneratedList,
} from '@placeport/testkit';
import { REASON_TEXT } from '@placeport/contract';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectedPoint,
  progressLines,
  readKmlFile,
  run as runBin,
  start,
  tempFolder,
  until,
  type RunEnvironment,
} from './support.js';
import type { CliSummary } from '../src/summary.js';

/** A loopback port that was free a moment ago: connections to it are refused. */
async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The rows of a failed-places CSV (RFC 4180: quoted cells, `""` for a quote, CRLF), header first. */
async function csvRows(file: string): Promise<string[][]> {
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  return rows;
}

/** Places of generated lists that need a lookup (their link names a place, no coordinates). */
const needingLookup = (lists: readonly GeneratedList[]) =>
  lists.flatMap((list) => list.places.filter((p) => !p.expected && p.url));

describe('runs that cannot look everything up', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('stops'));
    google = await startFakeGoogle();
  });

  afterAll(async () => {
    await google.close();
    await remove();
  });

  /** A folder of its own for one test: the archive, the output, the cache home. */
  async function workspace(name: string, zip: Uint8Array) {
    const home = path.join(dir, name);
    await mkdir(home, { recursive: true });
    const archive = path.join(home, 'takeout.zip');
    await writeFile(archive, zip);
    return {
      archive,
      out: path.join(home, 'out'),
      where: (origin: string): RunEnvironment => ({
        google: origin,
        cacheHome: path.join(home, 'cache'),
      }),
    };
  }

  // Three lists of places named by id (no coordinates) and a few pins, and an empty list.
  const offlineTakeout = generateTakeout({
    seed: 17,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Lisbon', places: 70, kinds: { ftid: 6, pin: 1 } },
      { name: 'Porto', places: 50, kinds: { ftid: 6, pin: 1 } },
      { name: 'Test', places: 0 },
      { name: 'Faro', places: 30, kinds: { ftid: 6, pin: 1 } },
    ],
  });
  const offlineLists = offlineTakeout.lists.filter((list) => list.places.length > 0);
  const unreachablePlaces = needingLookup(offlineLists).length;

  /** What every unreachable run must show, whatever the network said. */
  async function expectStoppedEarly(summary: CliSummary, stderr: string) {
    // Every place without coordinates is in its list's failed-places CSV with the reason.
    for (const list of offlineLists) {
      const line = summary.lists.find((l) => l.name === list.name)!;
      const pins = list.places.filter((p) => p.expected);
      expect(line).toMatchObject({ total: list.places.length, converted: pins.length });
      expect(line.unplaced).toEqual({ unavailable: list.places.length - pins.length });
      const kml = line.files.find((f) => f.endsWith('.kml'))!;
      expect(await readKmlFile(kml)).toEqual(pins.map((p) => expectedPoint(p)));
      const rows = await csvRows(line.files.find((f) => f.endsWith(' - failed-places.csv'))!);
      expect(rows[0]).toEqual(['Title', 'Note', 'URL', 'Comment', 'Reason']);
      expect(rows.slice(1).map((row) => row.at(-1))).toEqual(
        list.places.filter((p) => !p.expected).map(() => REASON_TEXT.unavailable),
      );
    }
    expect(summary.lists.find((l) => l.name === 'Test')).toMatchObject({ empty: true, total: 0 });
    // It stopped sending: far fewer requests than places.
    expect(summary.lookups.upstreamRequests.pages).toBeLessThan(unreachablePlaces);
    // The total of the progress never grows, and the last line has every place answered.
    const progress = progressLines(stderr);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(new Set(progress.map((p) => p.total))).toEqual(new Set([unreachablePlaces]));
    expect(progress.at(-1)).toEqual({ done: unreachablePlaces, total: unreachablePlaces });
    // With no rate: the places answered at the end were not asked of Google.
    expect(stderr.match(/^Looking up places: .*$/gm)!.at(-1)).toBe(
      `Looking up places: ${unreachablePlaces} / ${unreachablePlaces}`,
    );
  }

  it('Google refusing every connection: the run stops looking up and says why, every place in the failed-places CSVs, exit 3', async () => {
    const ws = await workspace('refused', offlineTakeout.zip);
    const origin = await refusedOrigin();
    const text = await runBin(['convert', ws.archive, '--out', ws.out], ws.where(origin));
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(
      `Cannot reach Google (connection refused); ${unreachablePlaces} places were not looked up and are in the failed-places CSVs. Check your connection, then give those back to placeport convert to look them up (a retry needs no --force).`,
    );
    expect(text.stdout).toContain('– Test: empty (the list holds no places)');
    expect(text.stdout).not.toContain('run the same command again later');

    const json = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--json', '--force'],
      ws.where(origin),
    );
    expect(json.code).toBe(3);
    const summary = JSON.parse(json.stdout) as CliSummary;
    expect(summary.lookups.unreachable).toEqual({ cause: 'connection refused' });
    expect(json.stderr).toContain('placeport: Cannot reach Google (connection refused)');
    await expectStoppedEarly(summary, json.stderr);
  });

  it('Google’s name not found by DNS: the same, with the cause named', async () => {
    const ws = await workspace('dns', offlineTakeout.zip);
    const result = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--json'],
      ws.where('http://x.invalid'),
    );
    expect(result.code).toBe(3);
    const summary = JSON.parse(result.stdout) as CliSummary;
    // What the machine's DNS answers for a name that cannot exist: "not found", or no answer at all.
    expect(summary.lookups.unreachable?.cause).toMatch(/^DNS .*x\.invalid$|^no answer in time$/);
    expect(result.stderr).toMatch(
      new RegExp(
        `Cannot reach Google \\(.+\\); ${unreachablePlaces} places were not looked up and are in the failed-places CSVs\\. Check your connection, then give those back to placeport convert to look them up \\(a retry needs no --force\\)\\.`,
      ),
    );
    await expectStoppedEarly(summary, result.stderr);
  });

  it('Google refusing every connection with only 1 or 2 places to look up: said the same way, exit 3, no retry advice', async () => {
    // Too few requests for the resolver's breaker (it opens at the 8th failure in a row): the run
    // must still see that nothing answered at all.
    const origin = await refusedOrigin();
    const runs = [1, 2].map(async (places) => {
      const few = generateTakeout({
        seed: 23,
        quirks: false,
        includeNonPlaceLists: false,
        lists: [{ name: 'Few', places, kinds: { ftid: 1 } }],
      });
      expect(needingLookup(few.lists)).toHaveLength(places);
      const ws = await workspace(`refused-${places}`, few.zip);
      const text = await runBin(['convert', ws.archive, '--out', ws.out], ws.where(origin));
      const json = await runBin(
        ['convert', ws.archive, '--out', ws.out, '--json', '--force'],
        ws.where(origin),
      );
      return { places, text, json };
    });
    for (const { places, text, json } of await Promise.all(runs)) {
      const where =
        places === 1
          ? '1 place was not looked up and is in the failed-places CSV'
          : `${places} places were not looked up and are in the failed-places CSV`;
      expect({ places, code: text.code }).toEqual({ places, code: 3 });
      expect(text.stdout).toContain(
        `Cannot reach Google (connection refused); ${where}. Check your connection, then give those back to placeport convert to look them up (a retry needs no --force).`,
      );
      expect(text.stdout).not.toContain('Some lookups were refused');
      expect(json.code).toBe(3);
      const summary = JSON.parse(json.stdout) as CliSummary;
      expect(summary.lookups.unreachable).toEqual({ cause: 'connection refused' });
      expect(summary.totals.unplaced).toEqual({ unavailable: places });
    }
  });

  it('Ctrl-C in the middle of the lookups: every list written with what has coordinates, the rest "interrupted", the summary, exit 130; the next run resumes from the cache file', async () => {
    const takeout = generateTakeout({
      seed: 23,
      quirks: false,
      includeNonPlaceLists: false,
      lists: [
        { name: 'Quick', places: 60, kinds: { ftid: 6, pin: 1 } },
        { name: 'Slow', places: 30, kinds: { ftid: 6, pin: 1 } },
      ],
    });
    const [quick, slow] = takeout.lists as [GeneratedList, GeneratedList];
    const quickLookups = needingLookup([quick]).length;
    const slowLookups = needingLookup([slow]);
    // The slow list's places never answer: only the interruption can end their lookups.
    for (const place of slowLookups) google.setPlace(place.cid!, { hang: true });
    const ws = await workspace('interrupted', takeout.zip);
    google.clearRequests();

    const { child, done } = start(
      ['convert', ws.archive, '--out', ws.out, '--json'],
      ws.where(google.url),
    );
    // Once the slow places are being asked, the quick ones are answered (the resolver's 32 slots
    // have turned over): interrupt then.
    await until(() => google.count() >= quickLookups + 5);
    child.kill('SIGINT');
    const result = await done;

    expect(result.code).toBe(130);
    expect(result.stderr).toContain('placeport: interrupted: looking up no more places');
    // The progress ends where the stop found it, with no estimate of a run that is not going on.
    expect(result.stderr.match(/^Looking up places: .*$/gm)!.at(-1)).toMatch(
      /^Looking up places: \d+ \/ \d+$/,
    );
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.interrupted).toBe('SIGINT');
    const [quickLine, slowLine] = summary.lists as [CliSummary['lists'][0], CliSummary['lists'][0]];
    // The slow list: its pins written, every place looked up "interrupted" in its failed-places CSV.
    const slowPins = slow.places.filter((p) => p.expected);
    expect(slowLine).toMatchObject({ total: slow.places.length, converted: slowPins.length });
    expect(slowLine.unplaced).toEqual({ interrupted: slowLookups.length });
    expect(await readKmlFile(slowLine.files.find((f) => f.endsWith('.kml'))!)).toEqual(
      slowPins.map((p) => expectedPoint(p)),
    );
    const slowRows = await csvRows(slowLine.files.find((f) => f.endsWith('failed-places.csv'))!);
    expect(slowRows.slice(1).map((row) => row.at(-1))).toEqual(
      slowLookups.map(() => REASON_TEXT.interrupted),
    );
    // The quick list: its pins and the places found before the interruption.
    const quickPins = quick.places.filter((p) => p.expected).length;
    expect(quickLine.converted).toBeGreaterThan(quickPins);
    expect(quickLine.converted + (quickLine.unplaced.interrupted ?? 0)).toBe(quick.places.length);
    expect(await readKmlFile(quickLine.files.find((f) => f.endsWith('.kml'))!)).toHaveLength(
      quickLine.converted,
    );
    // Every file named is there, and the cache file keeps what was found.
    expect((await readdir(ws.out)).sort()).toEqual(
      summary.lists.flatMap((l) => l.files.map((f) => path.basename(f))).sort(),
    );
    const found = quickLine.converted - quickPins;
    expect(summary.cache?.saved).toBe(found);
    // Looked up: the places answered, not those the stop cut short (the slow ones hang unanswered).
    expect(summary.lookups.links).toBe(found);

    // The next run (Google answering again) takes those from the cache and asks only for the rest.
    for (const place of slowLookups) google.setPlace(place.cid!, {});
    google.clearRequests();
    const next = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--json', '--force'],
      ws.where(google.url),
    );
    expect(next.code).toBe(0);
    const resumed = JSON.parse(next.stdout) as CliSummary;
    expect(resumed.lookups.cacheHits).toBe(found);
    expect(google.count()).toBe(quickLookups + slowLookups.length - found);
    expect(resumed.lists.map((l) => l.converted)).toEqual([
      quick.places.length,
      slow.places.length,
    ]);
    expect(resumed.interrupted).toBeUndefined();
  });

  it('an archive with empty lists (only a header, or the 2025+ tag row) converts the others and exits 0', async () => {
    const takeout = generateTakeout({
      seed: 29,
      includeNonPlaceLists: false,
      coordinatesInUrls: true,
      lists: [
        { name: 'Test', places: 0, header: 'classic' },
        { name: 'Work', places: 0, header: 'tags' },
        { name: 'Cafés', places: 5 },
      ],
    });
    const ws = await workspace('empty', takeout.zip);
    const json = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--json'],
      ws.where(google.url),
    );
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as CliSummary;
    expect(summary.lists.map((l) => [l.name, l.total, l.empty ?? false, l.files.length])).toEqual([
      ['Test', 0, true, 0],
      ['Work', 0, true, 0],
      ['Cafés', 5, false, 1],
    ]);
    expect(summary.lists.some((l) => l.skippedReason)).toBe(false);
    expect(await readdir(ws.out)).toEqual(['Cafés.kml']);

    const text = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--force'],
      ws.where(google.url),
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('– Test: empty (the list holds no places)');
    expect(text.stdout).toContain('– Work: empty (the list holds no places)');
    expect(text.stdout).toContain('✓ Cafés: 5 of 5 places placed');
    expect(text.stderr).toBe('');
  });

  it('a list with no place placed gets ✗, not ✓, and names no map file', async () => {
    const takeout = generateTakeout({
      seed: 31,
      quirks: false,
      includeNonPlaceLists: false,
      lists: [{ name: 'Barcelona', places: 7, kinds: { ftid: 1 } }],
    });
    const ws = await workspace('none-placed', takeout.zip);
    const result = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--offline'],
      ws.where(google.url),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✗ Barcelona: 0 of 7 places placed, 7 without coordinates:');
    expect(result.stdout).not.toContain('✓');
    expect(result.stdout).not.toContain('Barcelona.kml');
    expect(await readdir(ws.out)).toEqual(['Barcelona - failed-places.csv']);
  });

  it('a retried place keeps its tags: the failed-places CSV carries the Tags column, and the retry writes them', async () => {
    const noodles = ftidForCid(7_001n);
    const coffee = ftidForCid(7_002n);
    const list = [
      'Title,Note,URL,Tags,Comment',
      ',,,🍜 Food;☕ Coffee,',
      `Noodles,slurp,https://www.google.com/maps/place/Noodles/data=!4m2!3m1!1s${noodles},🍜 Food,late
`.trim(),
      `Espresso,,https://www.google.com/maps/place/Espresso/data=!4m2!3m1!1s${coffee},=SUM(1);☕ Coffee,`,
      'Pinned,,"https://www.google.com/maps/search/38.7223,-9.1393",🍜 Food,',
    ].join('\n');
    const takeout = generateTakeout({
      seed: 37,
      includeNonPlaceLists: false,
      lists: [],
      extraEntries: { 'Takeout/Saved/Tagged.csv': new TextEncoder().encode(`${list}\n`) },
    });
    const ws = await workspace('tags', takeout.zip);
    const first = await runBin(
      ['convert', ws.archive, '--out', ws.out, '--offline'],
      ws.where(google.url),
    );
    expect(first.code).toBe(0);
    const csv = path.join(ws.out, 'Tagged - failed-places.csv');
    const rows = await csvRows(csv);
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['Title', 'Note', 'URL', 'Tags', 'Comment'],
      ['Noodles', 'slurp', expect.stringContaining(noodles), '🍜 Food', 'late'],
      // A cell a spreadsheet would run gets its guard; the retry takes it off.
      ['Espresso', '', expect.stringContaining(coffee), "'=SUM(1);☕ Coffee", ''],
    ]);
    const firstKml = await readFile(path.join(ws.out, 'Tagged.kml'), 'utf8');

    // The README's retry line: the places found go to "(retry)" with their tags; the CSV goes.
    const retry = await runBin(
      ['convert', csv, '--out', ws.out, '--no-cache'],
      ws.where(google.url),
    );
    expect(retry.code).toBe(0);
    expect(retry.stdout).toContain(`removed ${csv}: every place in it is placed now`);
    const retried = await readFile(path.join(ws.out, 'Tagged (retry).kml'), 'utf8');
    expect(retried).toContain('Tags: 🍜 Food');
    expect(retried).toContain('Tags: =SUM(1), ☕ Coffee');
    expect(retried).toContain('<Data name="tags"><value>🍜 Food</value></Data>');
    expect(await readFile(path.join(ws.out, 'Tagged.kml'), 'utf8')).toBe(firstKml);
    expect((await readdir(ws.out)).sort()).toEqual(['Tagged (retry).kml', 'Tagged.kml']);
  });
});
