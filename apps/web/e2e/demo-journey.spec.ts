/**
 * The whole journey with demo payments, on a realistic generated Takeout archive: upload through
 * the file chooser, choose lists, authorize, watch the processing card, read the results and
 * download every file. Each KML is read back with togeojson and must hold exactly the places of
 * its list, with the right names and coordinates, including those the API resolved through the
 * fake Google.
 */
import { generateTakeout } from '@placeport/testkit';
import {
  countsOf,
  failedCsvFields,
  dollarsFor,
  expectedPlacemarks,
  failedPlaces,
  placeLists,
  safeStem,
  zipUpload,
} from './support/archives';
import { expect, test } from './support/fixtures';
import { readDownload, readFailedCsv, readKml } from './support/kml';
import {
  chooseFile,
  download,
  expectReceiptDated,
  paymentDialog,
  receiptLines,
  resultPanel,
  resultsHeading,
  selectionDialog,
} from './support/page';
import { processingSeen, watchProcessing } from './support/stages';

/** What the failed-places CSV makes of a cell a spreadsheet would run (product.md "Outputs"). */
function neutralised(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** The seed's size display: base 1024, one decimal at most. */
function kilobytes(bytes: number): string {
  return `${Math.round((bytes / 1024) * 10) / 10} KB`;
}

test('demo payments: upload, select, authorize, convert and download every list', async ({
  page,
  demoApi,
  fakeGoogle,
}) => {
  const takeout = generateTakeout({ seed: 2026 });
  const lists = placeLists(takeout);
  const dropped = lists.find((list) => list.name === 'Starred places')!;
  const chosen = lists.filter((list) => list !== dropped);
  const all = countsOf(lists);
  const expected = countsOf(chosen);
  fakeGoogle.clearRequests();

  await page.goto(demoApi.url);
  await expect(page.getByRole('heading', { name: 'PlacePort', level: 1 })).toBeVisible();
  await chooseFile(page, zipUpload(takeout, 'takeout-2026.zip'));

  // The upload card names the file, its size and what was found.
  await expect(page.getByText('takeout-2026.zip', { exact: true })).toBeVisible();
  await expect(page.getByText(kilobytes(takeout.zip.length), { exact: true })).toBeVisible();
  await expect(page.getByText('ZIP archive', { exact: true })).toBeVisible();
  await expect(page.getByText(`Found ${lists.length} saved place list(s)`)).toBeVisible();

  // Selection: every place list (none of the image/page lists), with counts and sizes.
  const dialog = selectionDialog(page);
  await expect(dialog).toBeVisible();
  const rows = dialog.getByRole('checkbox');
  await expect(rows).toHaveCount(lists.length);
  for (const list of lists) {
    const row = dialog.getByRole('listitem').filter({ hasText: list.name });
    await expect(row.getByText(list.name, { exact: true })).toBeVisible();
    await expect(
      row.getByText(`${list.places.length} places · ${kilobytes(list.bytes.length)}`),
    ).toBeVisible();
  }
  await expect(dialog.getByText(`${lists.length} of ${lists.length} lists selected`)).toBeVisible();
  await expect(dialog.getByText(`${all.total} places in total`)).toBeVisible();

  await dialog.getByRole('button', { name: 'Deselect All' }).click();
  await expect(dialog.getByText(`0 of ${lists.length} lists selected`)).toBeVisible();
  await expect(dialog.getByText('0 places in total')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();

  await dialog.getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(dialog.getByText(`${lists.length} of ${lists.length} lists selected`)).toBeVisible();
  await dialog.getByRole('checkbox', { name: new RegExp(dropped.name) }).click();
  await expect(
    dialog.getByText(`${chosen.length} of ${lists.length} lists selected`),
  ).toBeVisible();
  await expect(dialog.getByText(`${expected.total} places in total`)).toBeVisible();
  // Places without a location (Takeout's 0,0) or a usable link are counted in the lists but never
  // in the maximum charge.
  const unplaceable = expected.total - expected.chargeable;
  expect(expected.noLocation, 'the archive has places without a location').toBeGreaterThan(0);
  expect(unplaceable, 'and places without a usable link').toBeGreaterThan(expected.noLocation);
  await expect(
    dialog.getByText(
      `${unplaceable} places without a location or a usable link are never charged.`,
      { exact: false },
    ),
  ).toBeVisible();
  const intentCreated = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/create-payment-intent',
  );
  const started = Date.now();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  const { paymentIntentId } = (await (await intentCreated).json()) as { paymentIntentId: string };

  // Payment view: demo panel, the counts and the maximum charge.
  const payment = paymentDialog(page);
  await expect(payment.getByText('Demo mode — no card is charged')).toBeVisible();
  // The payment view counts the places that can be placed: the maximum charge multiplies out.
  await expect(payment.getByText(`${expected.chargeable} places`, { exact: true })).toBeVisible();
  await expect(payment.getByText('$0.10', { exact: true })).toBeVisible();
  await expect(
    payment.getByRole('definition').filter({ hasText: dollarsFor(expected.chargeable) }),
  ).toBeVisible();
  await watchProcessing(page);
  await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();

  // Processing: the card appears and walks through the seed's four steps in order.
  await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Converting your places' }).getByRole('listitem'),
  ).toContainText([
    'Validating CSV file structure',
    'Extracting coordinates from URLs',
    'Converting to KML format',
    'Preparing download',
  ]);
  await expect(page.getByRole('progressbar', { name: 'Conversion progress' })).toBeVisible();
  await expect(resultsHeading(page)).toHaveText(
    `Conversion Complete - ${chosen.length} File(s) Ready`,
    { timeout: 30_000 },
  );
  const seen = await processingSeen(page);
  // Each list goes through the first three steps (seed section 4); the four appear in order.
  expect([...new Set(seen.steps)]).toEqual([
    'Validating CSV file structure',
    'Extracting coordinates from URLs',
    'Converting to KML format',
    'Preparing download',
  ]);
  expect(seen.steps.at(-1)).toBe('Preparing download');
  // The bar never shows 100% before the results: the processing card stops at 99% at most.
  expect(Math.max(...seen.percents)).toBeLessThanOrEqual(99);
  expect(seen.percents.at(-1)).toBeGreaterThanOrEqual(90);
  expect([...seen.percents].sort((a, b) => a - b)).toEqual(seen.percents);
  await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeHidden();

  // Results: the payment summary charges exactly the converted places.
  await expect(page.getByRole('heading', { name: 'Payment Summary' })).toBeVisible();
  await expect(
    page.getByText(`Successfully converted: ${expected.converted} places`),
  ).toBeVisible();
  await expect(page.getByText(`Final charge: ${dollarsFor(expected.converted)}`)).toBeVisible();
  // The receipt of the demo payment: held, charged, released, its reference and the date.
  expect(await receiptLines(page)).toMatchObject({
    'Authorized (held)': dollarsFor(expected.chargeable),
    Charged: dollarsFor(expected.converted),
    Released: dollarsFor(expected.chargeable - expected.converted),
    Reference: paymentIntentId,
  });
  await expectReceiptDated(page, started);
  await expect(page.getByText(/Download your files now, before you close this tab/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Next Steps' })).toBeVisible();
  await expect(resultPanel(page, `${safeStem(dropped.name)}.kml`)).toHaveCount(0);

  // Every KML and failed-places CSV, read back.
  let resolvedPlacemarks = 0;
  for (const list of chosen) {
    const placemarks = expectedPlacemarks(list);
    const failed = failedPlaces(list);
    const panel = resultPanel(page, `${safeStem(list.name)}.kml`);
    await expect(
      panel.getByText(`${placemarks.length} of ${list.places.length} places converted`),
    ).toBeVisible();
    await expect(panel.getByRole('definition')).toHaveText([
      String(list.places.length),
      String(placemarks.length),
      String(failed.length),
    ]);

    const kmlFile = await readDownload(
      await download(page, () =>
        panel.getByRole('link', { name: `Download KML — ${list.name}` }).click(),
      ),
    );
    expect(kmlFile.fileName).toBe(`${safeStem(list.name)}.kml`);
    const read = readKml(kmlFile.text);
    expect(read.documentName).toBe('My Saved Places');
    expect(read.placemarks.map((p) => p.name)).toEqual(placemarks.map((p) => p.name));
    read.placemarks.forEach((placemark, index) => {
      const want = placemarks[index]!;
      expect(Math.abs(placemark.lngLat[0] - want.lngLat[0]), placemark.name).toBeLessThan(1e-7);
      expect(Math.abs(placemark.lngLat[1] - want.lngLat[1]), placemark.name).toBeLessThan(1e-7);
    });
    resolvedPlacemarks += list.places.filter((p) => !p.expected && p.resolvable).length;

    const failedLink = panel.getByRole('link', {
      name: `Download Failed (${failed.length}) — ${list.name}`,
    });
    const csvFile = await readDownload(await download(page, () => failedLink.click()));
    expect(csvFile.fileName).toBe(`${safeStem(list.name)} - failed-places.csv`);
    const csv = readFailedCsv(csvFile.text);
    expect(csv.fields).toEqual(failedCsvFields(list));
    expect(csv.rows.map((row) => [row.Title, row.URL])).toEqual(
      failed.map((place) => [neutralised(place.title), place.url]),
    );
    // Every failed place says why, in words (product.md, Outputs).
    for (const row of csv.rows) expect(row.Reason, row.Title).toMatch(/^[A-Z].{10,}/);
  }

  // The resolved places really came from the fake Google, through the API.
  expect(resolvedPlacemarks).toBeGreaterThan(50);
  expect(fakeGoogle.requests.length).toBeGreaterThan(0);
});
