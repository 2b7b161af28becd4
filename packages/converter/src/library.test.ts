/**
 * The library's public API end to end: a real-looking archive (saved lists and starred places) to
 * every format, each file read back by an independent reader; starred places in both formats with
 * `[0, 0]` entries; descriptions and tags in every format that has a field for them; one ZIP of a run.
 */
import {
  generateTakeout,
  kmlPoints,
  parseXml,
  savedPlacesJson,
  type GeneratedTakeout,
} from '@placeport/testkit';
import { inflateSync, strFromU8, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readCsv, readGeoJson, readGpx, readKmz, readZip } from '../test/read-formats.js';
import {
  convertArchive,
  inspectArchive,
  listFiles,
  OUTPUT_FORMATS,
  resolvedUrlFor,
  runFiles,
  zipFileName,
  zipRun,
  type ConvertedArchive,
  type OutputFormat,
  type ResolveUrls,
} from './index.js';
import { ConverterError } from './core/errors.js';
import { convertLists } from './pipeline.js';

const withBom = new TextDecoder('utf-8', { ignoreBOM: true });

interface Point {
  name: string;
  lngLat: number[];
}

/** A name as every format writes it (XML 1.0's forbidden characters out, trimmed, "Dropped pin"). */
const expectedName = (title: string) =>
  title
    // With the u flag a lone surrogate is one code point outside the class, so it goes too.
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .trim() || 'Dropped pin';

/** Degrees as the writers round them: 7 decimals. */
const round = (value: number) => Math.round(value * 1e7) / 1e7;
const rounded = (points: readonly Point[]) =>
  points.map((point) => ({ name: point.name, lngLat: point.lngLat.map(round) }));

/** A resolver that knows where the generated places are, as Google would. */
function resolverFor(takeout: GeneratedTakeout): { resolveUrls: ResolveUrls; asked: string[] } {
  const where = new Map<string, { lat: number; lng: number }>();
  for (const list of takeout.lists) {
    for (const place of list.places) if (place.resolvable) where.set(place.url, place.resolvable);
  }
  for (const place of takeout.savedPlaces?.places ?? []) {
    if (place.resolvable) where.set(place.url, place.resolvable);
  }
  const asked: string[] = [];
  return {
    asked,
    resolveUrls: async (urls) => {
      asked.push(...urls);
      const results: Record<string, string> = {};
      for (const url of urls) {
        const point = where.get(url);
        if (point) results[url] = resolvedUrlFor(point);
      }
      return { results };
    },
  };
}

