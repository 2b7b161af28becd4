import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { FREE_TIER_MAX_URLS } from '@placeport/contract';
import { generateTakeout, kmlPoints } from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { resolvedUrlFor } from '../core/coordinates.js';
import { placeNeed } from '../core/link-need.js';
import { readKmz, readZip, readZipWithZlib } from '../../test/read-formats.js';
import { MESSAGES } from '../core/errors.js';
import { LIMITS } from '../core/limits.js';
import { WHOLE_READ_BYTES } from '../large-zip.js';
import { createConverterWorkerApi } from './api.js';
import type { ConversionProgress } from './types.js';

const quiet = { warn: () => {} };

describe('converter worker API', () => {
  const takeout = generateTakeout({ seed: 7 });
  const placeLists = takeout.lists.filter((l) => l.isPlaceList);

  it('inspects an archive and returns summaries only', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    const result = await api.inspect(
      new Blob([takeout.zip.slice().buffer]),
      'takeout-20261122.zip',
    );
    if (!result.ok) throw new Error(result.error.message);
    const { lists } = result.value;
    expect(lists.map((l) => [l.name, l.kind])).toEqual(placeLists.map((l) => [l.name, 'csv']));
    expect(lists.map((l) => l.rowCount)).toEqual(placeLists.map((l) => l.places.length));
    // What the selection shows: places placed from their link, and those needing a lookup.
    expect(lists.map((l) => [l.withCoordinates, l.needsLookup])).toEqual(
      placeLists.map((l) => [
        l.places.filter((p) => p.expected).length,
        l.places.filter(
          (p) =>
            !p.expected &&
            // Takeout's link of a place without a location is no lookup.
            p.kind !== 'zero' &&
            /google\.[a-z.]+\/(maps|search)|maps\.google/.test(p.url),
        ).length,
      ]),
    );
    expect(result.value.lists[0]).not.toHaveProperty('content');
    expect(result.value.lists[0]).not.toHaveProperty('parsed');
  });

  it('counts a link the resolver would refuse (a look-alike host) as no usable link, not a lookup', async () => {
    const ftidLink = (host: string) =>
      `https://${host}/maps/place/x/data=!4m2!3m1!1s0x14e732fd76f0d90d:0xe5415928d6702b47`;
    const csv = `Title,URL\nReal,${ftidLink('www.google.com')}\nLook-alike,${ftidLink('maps.google.com.de')}\n`;
    const api = createConverterWorkerApi({ logger: quiet });
    const result = await api.inspect(
      new Blob([zipSync({ 'Takeout/Saved/Mixed.csv': strToU8(csv) })]),
      'takeout.zip',
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.lists[0]).toMatchObject({
      rowCount: 2,
      withCoordinates: 0,
      needsLookup: 1,
    });
  });

  it('refuses a file whose name is not .zip with the seed message', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    expect(await api.inspect(takeout.zip, 'places.csv')).toEqual({
      ok: false,
      error: {
        code: 'not-a-zip',
        message: 'Please upload a ZIP file from Google Takeout with your saved places.',
      },
    });
  });

  it('reads a file past what is read whole by its slices, only its lists, and refuses one past 64 GB', async () => {
    const limits = { ...LIMITS, maxArchiveBytes: 1_000 };
    const api = createConverterWorkerApi({ logger: quiet, limits });
    // A part of a whole-account export: never read whole (past 2 GiB it could not be), its
    // directory and lists read from slices, and its lists the same as the archive read whole.
    const part = new Blob([takeout.zip.slice().buffer]);
    const whole = vi.spyOn(part, 'arrayBuffer');
    const sliced = vi.spyOn(part, 'slice');
    const read = await api.inspect(part, 'takeout-20261127T110000Z-001.zip');
    const expected = await createConverterWorkerApi({ logger: quiet }).inspect(
      takeout.zip,
      'takeout.zip',
    );
    expect(expected.ok).toBe(true);
    expect(read).toEqual(expected);
    expect(whole).not.toHaveBeenCalled();
    expect(sliced).toHaveBeenCalled();
    // No directory at its end, and no ZIP's start: not a ZIP.
    expect(await api.inspect(new Blob([new Uint8Array(1_001)]), 'a.zip')).toEqual({
      ok: false,
      error: { code: 'not-a-zip', message: MESSAGES.notAZipInside },
    });
    // Past the largest Takeout part: measured, never read.
    class Huge extends Blob {
      override get size() {
        return 64 * 1024 ** 3 + 1;
      }
    }
    const huge = new Huge([new Uint8Array(10)]);
    const hugeSlice = vi.spyOn(huge, 'slice');
    expect(await api.inspect(huge, 'takeout-001.zip')).toEqual({
      ok: false,
      error: {
        code: 'archive-too-large',
        message:
          'This ZIP file is larger than 64 GB, more than a Google Takeout part holds. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.',
      },
    });
    expect(hugeSlice).not.toHaveBeenCalled();
    // At the limit it is read whole.
    const atLimit = new Blob([new Uint8Array(1_000)]);
    const atLimitRead = vi.spyOn(atLimit, 'arrayBuffer');
    expect(!(await api.inspect(atLimit, 'a.zip')).ok).toBe(true);
    expect(atLimitRead).toHaveBeenCalled();
  });

  it('reads an export past 16 MB by its slices with the default limits (a phone never holds it whole)', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    // An export of the whole account without photos' worth of other products, as one ZIP.
    const files: Record<string, Uint8Array> = {
      'Takeout/YouTube and YouTube Music/videos/clip.mp4': new Uint8Array(WHOLE_READ_BYTES),
    };
    for (const list of placeLists) files[list.path] = strToU8(list.csv);
    const zip = zipSync(files, { level: 0 });
    const blob = new Blob([zip]);
    expect(blob.size).toBeGreaterThan(WHOLE_READ_BYTES);
    const whole = vi.spyOn(blob, 'arrayBuffer');
    const read = await api.inspect(blob, 'takeout-20261127T110000Z-001.zip');
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.lists.map((list) => [list.path, list.rowCount])).toEqual(
      placeLists.map((list) => [list.path, list.places.length]),
    );
    expect(whole).not.toHaveBeenCalled();
  });

  it('says so when the chosen file cannot be read, whole or by its slices', async () => {
    const api = createConverterWorkerApi({
      logger: quiet,
      limits: { ...LIMITS, maxArchiveBytes: 5 },
    });
    // A file moved or deleted after it was chosen, or a folder named .zip: the browser's read fails.
    const gone = () =>
      Object.assign(
        new DOMException('A requested file or directory could not be found', 'NotFoundError'),
      );
    const small = new Blob([new Uint8Array(5)]);
    vi.spyOn(small, 'arrayBuffer').mockRejectedValue(gone());
    const large = new Blob([new Uint8Array(10)]);
    vi.spyOn(large, 'slice').mockImplementation(() => {
      const slice = new Blob([]);
      vi.spyOn(slice, 'arrayBuffer').mockRejectedValue(gone());
      return slice;
    });
    for (const file of [small, large]) {
      expect(await api.inspect(file, 'Folder.zip')).toEqual({
        ok: false,
        error: { code: 'unreadable-file', message: MESSAGES.fileUnreadable },
      });
    }
  });

  it('answers errors as data, never by throwing', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    expect(await api.convert({ paths: ['x'] })).toEqual({
      ok: false,
      error: { code: 'no-archive', message: 'Please choose a ZIP file first.' },
    });
    await api.inspect(takeout.zip, 'a.zip');
    expect(await api.convert({ paths: [] })).toEqual({
      ok: false,
      error: { code: 'no-lists-chosen', message: 'Please select at least one file to convert.' },
    });
    const unknown = await api.convert({ paths: ['nope.csv'] });
    expect(unknown.ok).toBe(false);
  });

  it('converts chosen lists through the API client and returns files as bytes', async () => {
    const fetchMock = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      const { urls } = JSON.parse(String(init?.body)) as { urls: string[] };
      const results: Record<string, string> = {};
      for (const url of urls) {
        const place = placeLists.flatMap((l) => l.places).find((p) => p.url === url);
        if (place?.resolvable) results[url] = resolvedUrlFor(place.resolvable);
      }
      return new Response(JSON.stringify({ results }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    const api = createConverterWorkerApi({ logger: quiet, fetch: fetchMock as typeof fetch });
    await api.inspect(takeout.zip, 'a.zip');
    const progress: ConversionProgress[] = [];
    const list = placeLists[0]!;
    const result = await api.convert(
      { paths: [list.path], resolve: { apiBase: 'http://127.0.0.1:9', paymentIntentId: 'pi_123' } },
      (p) => progress.push(p),
    );
    if (!result.ok) throw new Error(result.error.message);
    const [init] = fetchMock.mock.calls.map((c) => c[1]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('http://127.0.0.1:9/api/resolve-urls-batch');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(JSON.parse(String(init?.body)).paymentIntentId).toBe('pi_123');

    const outcome = result.value.lists[0]!;
    const expected = list.places.filter((p) => p.expected ?? p.resolvable);
    expect(outcome.stats.converted).toBe(expected.length);
    expect(outcome.resolvedCount).toBe(
      list.places.filter((p) => !p.expected && p.resolvable).length,
    );
    const kmlText = new TextDecoder().decode(outcome.files[0]!.bytes);
    const points = kmlPoints(kmlText).map((p) => p.lngLat);
    expect(points).toEqual(
      expected.map((p) => {
        const c = (p.expected ?? p.resolvable)!;
        return [c.lng, c.lat];
      }),
    );
    expect(outcome.files[0]?.mimeType).toBe('application/vnd.google-earth.kml+xml');
    expect(result.value.totals).toEqual({
      total: list.places.length,
      converted: expected.length,
      skipped: list.places.length - expected.length,
    });
    expect(progress.at(-1)?.percent).toBe(100);
  });

  it('carries the reason of every unresolved place to the results and the failed-places CSV', async () => {
    const fetchMock = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      const { urls } = JSON.parse(String(init?.body)) as { urls: string[] };
      const failures = Object.fromEntries(urls.map((url) => [url, 'not_found']));
      return new Response(JSON.stringify({ results: {}, failures }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    const api = createConverterWorkerApi({ logger: quiet, fetch: fetchMock as typeof fetch });
    await api.inspect(takeout.zip, 'a.zip');
    const list = placeLists[0]!;
    const result = await api.convert({
      paths: [list.path],
      resolve: { apiBase: 'http://127.0.0.1:9' },
    });
    if (!result.ok) throw new Error(result.error.message);
    const outcome = result.value.lists[0]!;
    const lookedUp = list.places.filter((p) => !p.expected && p.resolvable).length;
    expect(lookedUp).toBeGreaterThan(0);
    // Every place left without coordinates has a reason; those the API answered, its reason.
    expect(outcome.stats.unplaced.not_found).toBeGreaterThanOrEqual(lookedUp);
    const reasons = Object.values(outcome.stats.unplaced).reduce((sum, n) => sum + n, 0);
    expect(reasons).toBe(outcome.stats.skipped);
    const csv = new TextDecoder().decode(outcome.failedCsv!.bytes);
    // The seed's columns, the list's Tags where it had them (2025+ exports), then the reason.
    expect(csv).toContain(
      list.header === 'tags'
        ? 'Title,Note,URL,Tags,Comment,Reason'
        : 'Title,Note,URL,Comment,Reason',
    );
    expect(csv).toContain('Google has no location for this place');
  });

  it('gives an empty list (a header, or the 2025+ tag row, and no place) as empty, not as an error', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    const bytes = zipSync({
      'Takeout/Saved/Test.csv': strToU8('Title,Note,URL,Tags,Comment\n,,,,\n'),
      'Takeout/Saved/Cakes.csv': strToU8(
        'Title,Note,URL,Comment\nTorte,,"https://www.google.com/maps/search/48.2,16.37",\n',
      ),
    });
    const inspected = await api.inspect(bytes, 'takeout.zip');
    if (!inspected.ok) throw new Error(inspected.error.message);
    expect(inspected.value.lists.map((l) => [l.name, l.rowCount, l.problem])).toEqual([
      ['Test', 0, undefined],
      ['Cakes', 1, undefined],
    ]);
    const result = await api.convert({ paths: inspected.value.lists.map((l) => l.path) });
    if (!result.ok) throw new Error(result.error.message);
    const [test, cakes] = result.value.lists;
    expect(test).toMatchObject({ empty: true, files: [], stats: { totalPlaces: 0 } });
    expect(test).not.toHaveProperty('skippedReason');
    expect(test).not.toHaveProperty('failedCsv');
    expect(cakes).not.toHaveProperty('empty');
    expect(result.value.totals).toEqual({ total: 1, converted: 1, skipped: 0 });
  });

  it('cancel stops the lookups and still converts every list from what has coordinates', async () => {
    const list = placeLists[0]!;
    const pinned = list.places.filter((p) => p.expected).length;
    expect(pinned, 'the list mixes pins and lookups').toBeGreaterThan(0);
    const lookups = list.places.filter(
      (p) => placeNeed({ coordinates: undefined, url: p.url }).kind === 'lookup',
    ).length;
    expect(lookups).toBeGreaterThan(0);
    let asked!: () => void;
    const firstRequest = new Promise<void>((resolve) => (asked = resolve));
    // The API never answers: only Cancel can end the lookups.
    const fetchMock = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          asked();
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), {
            once: true,
          });
        }),
    );
    const api = createConverterWorkerApi({ logger: quiet, fetch: fetchMock as typeof fetch });
    await api.inspect(takeout.zip, 'a.zip');
    const running = api.convert({ paths: [list.path], resolve: { apiBase: 'http://127.0.0.1:9' } });
    await firstRequest;
    await api.cancel();
    const result = await running;
    if (!result.ok) throw new Error(result.error.message);
    const outcome = result.value.lists[0]!;
    expect(outcome.stats.converted).toBe(pinned);
    expect(outcome.stats.unplaced.interrupted).toBe(lookups);
    expect(kmlPoints(new TextDecoder().decode(outcome.files[0]!.bytes))).toHaveLength(pinned);
    expect(outcome.failedCsv?.count).toBe(list.places.length - pinned);
    // Nothing is running now: a second cancel changes nothing.
    await api.cancel();
  });

  it('zips every file of the run, dated when it was made, not 1 January 1980', async () => {
    const api = createConverterWorkerApi({
      logger: quiet,
      now: () => new Date(2026, 10, 26, 14, 30, 10),
    });
    await api.inspect(takeout.zip, 'a.zip');
    const converted = await api.convert({ paths: placeLists.map((list) => list.path) });
    if (!converted.ok) throw new Error(converted.error.message);
    const zipped = await api.zipAll('kml');
    if (!zipped.ok) throw new Error(zipped.error.message);
    const zip = new Uint8Array(await new Blob(zipped.value.chunks).arrayBuffer());
    const files = converted.value.lists.flatMap((list) => [
      ...list.files.map((file) => file.fileName),
      ...(list.failedCsv ? [list.failedCsv.fileName] : []),
    ]);
    const entries = readZip(zip);
    expect(Object.keys(entries).sort()).toEqual(files.sort());
    // Compressed by Node's CompressionStream here, as by the browser's in the page: Node's zlib
    // inflates every entry to what fflate reads, and the central directory's CRCs are the content's.
    const inflated = readZipWithZlib(zip);
    expect(inflated.map((entry) => entry.name).sort()).toEqual(files.sort());
    for (const entry of inflated) {
      expect(entry.data).toEqual(entries[entry.name]);
      expect(entry.crc).toBe(crc32(entry.data));
    }
    // The first local header's MS-DOS date and time (APPNOTE 4.4.6): 14:30:10, 26 November 2026.
    const header = new DataView(zip.buffer);
    expect(header.getUint16(10, true)).toBe((14 << 11) | (30 << 5) | (10 / 2));
    expect(header.getUint16(12, true)).toBe(((2026 - 1980) << 9) | (11 << 5) | 26);
  });

  it("writes each KMZ around the same list's KML, compressed by the platform, and zips those same KMZ", async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(takeout.zip, 'a.zip');
    const converted = await api.convert({ paths: placeLists.map((list) => list.path) });
    if (!converted.ok) throw new Error(converted.error.message);
    const [kml, kmz, zipped] = [
      await api.files('kml'),
      await api.files('kmz'),
      await api.zipAll('kmz'),
    ];
    if (!kml.ok || !kmz.ok || !zipped.ok) throw new Error('no files');
    const inZip = readZip(new Uint8Array(await new Blob(zipped.value.chunks).arrayBuffer()));
    expect(Object.keys(kmz.value.lists)).toEqual(Object.keys(kml.value.lists));
    for (const [path, files] of Object.entries(kmz.value.lists)) {
      const texts = kml.value.lists[path]!.map((file) => new TextDecoder().decode(file.bytes));
      expect(files.map((file) => file.fileName)).toEqual(
        kml.value.lists[path]!.map((file) => file.fileName.replace(/\.kml$/, '.kmz')),
      );
      files.forEach((file, index) => {
        const bytes = new Uint8Array(file.bytes);
        const [entry] = readZipWithZlib(bytes);
        // Compressed by Node's CompressionStream (zlib's default level: "normal", flag bits 0).
        expect(entry?.name).toBe('doc.kml');
        expect((entry!.flags >> 1) & 3).toBe(0);
        expect(new TextDecoder().decode(entry!.data)).toBe(texts[index]);
        expect(inZip[file.fileName]).toEqual(bytes);
      });
    }
  });

  it('never gives the files of a run that another replaced while they were compressed', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(takeout.zip, 'a.zip');
    const paths = placeLists.map((list) => list.path);
    await api.convert({ paths });
    const [files, zip] = [api.files('kmz'), api.zipAll('kmz')];
    await api.convert({ paths: paths.slice(0, 1) });
    for (const answer of [await files, await zip]) {
      expect(answer).toEqual({
        ok: false,
        error: { code: 'superseded', message: 'Another conversion replaced this one meanwhile.' },
      });
    }
    // Asked now, the files are the new run's.
    const now = await api.files('kmz');
    expect(now.ok && Object.keys(now.value.lists)).toEqual(paths.slice(0, 1));
  });

  it('copies KMZ files into the ZIP as they are (a KMZ is compressed already) and deflates the rest', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(takeout.zip, 'a.zip');
    const converted = await api.convert({ paths: placeLists.map((list) => list.path) });
    if (!converted.ok) throw new Error(converted.error.message);
    const zipped = await api.zipAll('kmz');
    if (!zipped.ok) throw new Error(zipped.error.message);
    const entries = readZipWithZlib(
      new Uint8Array(await new Blob(zipped.value.chunks).arrayBuffer()),
    );
    const kmz = entries.filter((entry) => entry.name.endsWith('.kmz'));
    expect(kmz.length).toBeGreaterThan(0);
    for (const entry of kmz) {
      // DEFLATE's stored blocks: the bytes as they are, 5 bytes of header per 64 KB.
      expect(entry.compression).toBe(8);
      expect(entry.compressedSize).toBe(
        entry.data.length + 5 * Math.max(1, Math.ceil(entry.data.length / 65_535)),
      );
      expect(entry.crc).toBe(crc32(entry.data));
      // Each is the list's KMZ whole: one doc.kml with placemarks.
      expect(readKmz(entry.data).geojson.features.length).toBeGreaterThan(0);
    }
    for (const entry of entries.filter((each) => !each.name.endsWith('.kmz'))) {
      expect(entry.compression).toBe(8);
    }
  });

  it('never lets a slow read of a removed file take the place of the file chosen after it', async () => {
    const archive = (title: string) =>
      zipSync({
        'Takeout/Saved/Want to go.csv': strToU8(
          `Title,Note,URL,Comment\n${title},,"https://www.google.com/maps/search/48.85837,2.294481",\n`,
        ),
      });
    // The removed file: a big archive whose read finishes only after the next file is read.
    let finishRead!: () => void;
    const readFinished = new Promise<void>((resolve) => (finishRead = resolve));
    const old = archive('OLD');
    const slow = new Blob([old]);
    slow.arrayBuffer = async () => {
      await readFinished;
      return old.slice().buffer;
    };
    const api = createConverterWorkerApi({ logger: quiet });
    const removed = api.inspect(slow, 'takeout-full.zip');
    await api.reset();
    const chosen = await api.inspect(archive('NEW'), 'takeout-saved.zip');
    expect(chosen.ok).toBe(true);
    finishRead();
    const late = await removed;
    expect(late).toMatchObject({ ok: false, error: { code: 'superseded' } });
    const run = await api.convert({ paths: ['Takeout/Saved/Want to go.csv'] });
    if (!run.ok) throw new Error(run.error.message);
    const kml = new TextDecoder().decode(run.value.lists[0]!.files[0]!.bytes);
    expect(kml).toContain('<name>NEW</name>');
    expect(kml).not.toContain('OLD');
  });

  it('forgets the archive on reset', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(takeout.zip, 'a.zip');
    await api.reset();
    expect((await api.convert({ paths: [placeLists[0]!.path] })).ok).toBe(false);
  });
});

