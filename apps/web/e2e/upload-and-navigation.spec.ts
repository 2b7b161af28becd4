/**
 * The upload errors of the seed, each under the right heading of the error panel; going back from
 * the payment view to the selection; the browser's Back closing the dialog; a double click on Proceed to Payment, whose second click
 * lands outside the shorter payment view, keeping it open; Remove resetting everything; and the
 * 404 screen.
 */
import { generateTakeout } from '@placeport/testkit';
import { countsOf, placeLists, uploadOf, zipUpload, type UploadFile } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  paymentDialog,
  resultPanel,
  resultsHeading,
  selectionDialog,
  snap,
  uploadAndProceed,
} from './support/page';
import type { Page } from '@playwright/test';

function uploadCard(page: Page) {
  return page.getByRole('region', { name: 'Upload Your Takeout Archive' });
}

const uploadErrors: Array<{
  what: string;
  file: UploadFile;
  heading: string;
  message: string;
  refusal: string | null;
  nextStep?: string;
  /** The screenshot's name, with a next step (its width is added). */
  shot?: string;
}> = [
  {
    what: 'a file that is not a .zip',
    file: uploadOf(
      'Saved Places.json',
      '{"type":"FeatureCollection","features":[]}',
      'application/json',
    ),
    heading: 'Invalid File',
    message: 'Please upload a ZIP file from Google Takeout with your saved places.',
    refusal:
      '“Saved Places.json” was not accepted: it is one file from your Takeout export. Choose the .zip file you downloaded from Google Takeout: it holds all your lists.',
  },
  {
    what: "a .tgz (Takeout's other file type)",
    file: uploadOf(
      'takeout-20261127T103000Z-001.tgz',
      new Uint8Array([0x1f, 0x8b, 8, 0]),
      'application/gzip',
    ),
    heading: 'Invalid File',
    message: 'Please upload a ZIP file from Google Takeout with your saved places.',
    refusal:
      '“takeout-20261127T103000Z-001.tgz” was not accepted: it is a .tgz archive, and this page reads the .zip that Google Takeout makes by default. In Google Takeout, choose the file type “.zip” and export again.',
  },
  {
    what: 'a zip with no place lists (only the image and page lists)',
    file: zipUpload(generateTakeout({ seed: 51, lists: [] }), 'takeout-images-only.zip'),
    heading: 'Invalid File',
    message:
      'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
    refusal: null,
  },
  {
    what: 'a part of an export in several that holds no list',
    file: zipUpload(
      generateTakeout({ seed: 55, lists: [], includeNonPlaceLists: false }),
      'takeout-20261127T103000Z-002.zip',
    ),
    heading: 'Invalid File',
    message: 'No CSV files found in the zip file.',
    refusal: null,
    nextStep:
      'This is part 2 of an export in several parts: choose the part that holds the "Saved" folder.',
    shot: 'upload-part-without-lists',
  },
  {
    what: 'the first part of an export, holding no list (Takeout names an only part -001 too)',
    file: zipUpload(
      generateTakeout({ seed: 56, lists: [], includeNonPlaceLists: false }),
      'takeout-20261127T103000Z-001.zip',
    ),
    heading: 'Invalid File',
    message: 'No CSV files found in the zip file.',
    refusal: null,
    nextStep:
      'If this export came in several parts, choose the part that holds the "Saved" folder; if it is the only one, export again from Google Takeout with Saved selected.',
    shot: 'upload-part-one-without-lists',
  },
  {
    what: 'a broken zip (a download cut short)',
    file: uploadOf(
      'takeout-cut-short.zip',
      generateTakeout({ seed: 52 }).zip.subarray(0, 700),
      'application/zip',
    ),
    heading: 'Invalid File',
    message: 'This file is not a complete ZIP archive. Download it again from Google Takeout.',
    refusal: null,
  },
];

for (const { what, file, heading, message, refusal, nextStep, shot } of uploadErrors) {
  test(`upload error: ${what}`, async ({ page, demoApi }) => {
    await page.goto(demoApi.url);
    await chooseFile(page, file);
    const alert = uploadCard(page).getByRole('alert');
    await expect(alert.getByText(heading, { exact: true })).toBeVisible();
    await expect(alert.getByText(message, { exact: true })).toBeVisible();
    // The file is not kept: the drop zone is back, no dialog opened.
    await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
    await expect(page.getByText(file.name, { exact: true })).toHaveCount(0);
    await expect(selectionDialog(page)).toHaveCount(0);
    if (refusal) {
      // Which file and why is said once, in the panel under the seed's message.
      await expect(alert.getByText(refusal, { exact: true })).toBeVisible();
      await expect(page.getByText(/was not accepted/)).toHaveCount(1);
    }
    if (nextStep) {
      await expect(alert.getByText(nextStep, { exact: true })).toBeVisible();
      await snap(page, shot!, false);
      await page.setViewportSize({ width: 390, height: 844 });
      await snap(page, shot!, false);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    if (file.name.endsWith('.tgz')) {
      await snap(page, 'upload-refused-tgz', false);
      await page.setViewportSize({ width: 390, height: 844 });
      await snap(page, 'upload-refused-tgz');
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // A good archive afterwards clears the error.
    await chooseFile(page, zipUpload(generateTakeout({ seed: 53 })));
    await expect(selectionDialog(page)).toBeVisible();
    await expect(uploadCard(page).getByRole('alert')).toHaveCount(0);
  });
}

test('Back to Selection returns to the lists as they were chosen', async ({ page, demoApi }) => {
  const takeout = generateTakeout({ seed: 54 });
  const lists = placeLists(takeout);
  const kept = lists.slice(1);
  const keptPlaces = kept.reduce((sum, list) => sum + list.places.length, 0);
  // The payment view counts the places that can be placed (the maximum charge's).
  const keptChargeable = countsOf(kept).chargeable;
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  await dialog.getByRole('checkbox', { name: new RegExp(lists[0]!.name) }).click();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();

  const payment = paymentDialog(page);
  await expect(payment.getByText(`${keptChargeable} places`, { exact: true })).toBeVisible();
  await payment.getByRole('button', { name: 'Back to Selection' }).click();

  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(`${kept.length} of ${lists.length} lists selected`)).toBeVisible();
  await expect(dialog.getByText(`${keptPlaces} places in total`)).toBeVisible();
  await expect(
    dialog.getByRole('checkbox', { name: new RegExp(lists[0]!.name) }),
  ).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Select All', exact: true }).click();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(
    payment.getByText(`${countsOf(lists).chargeable} places`, { exact: true }),
  ).toBeVisible();
});

