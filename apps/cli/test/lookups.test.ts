/**
 * Local lookups end to end: the built `placeport` in a child process, looking places up from
 * "this computer" against the testkit's fake Google (PLACEPORT_MAPS_ORIGIN and
 * PLACEPORT_PLACES_API_ORIGIN), with its cache folder in a temporary XDG_CACHE_HOME.
 */
import {
  FAKE_GOOGLE_API_KEY,
  FAKE_GOOGLE_DISABLED_KEY,
  ftidForCid,
  generateTakeout,
  startFakeGoogle,
  type FakeGoogle,
  type GeneratedPlace,
} from '@placeport/testkit';
import { cidFromFtid } from '@placeport/converter/internal';
import { REASON_TEXT } from '@placeport/contract';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  expectedName,
  expectedPoint,
  progressLines,
  readKmlFile,
  run as runBin,
  tempFolder,
  type RunEnvironment,
} from './support.js';
import type { CliSummary } from '../src/summary.js';

const placesApiRequests = (google: FakeGoogle) =>
  google.count((request) => request.path.startsWith('/v1/places/'));
const pageRequests = (google: FakeGoogle) =>
  google.count((request) => !request.path.startsWith('/v1/places/'));

/** Every kind of link that names a place Google knows, and dropped pins; no `zero` links. */
const FINDABLE = { ftid: 20, cid: 2, ludocid: 2, 'q-address': 2, pin: 1, search: 2 } as const;