describe('converting through a PlacePort API without a payment (its free tier)', () => {
  /** Distinct places that each need a lookup (an ftid, no coordinates), in one saved list. */
  const links = Array.from(
    { length: 10 },
    (_, i) =>
      `https://www.google.com/maps/place/Place+${i}/data=!4m2!3m1!1s0x47e66e2964e34e2d:0x${(0x8ddca9ee380ef7e0n + BigInt(i)).toString(16)}`,
  );
  const archive = zipSync({
    'Takeout/Saved/Want to go.csv': strToU8(
      `Title,URL\n${links.map((link, i) => `Place ${i},${link}`).join('\n')}\n`,
    ),
  });

  /**
   * A local server answering `POST /api/resolve-urls-batch` as the API answers a request without a
   * payment: 413 `payload_too_large` past FREE_TIER_MAX_URLS links, 402 `free_budget_used` past the
   * day's free lookups, else a pin for every link.
   */
  async function freeTierApi(freeLookups: number) {
    const requests: string[][] = [];
    let left = freeLookups;
    const refuse = (res: ServerResponse, status: number, code: string, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code, message } }));
    };
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const { urls } = JSON.parse(body) as { urls: string[] };
      requests.push(urls);
      if (urls.length > FREE_TIER_MAX_URLS) {
        return refuse(
          res,
          413,
          'payload_too_large',
          `Without a payment, a request can hold at most ${FREE_TIER_MAX_URLS} links.`,
        );
      }
      if (urls.length > left) {
        return refuse(res, 402, 'free_budget_used', 'The free lookups of today are used.');
      }
      left -= urls.length;
      const results = Object.fromEntries(
        urls.map((url) => [url, resolvedUrlFor({ lat: 48 + links.indexOf(url) / 100, lng: 2 })]),
      );
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results, failures: {} }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { apiBase: `http://127.0.0.1:${port}`, requests, close: () => server.close() };
  }

  it(`sends ${FREE_TIER_MAX_URLS} links a request and places what the day's free lookups cover; the rest are limit, asked once`, async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    const fake = await freeTierApi(8);
    try {
      const inspected = await api.inspect(archive, 'takeout.zip');
      if (!inspected.ok) throw new Error(inspected.error.message);
      const run = await api.convert({
        paths: ['Takeout/Saved/Want to go.csv'],
        resolve: { apiBase: fake.apiBase },
      });
      if (!run.ok) throw new Error(run.error.message);
      const { stats } = run.value.lists[0]!;
      expect(stats.converted).toBe(8);
      expect(stats.unplaced).toEqual({ limit: 2 });
      expect(fake.requests.map((urls) => urls.length)).toEqual([4, 4, 2]);
      // Refused for its cost, a request is not sent again.
      expect(fake.requests.flat().sort()).toEqual([...links].sort());
    } finally {
      fake.close();
    }
  });
});
