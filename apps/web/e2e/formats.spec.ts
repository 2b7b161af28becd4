/**
 * A real-looking archive with saved lists and starred places (`Saved Places.json`, new format, with
 * `[0, 0]` places that need a lookup), converted in the page and downloaded in another format, one
 * list at a time and as one ZIP ("Download all"), then as KMZ made by the browser's own compressor.
 * Every file is read back by an independent reader.
 */
import { generateTakeout, type GeneratedSavedPlace } from '@placeport/testkit';
import { gpx as gpxToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { strFromU8, unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import {
  FAILED_CSV_HEADER,
  expectedPlacemarks,
  placeLists,
  zipUpload,
  type ExpectedPlacemark,
} from './support/archives';
import { expect, test } from './support/fixtures';
import { readDownload, readKml } from './support/kml';
import {
  chooseFile,
  download,
  paymentDialog,
  resultsHeading,
  selectionDialog,
} from './support/page';

function gpxPoints(text: string): ExpectedPlacemark[] {
  const doc = new DOMParser().parseFromString(text, 'text/xml');
  const features = gpxToGeoJson(doc as never).features as Array<{
    properties: { name?: string } | null;
    geometry: { coordinates: number[] };
  }>;
  return features.map((feature) => ({
    name: String(feature.properties?.name),
    lngLat: [feature.geometry.coordinates[0]!, feature.geometry.coordinates[1]!],
  }));
}

function starredPlacemarks(places: readonly GeneratedSavedPlace[]): ExpectedPlacemark[] {
  return places.flatMap((place) => {
    const at = place.expected ?? place.resolvable;
    return at ? [{ name: place.title?.trim() || 'Dropped pin', lngLat: [at.lng, at.lat] }] : [];
  });
}

test('saved lists and starred places convert, then download as GPX and KMZ, one by one and as one ZIP', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 77,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Want to go', places: 12 },
      { name: 'Food', places: 9 },
    ],
    savedPlacesJson: { format: 'new', places: 600 },
  });
  const starred = takeout.savedPlaces!.places;
  expect(starred.some((place) => place.zero)).toBe(true);
  const lists = placeLists(takeout);

  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  await expect(dialog.getByRole('checkbox')).toHaveCount(3);
  const row = dialog.getByRole('listitem').filter({ hasText: 'Saved Places' });
  await expect(row.getByText('600 places', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 3 File(s) Ready', {
    timeout: 60_000,
  });

  // The format applies to every download; the buttons say which one they give.
  await page.getByLabel('File format').selectOption('gpx');
  const gpxLink = page.getByRole('link', { name: 'Download GPX — Saved Places' });
  await expect(gpxLink).toBeVisible();
  await expect(page.getByRole('link', { name: /Download KML/ })).toHaveCount(0);
  const single = await readDownload(await download(page, () => gpxLink.click()));
  expect(single.fileName).toBe('Saved Places.gpx');
  expect(gpxPoints(single.text)).toEqual(starredPlacemarks(starred));

  // Download all: one ZIP of the run in the chosen format, failed-places CSVs included.
  const zip = await download(page, () =>
    page.getByRole('button', { name: 'Download all (GPX, ZIP)' }).click(),
  );
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  const entries = unzipSync(new Uint8Array(await readFile(await zip.path())));
  const names = Object.keys(entries);
  expect(names.filter((name) => name.endsWith('.gpx')).sort()).toEqual(
    ['Food.gpx', 'Saved Places.gpx', 'Want to go.gpx'].sort(),
  );
  for (const list of lists) {
    expect(gpxPoints(strFromU8(entries[`${list.name}.gpx`]!))).toEqual(expectedPlacemarks(list));
  }
  expect(gpxPoints(strFromU8(entries['Saved Places.gpx']!))).toEqual(starredPlacemarks(starred));
  for (const name of names.filter((n) => n.endsWith('.csv'))) {
    expect(name).toMatch(/ - failed-places\.csv$/);
    expect(strFromU8(entries[name]!)).toMatch(FAILED_CSV_HEADER);
  }

  // KMZ, made in the page's worker by the browser's own compressor: each file is one doc.kml,
  // compressed at zlib's default level (flag bits 1-2 clear), and "Download all" holds those same
  // files, stored as they are.
  await page.getByLabel('File format').selectOption('kmz');
  const kmzLink = page.getByRole('link', { name: 'Download KMZ — Saved Places' });
  await expect(kmzLink).toBeVisible();
  const kmzDownload = await download(page, () => kmzLink.click());
  expect(kmzDownload.suggestedFilename()).toBe('Saved Places.kmz');
  const kmz = new Uint8Array(await readFile(await kmzDownload.path()));
  expect(Object.keys(unzipSync(kmz))).toEqual(['doc.kml']);
  expect((kmz[6]! >> 1) & 3).toBe(0);
  expect(readKml(strFromU8(unzipSync(kmz)['doc.kml']!)).placemarks).toEqual(
    starredPlacemarks(starred),
  );
  const kmzZip = await download(page, () =>
    page.getByRole('button', { name: 'Download all (KMZ, ZIP)' }).click(),
  );
  const zipped = unzipSync(new Uint8Array(await readFile(await kmzZip.path())));
  expect(zipped['Saved Places.kmz']).toEqual(kmz);
  for (const list of lists) {
    const inner = unzipSync(zipped[`${list.name}.kmz`]!);
    expect(readKml(strFromU8(inner['doc.kml']!)).placemarks).toEqual(expectedPlacemarks(list));
  }

  // Back to KML: the files of the other format come back, and the page still offers the receipt.
  await page.getByLabel('File format').selectOption('kml');
  await expect(page.getByRole('link', { name: 'Download KML — Saved Places' })).toBeVisible();
});