describe('placeport convert, looking places up from this computer', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('lookups'));
    google = await startFakeGoogle();
  });

  afterAll(async () => {
    await google.close();
    await remove();
  });

  beforeEach(() => {
    google.clearRequests();
  });

  /** A folder of its own for one test: archive, output, cache home. */
  async function workspace(name: string, zip: Uint8Array, fake: FakeGoogle = google) {
    const home = path.join(dir, name);
    await mkdir(home, { recursive: true });
    const archive = path.join(home, 'takeout.zip');
    await writeFile(archive, zip);
    const where: RunEnvironment = { google: fake.url, cacheHome: path.join(home, 'cache') };
    return {
      home,
      archive,
      out: path.join(home, 'out'),
      cacheFile: path.join(home, 'cache', 'placeport', 'places-v1.json'),
      run: (args: string[], extra?: RunEnvironment['extra']) =>
        runBin(args, extra ? { ...where, extra } : where),
    };
  }

  it('(a) places every link without coordinates where Google says it is, once per distinct place, and keeps the cache file', async () => {
    // With starred places too, whose [0, 0] ones are looked up by their link like any other.
    const takeout = generateTakeout({
      seed: 42,
      savedPlacesJson: { format: 'new', places: 600 },
    });
    const placeLists = takeout.lists.filter((l) => l.isPlaceList);
    const starredPlaces = takeout.savedPlaces!.places;
    expect(starredPlaces.some((p) => p.zero)).toBe(true);
    const ws = await workspace('default', takeout.zip);
    const result = await ws.run(['convert', ws.archive, '--out', ws.out, '--json']);
    expect(result.code).toBe(0);
    // Nothing on stderr but the progress (whole lines: it is not a terminal), whose total never grows.
    expect(result.stderr.replace(/^Looking up places: .*\n/gm, '')).toBe('');
    const summary = JSON.parse(result.stdout) as CliSummary;

    expect(summary.lists.map((l) => l.name)).toEqual([
      ...placeLists.map((l) => l.name),
      'Saved Places',
    ]);
    // Every starred place is placed: from the file, or looked up by its link ([0, 0] ones).
    const starred = summary.lists.at(-1)!;
    expect([starred.total, starred.converted, starred.unplaced]).toEqual([600, 600, {}]);
    const starredKml = await readKmlFile(starred.files.find((f) => f.endsWith('.kml'))!);
    expect(starredKml).toEqual(
      starredPlaces.map((p) => {
        const where = p.expected ?? p.resolvable!;
        return { name: expectedName(p.title ?? ''), lngLat: [where.lng, where.lat] };
      }),
    );
    for (const [i, list] of placeLists.entries()) {
      const line = summary.lists[i]!;
      const placed = list.places.filter((p) => p.expected ?? p.resolvable);
      const zero = list.places.filter((p) => p.kind === 'zero').length;
      const noLink = list.places.filter((p) => p.kind === 'no-link').length;
      expect(line).toMatchObject({ total: list.places.length, converted: placed.length });
      expect(line.unplaced).toEqual({
        ...(zero ? { not_found: zero } : {}),
        ...(noLink ? { no_link: noLink } : {}),
      });
      const kml = line.files.find((f) => f.endsWith('.kml'))!;
      expect(await readKmlFile(kml)).toEqual(placed.map(expectedPoint));
    }

    // Each distinct place once: places saved in several lists, and links naming the same place.
    // Takeout's link of a place without a location (a search for 0,0) is not looked up.
    const distinct = new Set([
      ...placeLists.flatMap((l) =>
        l.places.filter((p) => !p.expected && p.url && p.kind !== 'zero').map(lookupKeyOf),
      ),
      ...starredPlaces
        .filter((p) => !p.expected && p.url)
        .map((p) => `cid:${p.cid ?? cidFromFtid(p.ftid!)}`),
    ]);
    expect(summary.lookups).toMatchObject({ mode: 'local', links: distinct.size, cacheHits: 0 });
    const progress = progressLines(result.stderr);
    expect(progress.map((p) => p.total)).toEqual(progress.map(() => distinct.size));
    expect(progress.at(-1)?.done).toBe(distinct.size);
    expect(summary.lookups.upstreamRequests.places).toBe(0);
    expect(placesApiRequests(google)).toBe(0);
    expect(pageRequests(google)).toBe(summary.lookups.upstreamRequests.pages);
    // Every found place is kept, under its id only.
    expect(summary.cache).toEqual({ file: ws.cacheFile, loaded: 0, saved: distinct.size });
    const cacheText = await readFile(ws.cacheFile, 'utf8');
    for (const place of placeLists.flatMap((l) => l.places)) {
      if (place.url) expect(cacheText).not.toContain(place.url);
      if (place.title.length > 3) expect(cacheText).not.toContain(JSON.stringify(place.title));
    }
    expect(cacheText).not.toMatch(/https?:/);
  });

  it('(b) with --google-maps-api-key, asks the Places API first; GOOGLE_MAPS_API_KEY does the same', async () => {
    const takeout = generateTakeout({
      seed: 7,
      includeNonPlaceLists: false,
      lists: [{ name: 'Trip', places: 12, kinds: { ftid: 1 } }],
    });
    const [list] = takeout.lists;
    const ws = await workspace('api-key', takeout.zip);
    const args = ['convert', ws.archive, '--out', ws.out, '--json', '--no-cache'];
    const result = await ws.run([...args, '--google-maps-api-key', FAKE_GOOGLE_API_KEY]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.lists[0]).toMatchObject({ converted: list!.places.length, unplaced: {} });
    expect(await readKmlFile(summary.lists[0]!.files[0]!)).toEqual(list!.places.map(expectedPoint));
    const ids = new Set(list!.places.map((p) => p.ftid)).size;
    expect(summary.lookups.upstreamRequests).toEqual({ pages: 0, places: ids });
    expect(placesApiRequests(google)).toBe(ids);
    expect(pageRequests(google)).toBe(0);
    const request = google.requests.find((r) => r.path.startsWith('/v1/places/ChIJ'));
    expect(request?.headers['x-goog-api-key']).toBe(FAKE_GOOGLE_API_KEY);
    expect(summary.cache).toBeNull();

    google.clearRequests();
    // Into the same folder again: --force replaces the first run's files.
    const fromEnv = await ws.run([...args, '--force'], {
      GOOGLE_MAPS_API_KEY: FAKE_GOOGLE_API_KEY,
    });
    expect(fromEnv.code).toBe(0);
    expect(placesApiRequests(google)).toBe(ids);
    expect(pageRequests(google)).toBe(0);
  });

  it.each([
    ['an invalid key', 'not-a-key', 'API_KEY_INVALID'],
    ['a key without the Places API', FAKE_GOOGLE_DISABLED_KEY, 'SERVICE_DISABLED'],
  ])(
    '(b) %s: says so at once and in the summary, and the pages place every place',
    async (_, key, reason) => {
      const takeout = generateTakeout({
        seed: 8,
        includeNonPlaceLists: false,
        lists: [{ name: 'Trip', places: 12, kinds: { ftid: 1 } }],
      });
      const [list] = takeout.lists;
      const ws = await workspace(`rejected-key-${reason}`, takeout.zip);
      const args = ['convert', ws.archive, '--out', ws.out, '--no-cache'];
      const json = await ws.run([...args, '--json', '--google-maps-api-key', key]);
      expect(json.code).toBe(0);
      const summary = JSON.parse(json.stdout) as CliSummary;
      expect(summary.lists[0]).toMatchObject({ converted: list!.places.length, unplaced: {} });
      expect(await readKmlFile(summary.lists[0]!.files[0]!)).toEqual(
        list!.places.map(expectedPoint),
      );
      expect(summary.lookups.placesKeyRejected).toBe(reason);
      expect(summary.lookups.upstreamRequests.pages).toBe(
        new Set(list!.places.map((p) => p.ftid)).size,
      );
      const warnings = json.stderr
        .split('\n')
        .filter((line) => line.includes('refused the API key'));
      expect(warnings).toEqual([
        `placeport: warning: Google refused the API key for the Places API (${reason}); looking places up from their pages instead. Check that the key (--google-maps-api-key or GOOGLE_MAPS_API_KEY) is right and that its Google Cloud project has the Places API (New) and billing enabled.`,
      ]);
      expect(json.stderr).not.toContain(key);

      const text = await ws.run([...args, '--force'], { GOOGLE_MAPS_API_KEY: key });
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(
        `Google refused the API key for the Places API (${reason}): places were looked up from their pages instead.`,
      );
      expect(text.stdout).toContain(`12 of 12 places placed.`);
    },
  );

  it('(c) a second run fetches nothing: every place comes from the cache file', async () => {
    const takeout = generateTakeout({
      seed: 11,
      includeNonPlaceLists: false,
      lists: [
        { name: 'North', places: 15, kinds: FINDABLE },
        { name: 'South', places: 10, kinds: FINDABLE },
      ],
    });
    const placeLists = takeout.lists;
    const ws = await workspace('rerun', takeout.zip);
    // Every run writes into the same folder: --force replaces the earlier run's files.
    const args = ['convert', ws.archive, '--out', ws.out, '--json', '--force'];
    const first = await ws.run(args);
    expect(first.code).toBe(0);
    const before = JSON.parse(first.stdout) as CliSummary;
    expect(before.lookups.upstreamRequests.pages).toBeGreaterThan(0);
    expect(before.totals.skipped).toBe(0);

    google.clearRequests();
    const second = await ws.run(args);
    expect(second.code).toBe(0);
    expect(google.count()).toBe(0);
    const after = JSON.parse(second.stdout) as CliSummary;
    expect(after.lookups).toMatchObject({
      links: before.lookups.links,
      cacheHits: before.lookups.links,
      upstreamRequests: { pages: 0, places: 0 },
    });
    expect(after.cache).toMatchObject({ loaded: before.cache!.saved, saved: before.cache!.saved });
    for (const [i, list] of placeLists.entries()) {
      expect(await readKmlFile(after.lists[i]!.files[0]!)).toEqual(list.places.map(expectedPoint));
    }
    const text = await ws.run(['convert', ws.archive, '--out', ws.out, '--force']);
    expect(text.stdout).toContain(
      `Looked up ${before.lookups.links} distinct places from this computer: ${before.lookups.links} from the cache file, 0 requests to Google.`,
    );

    // --cache-file chooses another file (empty: everything is fetched again), --no-cache none.
    const elsewhere = path.join(ws.home, 'elsewhere', 'cache.json');
    google.clearRequests();
    const other = await ws.run([...args, '--cache-file', elsewhere]);
    expect(JSON.parse(other.stdout)).toMatchObject({
      cache: { file: elsewhere, loaded: 0, saved: before.cache!.saved },
    });
    expect(google.count()).toBeGreaterThan(0);
    google.clearRequests();
    const none = await ws.run([...args, '--no-cache']);
    expect(JSON.parse(none.stdout)).toMatchObject({ cache: null, lookups: { cacheHits: 0 } });
    expect(google.count()).toBeGreaterThan(0);

    // A damaged cache file is reported on stderr, the run starts empty and rewrites it.
    await writeFile(ws.cacheFile, '{"version":1,"entries":[');
    google.clearRequests();
    const damaged = await ws.run(args);
    expect(damaged.code).toBe(0);
    expect(damaged.stderr).toContain(`the cache file ${ws.cacheFile} could not be read`);
    expect(google.count()).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(ws.cacheFile, 'utf8'))).toMatchObject({ version: 1 });
    google.clearRequests();
    expect((await ws.run(args)).code).toBe(0);
    expect(google.count()).toBe(0);

    // A cache file that can be neither read nor written costs the cache, not the run.
    const folder = path.join(ws.home, 'a-folder');
    await mkdir(folder);
    const unusable = await ws.run([...args, '--cache-file', folder]);
    expect(unusable.code).toBe(0);
    expect(unusable.stderr).toContain(`the cache file ${folder} could not be read (EISDIR)`);
    expect(unusable.stderr).toContain(`the cache file ${folder} could not be saved`);
    expect(JSON.parse(unusable.stdout)).toMatchObject({
      cache: { file: folder, loaded: 0, saved: null },
      totals: { skipped: 0 },
    });
  });

  it('(c2) never writes over a cache path that holds something else, nor the input itself: exit 2 before any lookup', async () => {
    const takeout = generateTakeout({
      seed: 12,
      includeNonPlaceLists: false,
      lists: [{ name: 'East', places: 6, kinds: FINDABLE }],
    });
    const ws = await workspace('foreign-cache', takeout.zip);
    const args = ['convert', ws.archive, '--out', ws.out];
    const notes = path.join(ws.home, 'notes.txt');
    await writeFile(notes, 'precious\n');
    const refused = await ws.run([...args, '--cache-file', notes]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `placeport: The cache file ${notes} is not a PlacePort cache file (it is not JSON), so placeport will not write over it: give another --cache-file (or --no-cache), or remove that file.`,
    );
    const json = await ws.run([...args, '--cache-file', notes, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'usage',
        message: expect.stringContaining(`The cache file ${notes} is not a PlacePort cache file`),
      },
    });
    const input = await ws.run([...args, '--cache-file', ws.archive]);
    expect(input.code).toBe(2);
    expect(input.stderr).toContain(
      `placeport: --cache-file ${ws.archive} is the file being converted: give another --cache-file`,
    );
    expect(await readFile(notes, 'utf8')).toBe('precious\n');
    expect(await readFile(ws.archive)).toEqual(Buffer.from(takeout.zip));
    expect(google.count()).toBe(0);
    await expect(readdir(ws.out)).resolves.toEqual([]);

    // An empty file is a first run's; a cache file of ours whose entries are damaged is replaced.
    const empty = path.join(ws.home, 'empty.json');
    await writeFile(empty, '');
    const filled = await ws.run([...args, '--cache-file', empty, '--json']);
    expect(filled.code).toBe(0);
    expect(JSON.parse(await readFile(empty, 'utf8'))).toMatchObject({ version: 1 });
    const damaged = path.join(ws.home, 'damaged.json');
    await writeFile(damaged, '{"version":1,"entries":5}');
    const replaced = await ws.run([...args, '--cache-file', damaged, '--force']);
    expect(replaced.code).toBe(0);
    expect(replaced.stderr).toContain(`the cache file ${damaged} could not be read`);
    expect(JSON.parse(await readFile(damaged, 'utf8'))).toMatchObject({
      version: 1,
      entries: expect.any(Array),
    });
  });

  it('(d) reports every place left without coordinates by reason, in text and --json, and exits 0', async () => {
    const takeout = generateTakeout({
      seed: 3,
      includeNonPlaceLists: false,
      lists: [{ name: 'Mixed', places: 16, kinds: { ftid: 6, 'no-link': 1 } }],
    });
    const [list] = takeout.lists;
    const withIds = list!.places.filter((p) => p.cid !== undefined);
    const cids = [...new Set(withIds.map((p) => p.cid!))];
    expect(cids.length).toBeGreaterThanOrEqual(4);
    // One place Google refuses us for, two it has no location for (the generic "Google Maps" page),
    // on a fake of this test's own so that nothing carries over.
    const [throttled, generic1, generic2] = cids;
    const own = await startFakeGoogle();
    onTestFinished(() => own.close());
    own.setPlace(throttled!, { throttle: 429 });
    own.setPlace(generic1!, { generic: true });
    own.setPlace(generic2!, { generic: true });
    const reasonOf = (p: GeneratedPlace) =>
      p.kind === 'no-link'
        ? 'no_link'
        : p.cid === throttled
          ? 'throttled'
          : p.cid === generic1 || p.cid === generic2
            ? 'not_found'
            : undefined;
    const expected: Record<string, number> = {};
    for (const place of list!.places) {
      const reason = reasonOf(place);
      if (reason) expected[reason] = (expected[reason] ?? 0) + 1;
    }

    const ws = await workspace('failures', takeout.zip, own);
    // Both runs wait out the pipeline's retry pauses for the refused place: side by side, not in turn.
    const [result, text] = await Promise.all([
      ws.run(['convert', ws.archive, '--out', path.join(ws.home, 'json'), '--json', '--no-cache']),
      ws.run(['convert', ws.archive, '--out', path.join(ws.home, 'text'), '--no-cache']),
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    const [line] = summary.lists;
    expect(line!.unplaced).toEqual(expected);
    expect(summary.totals.unplaced).toEqual(expected);
    expect(line!.converted).toBe(list!.places.filter((p) => !reasonOf(p)).length);
    // The refused place was tried again before the run ended.
    expect(summary.lookups.retried).toBeGreaterThan(0);
    expect(await readKmlFile(line!.files[0]!)).toEqual(
      list!.places.filter((p) => !reasonOf(p)).map(expectedPoint),
    );
    const failedCsv = await readFile(line!.files[1]!, 'utf8');
    expect(failedCsv).toContain(REASON_TEXT.throttled);
    expect(failedCsv).toContain(REASON_TEXT.not_found);

    expect(text.code).toBe(0);
    for (const [reason, count] of Object.entries(expected)) {
      expect(text.stdout).toMatch(
        new RegExp(
          `^\\s+${count}  ${escape(REASON_TEXT[reason as keyof typeof REASON_TEXT])}$`,
          'm',
        ),
      );
    }
    expect(text.stdout).toContain(
      'Some lookups were refused by Google or failed (in the failed-places CSVs): give those back to placeport convert later (a retry needs no --force), or run the same command again with --force.',
    );
    // What it says works: the failed-places CSV given back needs no --force.
    const retried = await ws.run([
      'convert',
      path.join(ws.home, 'text', 'Mixed - failed-places.csv'),
      '--out',
      path.join(ws.home, 'text'),
      '--no-cache',
    ]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('Mixed (failed places):');
  });

  it('(e) never sends a link the resolver would refuse: look-alike hosts are not_allowed, not counted, never requested', async () => {
    const ftid = ftidForCid(4_242n);
    const link = (host: string) =>
      `https://${host}/maps/place/Hagia+Sophia/data=!4m2!3m1!1s${ftid}`;
    const lookAlikes = [
      link('maps.google.com.de'),
      link('www.google.co.nl'),
      link('maps.google.com.evil.example'),
      link('www.google.co.nl.example'),
    ];
    const csv = [
      'Title,Note,URL,Comment',
      `Hagia Sophia,,${link('www.google.com')},`,
      ...lookAlikes.map((lookAlike, i) => `Look-alike ${i + 1},,${lookAlike},`),
    ].join('\n');
    const home = path.join(dir, 'look-alikes');
    await mkdir(home, { recursive: true });
    const input = path.join(home, 'Istanbul.csv');
    await writeFile(input, `${csv}\n`);
    const where: RunEnvironment = { google: google.url, cacheHome: path.join(home, 'cache') };
    const args = ['convert', input, '--out', path.join(home, 'out'), '--json', '--no-cache'];
    const result = await runBin(args, where);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    const [line] = summary.lists;
    expect(line).toMatchObject({ total: 5, converted: 1, unplaced: { not_allowed: 4 } });
    // One lookup, for the real place: the look-alikes were neither counted nor sent.
    expect(summary.lookups).toMatchObject({ mode: 'local', links: 1 });
    expect(google.requests.map((request) => request.host)).toEqual(['www.google.com']);
    const failedCsv = await readFile(
      line!.files.find((f) => f.endsWith('failed-places.csv'))!,
      'utf8',
    );
    const rows = failedCsv.split('\r\n').slice(1).filter(Boolean);
    expect(rows).toEqual(
      lookAlikes.map(
        (lookAlike, i) => `Look-alike ${i + 1},,${lookAlike},,${REASON_TEXT.not_allowed}`,
      ),
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How the pipeline tells places apart for lookups (their id). */
function lookupKeyOf(place: GeneratedPlace): string {
  return place.cid ? `cid:${place.cid}` : `url:${place.url}`;
}
