/**
 * product.md's rules for real Takeout exports, end to end: archive → inspection (the page's row count,
 * which prices the selection) → conversion → files, read back with a real KML reader.
 */
import { generateTakeout, parseKml } from '@placeport/testkit';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { KML_DOCUMENT_DESCRIPTION, KML_DOCUMENT_NAME } from './core/kml.js';
import { readArchive } from './inspect.js';
import { convertLists } from './pipeline.js';
import { createConverterWorkerApi } from './worker/api.js';
import { htmlAsText } from '../test/read-formats.js';

const quiet = { warn: () => {} };
const pin = (lat: number, lng: number) => `https://www.google.com/maps/search/${lat},${lng}`;
const FTID_URL =
  'https://www.google.com/maps/place/X/data=!4m2!3m1!1s0x14e732fd76f0d90d:0xe5415928d6702b47';

/** A 2025 export: the Tags header, then a row holding the list's tag names only, then places. */
const SHOPS = `${[
  'Title,Note,URL,Tags,Comment',
  ',,,🛴 Fun stores;📚 Bookstores,',
  `Scooter shop,Fast,"${pin(48.85, 2.29)}",🛴 Fun stores,Go early`,
  `Book & Co,,"${pin(35.68, 139.76)}",📚 Bookstores;🛴 Fun stores,`,
  `No pin yet,,${FTID_URL},📚 Bookstores,`,
].join('\n')}\n`;

const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])));

const text = (bytes: ArrayBuffer) => new TextDecoder().decode(bytes);

interface ReadPlacemark {
  name: unknown;
  lngLat: number[];
  description: string | undefined;
  tags: unknown;
}

/** Each placemark as togeojson reads it: name, `[lng, lat]`, balloon text and the tags data. */
function placemarks(kml: string): ReadPlacemark[] {
  type Feature = { properties?: Record<string, unknown> | null; geometry: unknown };
  return parseKml(kml).geojson.features.map((feature: Feature) => {
    const raw = feature.properties?.description as { value: string } | string | undefined;
    return {
      name: feature.properties?.name,
      lngLat: (feature.geometry as { coordinates: number[] }).coordinates.slice(0, 2),
      description: typeof raw === 'object' ? raw.value : raw,
      tags: feature.properties?.tags,
    };
  });
}

function folderOf(kml: string) {
  const folder = parseKml(kml).doc.getElementsByTagName('Folder')[0];
  if (!folder) return undefined;
  const own = (tag: string) =>
    Array.from({ length: folder.childNodes.length }, (_, i) => folder.childNodes[i]).find(
      (node) => node?.nodeName === tag,
    )?.textContent;
  const description = own('description');
  return {
    name: own('name'),
    // Escaped HTML, as a balloon: the text a person reads.
    description: description == null ? description : htmlAsText(description),
    parent: folder.parentNode?.nodeName,
  };
}

describe('a row with neither Title nor URL is not a place', () => {
  it('is not counted in the inspection (the price), nor converted, charged or written', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    const inspected = await api.inspect(zip({ 'Takeout/Saved/Shops.csv': SHOPS }), 'takeout.zip');
    if (!inspected.ok) throw new Error(inspected.error.message);
    // Three places priced, not four: the tag row adds nothing to the authorization.
    expect(inspected.value.lists.map((l) => [l.name, l.rowCount])).toEqual([['Shops', 3]]);

    const converted = await api.convert({ paths: ['Takeout/Saved/Shops.csv'] });
    if (!converted.ok) throw new Error(converted.error.message);
    const [shops] = converted.value.lists;
    expect(converted.value.totals).toEqual({ total: 3, converted: 2, skipped: 1 });
    expect(shops?.stats).toMatchObject({ totalPlaces: 3, converted: 2, skipped: 1 });
    expect(placemarks(text(shops!.files[0]!.bytes)).map((p) => p.name)).toEqual([
      'Scooter shop',
      'Book & Co',
    ]);
    // The failed-places CSV holds the one real place without coordinates, no empty row.
    const failed = text(shops!.failedCsv!.bytes).replace('\uFEFF', '').trim().split('\r\n');
    expect(failed).toHaveLength(2);
    expect(failed[1]).toMatch(/^No pin yet,/);
    expect(shops?.failedCsv?.count).toBe(1);
  });

  it('leaves the `,,,,` row the generator writes after a Tags header uncounted', () => {
    const takeout = generateTakeout({
      seed: 11,
      quirks: false,
      includeNonPlaceLists: false,
      lists: [{ name: 'Tagged', places: 6, header: 'tags', description: false }],
    });
    const [list] = readArchive(takeout.zip);
    expect(takeout.lists[0]?.csv).toMatch(/^Title,Note,URL,Tags,Comment\r?\n,,,,\r?\n/);
    expect(list?.rowCount).toBe(6);
  });
});