test("the browser's Back closes the dialog and keeps the archive chosen; the next Back leaves", async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({ seed: 56 });
  const lists = placeLists(takeout);
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  await expect(dialog).toBeVisible();

  // Back from the selection: the dialog closes as Escape closes it, the archive stays chosen.
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  expect(new URL(page.url()).origin).toBe(new URL(demoApi.url).origin);
  const selectLists = page.getByRole('button', { name: 'Select Lists' });
  await expect(selectLists).toBeVisible();

  // Back from the payment view: the same, and the selection is kept for the next time.
  await selectLists.click();
  await dialog.getByRole('checkbox', { name: new RegExp(lists[0]!.name) }).click();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  const payment = paymentDialog(page);
  await expect(payment).toBeVisible();
  await page.goBack();
  await expect(payment).toHaveCount(0);
  await expect(dialog).toHaveCount(0);
  await selectLists.click();
  await expect(
    dialog.getByText(`${lists.length - 1} of ${lists.length} lists selected`),
  ).toBeVisible();

  // Closed by the page (Escape), the dialog leaves no step behind: Back now leaves the page.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.goBack();
  await expect.poll(() => page.url()).toBe('about:blank');
});

test('a double click on Proceed to Payment keeps the payment view, though its second click lands outside it', async ({
  page,
  demoApi,
}) => {
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(generateTakeout({ seed: 55 })));
  const proceed = selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' });
  const box = (await proceed.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await proceed.dblclick();

  const payment = paymentDialog(page);
  await expect(payment.getByRole('button', { name: 'Authorize Payment & Convert' })).toBeVisible();
  // The payment view is shorter than the selection: the second click was on the overlay.
  expect(
    await page.evaluate(
      ([px, py]) => document.elementFromPoint(px!, py!)?.className ?? null,
      [x, y],
    ),
  ).toContain('dialog-overlay');
  await page.mouse.click(x, y);
  await expect(payment).toBeVisible();
  await snap(page, '17-payment-after-double-click', false);
  // Escape still closes it, as in the seed.
  await page.keyboard.press('Escape');
  await expect(payment).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Select Lists' })).toBeFocused();
});

test.describe('Remove', () => {
  // The page's CSP allows no fetch of blob: URLs; lifted here only to prove they are revoked.
  test.use({ bypassCSP: true });

  test('Remove resets everything: file, lists, results, downloads and errors', async ({
    page,
    demoApi,
  }) => {
    const takeout = generateTakeout({
      seed: 55,
      quirks: false,
      includeNonPlaceLists: false,
      lists: [{ name: 'Kyoto', places: 9, kinds: { pin: 1 } }],
    });
    await page.goto(demoApi.url);
    await uploadAndProceed(page, zipUpload(takeout, 'kyoto.zip'));
    await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
    await expect(resultsHeading(page)).toBeVisible({ timeout: 30_000 });
    const link = resultPanel(page, 'Kyoto.kml').getByRole('link', { name: 'Download KML — Kyoto' });
    const blobUrl = await link.getAttribute('href');
    expect(blobUrl).toMatch(/^blob:/);
    expect(await page.evaluate(async (url) => (await fetch(url)).ok, blobUrl!)).toBe(true);

    await uploadCard(page).getByRole('button', { name: 'Remove' }).click();
    // Nothing was downloaded: the page asks first.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove files' }).click();

    await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
    await expect(page.getByText('kyoto.zip')).toHaveCount(0);
    await expect(resultsHeading(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Converting your places' })).toHaveCount(0);
    await expect(uploadCard(page).getByRole('alert')).toHaveCount(0);
    // The old downloads are gone from memory too.
    const stillThere = await page.evaluate(
      (url) =>
        fetch(url).then(
          () => true,
          () => false,
        ),
      blobUrl!,
    );
    expect(stillThere).toBe(false);

    // The next archive starts from a clean slate: all its lists chosen, no payment remembered.
    const next = generateTakeout({ seed: 56 });
    await chooseFile(page, zipUpload(next));
    const count = placeLists(next).length;
    await expect(
      selectionDialog(page).getByText(`${count} of ${count} lists selected`),
    ).toBeVisible();
    await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(
      paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }),
    ).toBeEnabled();
  });
});

test('any other path shows the 404 page, which leads back to the converter', async ({
  page,
  demoApi,
}) => {
  await page.goto(`${demoApi.url}/saved/places/nowhere`);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expect(page.getByText('Drop your ZIP file here')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to the converter' }).click();
  await expect(page).toHaveURL(`${demoApi.url}/`);
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
});