/** Every file of one list in one format, read back as names and `[lng, lat]` by that format's reader. */
function readBack(run: ConvertedArchive, outputName: string, format: OutputFormat): Point[] {
  const stem = new RegExp(
    `^${outputName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(part \\d+ of \\d+\\))?\\.`,
  );
  const files = run.files.filter(
    (file) => stem.test(file.fileName) && file.fileName.endsWith(`.${extension(format)}`),
  );
  expect(files.length).toBeGreaterThan(0);
  return files.flatMap((file) => {
    const data = file.data;
    switch (format) {
      case 'kml':
        return kmlPoints(data as string);
      case 'kmz': {
        const entries = readZip(data as Uint8Array);
        readKmz(data as Uint8Array);
        return kmlPoints(strFromU8(entries['doc.kml']!));
      }
      case 'gpx':
        return readGpx(data as string).geojson.features.map((feature) => ({
          name: String(feature.properties?.name),
          lngLat: (feature.geometry as { coordinates: number[] }).coordinates.slice(0, 2),
        }));
      case 'geojson':
        return readGeoJson(data as string).features.map((feature) => ({
          name: feature.properties.name,
          lngLat: feature.geometry.coordinates,
        }));
      case 'csv': {
        const [header, ...rows] = readCsv(data as string);
        expect(header).toEqual(['Name', 'Latitude', 'Longitude', 'Note', 'Comment', 'Tags', 'URL']);
        // A name a spreadsheet would run as a formula carries a leading ' (product.md).
        return rows.map((row) => ({
          name: row[0]!.replace(/^'(?=[=+\-@\t\r])/, ''),
          lngLat: [Number(row[2]), Number(row[1])],
        }));
      }
    }
  });
}

function extension(format: OutputFormat): string {
  return format === 'geojson' ? 'geojson' : format;
}

describe('convertArchive: saved lists and starred places, to every format', () => {
  const takeout = generateTakeout({
    seed: 2026,
    lists: [
      { name: 'Want to go', places: 60, header: 'tags' },
      { name: 'Food', places: 40 },
    ],
    savedPlacesJson: { format: 'new', places: 400 },
  });

  it('lists the starred places as one more list, with what needs a lookup', () => {
    const { lists } = inspectArchive(takeout.zip);
    const starred = lists.find((list) => list.kind === 'starred')!;
    expect(starred).toMatchObject({ name: 'Saved Places', rowCount: 400 });
    const inFile = takeout.savedPlaces!.places.filter((place) => place.expected).length;
    expect(starred.withCoordinates).toBe(inFile);
    expect(starred.needsLookup).toBe(400 - inFile);
  });

  it('writes every place where the file, its link or the lookup puts it, in each format', async () => {
    const { resolveUrls } = resolverFor(takeout);
    const run = await convertArchive(takeout.zip, { formats: OUTPUT_FORMATS, resolveUrls });
    const starredPlaces = takeout.savedPlaces!.places;
    const expected = new Map<string, Point[]>();
    for (const list of takeout.lists.filter((l) => l.isPlaceList)) {
      expected.set(
        list.name,
        list.places.flatMap((place) => {
          const where = place.expected ?? place.resolvable;
          return where ? [{ name: expectedName(place.title), lngLat: [where.lng, where.lat] }] : [];
        }),
      );
    }
    expected.set(
      'Saved Places',
      starredPlaces.flatMap((place) => {
        const where = place.expected ?? place.resolvable;
        return where
          ? [{ name: expectedName(place.title ?? ''), lngLat: [where.lng, where.lat] }]
          : [];
      }),
    );
    // Nearly every starred place carries its coordinates; the [0, 0] ones came through the lookup.
    expect(expected.get('Saved Places')).toHaveLength(400);
    for (const list of run.lists) {
      const want = rounded(expected.get(list.name)!);
      expect(list.stats.converted).toBe(want.length);
      for (const format of OUTPUT_FORMATS) {
        expect({
          list: list.name,
          format,
          points: rounded(readBack(run, list.outputName, format)),
        }).toEqual({
          list: list.name,
          format,
          points: want,
        });
      }
    }
  });

  it('gives one ZIP of every file of the run in a format, failed-places CSVs included', async () => {
    const run = await convertArchive(takeout.zip, { formats: ['kml'] });
    const entries = readZip(zipRun(run.lists, 'gpx'));
    const names = Object.keys(entries).sort();
    const expected = run.lists.flatMap((list) => [
      ...(list.stats.converted > 0 ? [`${list.outputName}.gpx`] : []),
      ...(list.failedCsvFileName ? [list.failedCsvFileName] : []),
    ]);
    expect(names).toEqual(expected.sort());
    for (const list of run.lists.filter((l) => l.failedCsvContent)) {
      expect(withBom.decode(entries[list.failedCsvFileName!]!)).toBe(list.failedCsvContent);
    }
    const gpx = readGpx(strFromU8(entries['Food.gpx']!)).geojson.features;
    expect(gpx).toHaveLength(run.lists.find((l) => l.name === 'Food')!.stats.converted);
  });
});

describe('starred places in both formats, with [0, 0] entries', () => {
  const archive = (json: string) =>
    zipSync({
      'Takeout/Maps (your places)/Saved Places.json': strToU8(json),
      'Takeout/Saved/Want to go.csv': strToU8(
        'Title,Note,URL,Comment\nCafe,,"https://www.google.com/maps/search/38.7,-9.14",\n',
      ),
    });

  it.each(['old', 'new'] as const)(
    '%s format: geometry first, then the link, then a lookup by cid; none guessed',
    async (format) => {
      const json = savedPlacesJson({
        format,
        places: [
          { title: 'Belém Tower', address: 'Lisbon', lat: 38.6916, lng: -9.216, cid: '111' },
          { title: 'Lost', address: 'Nowhere', cid: '222', zero: true },
          { title: 'Unknown', address: 'Somewhere', cid: '333', zero: true },
          ...(format === 'new'
            ? [{ title: 'Pin', lat: 41.1496, lng: -8.611, zero: true, urlKind: 'latlng' as const }]
            : []),
        ],
      });
      const asked: string[] = [];
      const run = await convertArchive(archive(json), {
        formats: ['geojson'],
        resolveUrls: async (urls) => {
          asked.push(...urls);
          // Google knows where cid 222 is; cid 333 has no location.
          const results: Record<string, string> = {};
          for (const url of urls) {
            if (url.includes('cid=222'))
              results[url] = resolvedUrlFor({ lat: 40.4168, lng: -3.7038 });
          }
          return { results, failures: {} };
        },
      });
      const starred = run.lists.find((list) => list.name === 'Saved Places')!;
      expect(asked.sort()).toEqual([
        'http://maps.google.com/?cid=222',
        'http://maps.google.com/?cid=333',
      ]);
      const file = run.files.find((f) => f.fileName === 'Saved Places.geojson')!;
      const features = readGeoJson(file.data as string).features;
      expect(
        features.map((feature) => [
          feature.properties.name,
          feature.geometry.coordinates,
          feature.properties.note,
        ]),
      ).toEqual([
        ['Belém Tower', [-9.216, 38.6916], 'Lisbon'],
        ['Lost', [-3.7038, 40.4168], 'Nowhere'],
        ...(format === 'new' ? [['Pin', [-8.611, 41.1496], '']] : []),
      ]);
      expect(starred.places.find((place) => place.title === 'Unknown')?.reason).toBe('not_found');
      expect(
        run.files.find((f) => f.fileName === 'Saved Places - failed-places.csv')?.data,
      ).toContain('Unknown');
    },
  );
});

describe('descriptions and tags reach every format', () => {
  const csv = [
    'Our trip to Lisbon, spring 2026',
    '',
    'Title,Note,URL,Tags,Comment',
    ',,,🛴 Fun stores;📚 Bookstores,',
    'Scooter shop,Fast,"https://www.google.com/maps/search/38.71,-9.14",🛴 Fun stores,Go early',
    'Book & Co,,"https://www.google.com/maps/search/38.72,-9.15",📚 Bookstores;🛴 Fun stores,',
  ].join('\n');
  const bytes = zipSync({ 'Takeout/Saved/Lisbon.csv': strToU8(`${csv}\n`) });
  const file = (run: ConvertedArchive, name: string) =>
    run.files.find((f) => f.fileName === name)!.data;

  it('KML: the list in a Folder carrying its description; tags in the balloon and as data', async () => {
    const run = await convertArchive(bytes, { formats: ['kml'] });
    expect(run.totals).toEqual({ total: 2, converted: 2, skipped: 0 });
    const doc = parseXml(file(run, 'Lisbon.kml') as string);
    const folder = doc.getElementsByTagName('Folder')[0]!;
    expect(folder.getElementsByTagName('description')[0]?.textContent).toBe(
      'Our trip to Lisbon, spring 2026',
    );
    const book = Array.from(doc.getElementsByTagName('Placemark'))[1]!;
    expect(book.getElementsByTagName('description')[0]?.textContent).toContain(
      'Tags: 📚 Bookstores, 🛴 Fun stores',
    );
    expect(book.getElementsByTagName('value')[0]?.textContent).toBe('📚 Bookstores, 🛴 Fun stores');
  });

  it("GPX: the description in the metadata; tags in each waypoint's description", async () => {
    const run = await convertArchive(bytes, { formats: ['gpx'] });
    const { doc, geojson } = readGpx(file(run, 'Lisbon.gpx') as string);
    const metadata = doc.getElementsByTagName('metadata')[0]!;
    expect(metadata.getElementsByTagName('desc')[0]?.textContent).toBe(
      'Our trip to Lisbon, spring 2026',
    );
    expect(geojson.features.map((f) => f.properties?.name)).toEqual(['Scooter shop', 'Book & Co']);
    const waypoints = Array.from(doc.getElementsByTagName('wpt'));
    expect(waypoints[1]!.getElementsByTagName('desc')[0]?.textContent).toContain(
      'Tags: 📚 Bookstores, 🛴 Fun stores',
    );
    expect(waypoints[0]!.getElementsByTagName('desc')[0]?.textContent).toContain(
      'Comment: Go early',
    );
  });

  it('GeoJSON: the description on the collection; tags as an array; CSV: a Tags column', async () => {
    const run = await convertArchive(bytes, { formats: ['geojson', 'csv'] });
    const geojson = readGeoJson(file(run, 'Lisbon.geojson') as string);
    expect(geojson.description).toBe('Our trip to Lisbon, spring 2026');
    expect(geojson.features.map((f) => f.properties.tags)).toEqual([
      ['🛴 Fun stores'],
      ['📚 Bookstores', '🛴 Fun stores'],
    ]);
    const [, ...rows] = readCsv(file(run, 'Lisbon.csv') as string);
    expect(rows.map((row) => [row[0], row[1], row[2], row[5]])).toEqual([
      ['Scooter shop', '38.71', '-9.14', '🛴 Fun stores'],
      ['Book & Co', '38.72', '-9.15', '📚 Bookstores, 🛴 Fun stores'],
    ]);
  });
});

describe('choosing lists', () => {
  const bytes = zipSync({
    'Takeout/Saved/Want to go.csv': strToU8(
      'Title,URL\nA,"https://www.google.com/maps/search/1,2"\n',
    ),
    'Takeout 2/Saved/Want to go.csv': strToU8(
      'Title,URL\nB,"https://www.google.com/maps/search/3,4"\n',
    ),
  });

  it('takes a list by path, and refuses a name two lists share, naming their paths', async () => {
    const run = await convertArchive(bytes, { lists: ['Takeout 2/Saved/Want to go.csv'] });
    expect(run.files.map((f) => f.fileName)).toEqual(['Want to go (Takeout 2).kml']);
    const refused = await convertArchive(bytes, { lists: ['Want to go'] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConverterError);
    expect(refused).toMatchObject({
      code: 'ambiguous-list',
      message:
        '2 lists are named "Want to go"; choose one by its path: Takeout/Saved/Want to go.csv, Takeout 2/Saved/Want to go.csv',
    });
  });
});

/** An archive of one list of one place, placed by its link. */
const onePlace = zipSync({
  'Takeout/Saved/Want to go.csv': strToU8(
    'Title,URL\nA,"https://www.google.com/maps/search/1,2"\n',
  ),
});

describe('the bytes an archive is given as', () => {
  const zip = onePlace;
  /** The same bytes inside a larger buffer, at an offset: a view, not the whole buffer. */
  const padded = new Uint8Array(zip.length + 7);
  padded.set(zip, 3);

  it.each([
    ['an ArrayBuffer', zip.slice().buffer],
    ['a DataView at an offset', new DataView(padded.buffer, 3, zip.length)],
    ['a Node Buffer', Buffer.from(zip)],
  ])('reads %s as its Uint8Array', async (_, bytes) => {
    expect(inspectArchive(bytes).lists.map((list) => [list.path, list.rowCount])).toEqual([
      ['Takeout/Saved/Want to go.csv', 1],
    ]);
    expect((await convertArchive(bytes)).totals).toEqual({ total: 1, converted: 1, skipped: 0 });
  });

  it('refuses anything else with a TypeError saying what to pass', async () => {
    const blob = new Blob([zip]);
    expect(() => inspectArchive(blob as never)).toThrow(
      new TypeError(
        "The archive must be the ZIP file's bytes (a Uint8Array, an ArrayBuffer or another ArrayBufferView), not what was given (Blob). Read a Blob or File first with its arrayBuffer() method.",
      ),
    );
    await expect(convertArchive('takeout.zip' as never)).rejects.toThrow(
      "convertArchive takes the ZIP file's bytes (a Uint8Array, an ArrayBuffer or another ArrayBufferView) or what inspectArchive or inspectCsv returned, not what was given (string).",
    );
    await expect(convertArchive({ places: [] } as never)).rejects.toBeInstanceOf(TypeError);
  });
});

describe('a format that is not one', () => {
  const zip = onePlace;
  const refusal = {
    code: 'unknown-format',
    message:
      '"pdf" is not a file format PlacePort writes. Choose one of: kml, kmz, gpx, geojson, csv.',
  };

  it('is refused by convertArchive before anything is looked up, and by every writer of a run', async () => {
    let asked = 0;
    const refused = await convertArchive(zip, {
      formats: ['kml', 'pdf' as OutputFormat],
      resolveUrls: async () => {
        asked += 1;
        return { results: {} };
      },
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConverterError);
    expect(refused).toMatchObject(refusal);
    expect(asked).toBe(0);
    const { lists } = await convertArchive(zip);
    const pdf = 'pdf' as OutputFormat;
    for (const write of [
      () => zipFileName(pdf),
      () => listFiles(lists[0]!, pdf),
      () => [...runFiles(lists, pdf)],
      () => zipRun(lists, pdf),
    ]) {
      expect(write).toThrow(expect.objectContaining(refusal));
    }
  });
});

describe('options a caller in plain JavaScript may get wrong (library audit)', () => {
  /** One place whose link needs a lookup. */
  const needsLookup = zipSync({
    'Takeout/Saved/Want to go.csv': strToU8(
      'Title,URL\nA,https://www.google.com/maps/place/A/data=!4m2!3m1!1s0x47e66e2964e34e2d:0x8ddca9ee380ef7e0\n',
    ),
  });
  const refusal = (options: unknown) =>
    convertArchive(needsLookup, options as never).then(
      () => 'converted',
      (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`,
    );

  it('are refused naming the option, before anything is sent', async () => {
    expect(await refusal(null)).toBe('TypeError: The options must be an object, got null');
    expect(await refusal({ formats: 'kml' })).toMatch(/^TypeError: formats must be an array/);
    // No format is a run of places with no file (the CLI writes its files itself).
    expect(await refusal({ formats: [] })).toBe('converted');
    expect(await refusal({ lists: 'Want to go' })).toMatch(/^TypeError: lists must be an array/);
    expect(await refusal({ resolveUrls: 'https://api.example' })).toBe(
      'TypeError: resolveUrls must be a function, got string',
    );
    const resolveUrls: ResolveUrls = async () => ({ results: {} });
    for (const size of [0, -5, 0.5, Number.NaN]) {
      // 0 looped until the heap was gone; NaN sent empty batches and called every place not_found.
      expect(await refusal({ resolveUrls, resolveChunkSize: size })).toMatch(
        /^RangeError: resolveChunkSize must be a whole number of at least 1/,
      );
    }
    for (const ms of [0, -1, Number.NaN]) {
      expect(await refusal({ resolveUrls, resolveTimeoutMs: ms })).toMatch(
        /^RangeError: resolveTimeoutMs must be more than 0/,
      );
    }
    for (const max of [0, -1, 1.5, Number.NaN]) {
      expect(await refusal({ maxPlacemarksPerFile: max })).toMatch(
        /^RangeError: maxPlacemarksPerFile must be a whole number of at least 1/,
      );
    }
    expect(await refusal({ maxPlacemarksPerFile: Infinity })).toBe('converted');
  });

  it('writes a format asked for twice once', async () => {
    const run = await convertArchive(onePlace, { formats: ['kml', 'kml'] });
    expect(run.files.map((file) => file.fileName)).toEqual(['Want to go.kml']);
  });

  it('abandons a resolver that never answers at the batch deadline, and at a stop', async () => {
    const never: ResolveUrls = () => new Promise(() => {});
    // The pipeline itself, whose retry rounds can be told not to pause (else 75 s of them).
    const timedOut = await convertLists(inspectArchive(needsLookup).lists, {
      resolveUrls: never,
      resolveTimeoutMs: 20,
      retryDelayMs: 0,
      abandonAfterMs: 0,
    });
    expect(timedOut[0]!.places.map((place) => place.reason)).toEqual(['unavailable']);
    const stop = new AbortController();
    const stopped = convertLists(inspectArchive(needsLookup).lists, {
      resolveUrls: never,
      signal: stop.signal,
      abandonAfterMs: 0,
    });
    setTimeout(() => stop.abort(), 20);
    expect((await stopped)[0]!.places.map((place) => place.reason)).toEqual(['interrupted']);
  });
});

describe("release: each list's bytes handed back once it is read", () => {
  const want =
    'Title,URL\nA,"https://www.google.com/maps/search/1,2"\nB,"https://www.google.com/maps/search/3,4"\n';
  const bytes = zipSync({
    'Takeout/Saved/Want to go.csv': strToU8(want),
    // Stored, not deflated: its bytes are the reader's own copy, handed back too.
    'Takeout/Saved/Stored.csv': [
      strToU8('Title,URL\nC,"https://www.google.com/maps/search/5,6"\n'),
      { level: 0 },
    ],
    'Takeout/Saved/Broken.csv': strToU8('Title,Note\nno url column\n'),
    // Takeout's empty starred collection is no list, but its bytes were still read.
    'Takeout/Maps (your places)/Saved Places.json': strToU8(
      JSON.stringify({ type: 'FeatureCollection', features: [] }),
    ),
  });

  /** A release that empties what it is given, as the CLI's frees it: nothing may read it after. */
  const detach = (given: Uint8Array) =>
    structuredClone(given.buffer, { transfer: [given.buffer as ArrayBuffer] });

  it('gets every list read, each once, after its places are read; what inspection returns needs none of it', async () => {
    const released: Array<{ text: string; listsBefore: number }> = [];
    let inflated = 0;
    const inspection = inspectArchive(bytes, {
      inflate: (data, size) => {
        inflated += 1;
        return inflateSync(data, { out: new Uint8Array(size) });
      },
      release: (given) => {
        released.push({ text: strFromU8(given), listsBefore: inflated });
        detach(given);
      },
    });
    expect(released.map(({ text }) => text).sort()).toEqual(
      [
        want,
        'Title,URL\nC,"https://www.google.com/maps/search/5,6"\n',
        'Title,Note\nno url column\n',
        JSON.stringify({ type: 'FeatureCollection', features: [] }),
      ].sort(),
    );
    // Each list is handed back before the next is unpacked: one list's bytes at a time.
    expect(released.every(({ listsBefore }, i) => listsBefore <= i + 1)).toBe(true);

    const { lists } = inspection;
    const counts = lists.map(({ name, rowCount }) => [name, rowCount] as const);
    expect(counts.sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['Broken', 1],
      ['Stored', 1],
      ['Want to go', 2],
    ]);
    const run = await convertArchive(inspection);
    expect(run.lists.find((list) => list.name === 'Want to go')!.places).toMatchObject([
      { title: 'A', coordinates: { lat: 1, lng: 2 } },
      { title: 'B', coordinates: { lat: 3, lng: 4 } },
    ]);
    expect(run.lists.find((list) => list.name === 'Broken')!.skippedReason).toBeTruthy();
  });

  it('gets the list being read when the archive is refused past the place cap', () => {
    const released: string[] = [];
    const refused = (() => {
      try {
        return inspectArchive(bytes, {
          limits: { maxPlaces: 1 },
          release: (given) => released.push(strFromU8(given)),
        });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toMatchObject({ code: 'too-many-places' });
    expect(released.length).toBeGreaterThan(0);
  });
});

describe("Takeout's links of places without a location (a search for 0,0)", () => {
  const bytes = zipSync({
    'Takeout/Saved/Closed.csv': strToU8(
      [
        'Title,Note,URL,Comment',
        'Gone bakery,,"https://www.google.com/maps/search/0,0",',
        'Gone bar,,"https://www.google.com/maps/search/0.000000,0.000000",',
        'Pin,,"https://www.google.com/maps/search/41.0086,28.9802",',
        'Web page,,https://example.com/menu,',
        'No link,,,',
        '',
      ].join('\n'),
    ),
  });

  it('are counted apart from links that cannot be used, never sent, and not_found in the run', async () => {
    const [list] = inspectArchive(bytes).lists;
    expect(list).toMatchObject({
      rowCount: 5,
      withCoordinates: 1,
      needsLookup: 0,
      withoutLocation: 2,
    });
    const sent: string[] = [];
    const run = await convertArchive(bytes, {
      resolveUrls: async (urls) => {
        sent.push(...urls);
        return { results: {} };
      },
    });
    expect(sent).toEqual([]);
    expect(run.lists[0]!.stats.unplaced).toEqual({ not_found: 2, not_allowed: 1, no_link: 1 });
  });
});

describe('links the resolver would refuse (product.md, "Needs a lookup")', () => {
  const ftid = '0x14e732fd76f0d90d:0xe5415928d6702b47';
  const real = `https://www.google.com/maps/place/Hagia+Sophia/data=!4m2!3m1!1s${ftid}`;
  // Look-alikes of Google's hosts: the first two a `google.<…>` pattern takes for Google's.
  const lookAlikes = [
    `https://maps.google.com.de/maps/place/Hagia+Sophia/data=!4m2!3m1!1s${ftid}`,
    `https://www.google.co.nl/maps/place/Hagia+Sophia/data=!4m2!3m1!1s${ftid}`,
    `https://maps.google.com.evil.example/maps/place/data=!4m2!3m1!1s${ftid}`,
    `https://www.google.co.nl.example/maps/place/data=!4m2!3m1!1s${ftid}`,
  ];
  const bytes = zipSync({
    'Takeout/Saved/Istanbul.csv': strToU8(
      [
        'Title,Note,URL,Comment',
        `Hagia Sophia,,"${real}",`,
        ...lookAlikes.map((link, i) => `Look-alike ${i + 1},,"${link}",`),
        'Pin,,"https://www.google.com/maps/search/41.0086,28.9802",',
        '',
      ].join('\n'),
    ),
  });

  it('are not counted as needing a lookup, never sent, and not_allowed in the results and the failed-places CSV', async () => {
    const [list] = inspectArchive(bytes).lists;
    expect(list).toMatchObject({ rowCount: 6, withCoordinates: 1, needsLookup: 1 });

    const sent: string[] = [];
    const resolveUrls: ResolveUrls = async (urls) => {
      sent.push(...urls);
      return { results: { [real]: resolvedUrlFor({ lat: 41.008583, lng: 28.980175 }) } };
    };
    const run = await convertArchive(bytes, { resolveUrls });
    expect(sent).toEqual([real]);
    const [result] = run.lists;
    expect(result!.places.map((place) => place.reason)).toEqual([
      undefined,
      'not_allowed',
      'not_allowed',
      'not_allowed',
      'not_allowed',
      undefined,
    ]);
    expect(result!.stats.unplaced).toEqual({ not_allowed: 4 });
    const [header, ...rows] = readCsv(result!.failedCsvContent!);
    expect(header).toEqual(['Title', 'Note', 'URL', 'Comment', 'Reason']);
    expect(rows.map((row) => [row[2], row[4]])).toEqual(
      lookAlikes.map((link) => [link, 'Not a Google Maps link']),
    );
  });
});