describe('tags and the list description reach the KML', () => {
  it('writes "Tags: a, b" in the balloon and the tags as ExtendedData', async () => {
    const [result] = await convertLists(readArchive(zip({ 'Takeout/Saved/Shops.csv': SHOPS })));
    expect(result?.places.map((p) => p.tags)).toEqual([
      ['🛴 Fun stores'],
      ['📚 Bookstores', '🛴 Fun stores'],
      ['📚 Bookstores'],
    ]);
    expect(placemarks(result!.files[0]!.data as string)).toEqual([
      {
        name: 'Scooter shop',
        lngLat: [2.29, 48.85],
        description: `Note: Fast<br><br>Comment: Go early<br><br>Tags: 🛴 Fun stores<br><br><a href="${pin(48.85, 2.29)}">View on Google Maps</a>`,
        tags: '🛴 Fun stores',
      },
      {
        name: 'Book & Co',
        lngLat: [139.76, 35.68],
        description: `Tags: 📚 Bookstores, 🛴 Fun stores<br><br><a href="${pin(35.68, 139.76)}">View on Google Maps</a>`,
        tags: '📚 Bookstores, 🛴 Fun stores',
      },
    ]);
  });

  it('puts a described list in a Folder named after it, inside the seed Document', async () => {
    const described = `Shops for the Paris trip, "spring" & more\n\n${SHOPS}`;
    const [result] = await convertLists(readArchive(zip({ 'Takeout/Saved/Shops.csv': described })));
    expect(result?.description).toBe('Shops for the Paris trip, "spring" & more');
    const kml = result!.files[0]!.data as string;
    expect(folderOf(kml)).toEqual({
      name: 'Shops',
      description: 'Shops for the Paris trip, "spring" & more',
      parent: 'Document',
    });
    const document = parseKml(kml).doc.getElementsByTagName('Document')[0]!;
    expect(document.getElementsByTagName('name')[0]?.textContent).toBe(KML_DOCUMENT_NAME);
    expect(document.getElementsByTagName('description')[0]?.textContent).toBe(
      KML_DOCUMENT_DESCRIPTION,
    );
    expect(placemarks(kml)).toHaveLength(2);
  });

  it('gives every described list of a generated export its Folder, and no Folder to the others', async () => {
    const takeout = generateTakeout({ seed: 12, coordinatesInUrls: true });
    const results = await convertLists(readArchive(takeout.zip));
    const described = takeout.lists.filter((l) => l.isPlaceList && l.description);
    expect(described.length).toBeGreaterThan(0);
    for (const list of takeout.lists.filter((l) => l.isPlaceList)) {
      const result = results.find((r) => r.path === list.path)!;
      expect(folderOf(result.files[0]!.data as string)).toEqual(
        list.description
          ? { name: list.name, description: list.description, parent: 'Document' }
          : undefined,
      );
      expect(result.stats.totalPlaces).toBe(list.places.length);
    }
  });
});

describe('same-named lists in different folders', () => {
  const twins = zip({
    'Takeout/Saved/Default list.csv': `Title,Note,URL,Comment\nA,,"${pin(1, 2)}",\nA?,,${FTID_URL},\n`,
    'Takeout 2/Saved/Default list.csv': `Title,Note,URL,Comment\nB,,"${pin(3, 4)}",\nB?,,${FTID_URL},\n`,
  });
  const filesOf = (results: Awaited<ReturnType<typeof convertLists>>) =>
    results.map((r) => [...r.files.map((k) => k.fileName), r.failedCsvFileName]);

  it('write KML and failed-places CSV names that pair, the first keeping the plain name', async () => {
    expect(filesOf(await convertLists(readArchive(twins)))).toEqual([
      ['Default list.kml', 'Default list - failed-places.csv'],
      ['Default list (Takeout 2).kml', 'Default list (Takeout 2) - failed-places.csv'],
    ]);
  });

  it('keep their names whichever of them are converted', async () => {
    const second = readArchive(twins).filter((l) => l.path.startsWith('Takeout 2/'));
    expect(filesOf(await convertLists(second))).toEqual([
      ['Default list (Takeout 2).kml', 'Default list (Takeout 2) - failed-places.csv'],
    ]);
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(twins, 'takeout.zip');
    const converted = await api.convert({ paths: ['Takeout 2/Saved/Default list.csv'] });
    if (!converted.ok) throw new Error(converted.error.message);
    const [outcome] = converted.value.lists;
    expect([outcome?.files[0]?.fileName, outcome?.failedCsv?.fileName]).toEqual([
      'Default list (Takeout 2).kml',
      'Default list (Takeout 2) - failed-places.csv',
    ]);
    expect(outcome?.name).toBe('Default list');
  });
});

describe('archive messages, as data across the worker boundary', () => {
  it('an archive of image and page lists only', async () => {
    const takeout = generateTakeout({ seed: 13, lists: [] });
    expect(takeout.lists.every((l) => !l.isPlaceList)).toBe(true);
    const api = createConverterWorkerApi({ logger: quiet });
    expect(await api.inspect(takeout.zip, 'takeout.zip')).toEqual({
      ok: false,
      error: {
        code: 'no-place-lists',
        message:
          'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
      },
    });
  });

  it('a download cut short', async () => {
    const whole = generateTakeout({ seed: 14 }).zip;
    const api = createConverterWorkerApi({ logger: quiet });
    for (const cut of [700, Math.floor(whole.length / 2), whole.length - 10]) {
      expect(await api.inspect(whole.subarray(0, cut), 'takeout.zip')).toEqual({
        ok: false,
        error: {
          code: 'incomplete-zip',
          message:
            'This file is not a complete ZIP archive. Download it again from Google Takeout.',
        },
      });
    }
  });
});
