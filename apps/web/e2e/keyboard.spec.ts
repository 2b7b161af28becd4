/**
 * The whole journey with the keyboard alone: Tab to move, Enter and Space to press. The only
 * thing not done with keys is picking the file in the chooser the page opens, which is the
 * operating system's dialog, not the page.
 */
import { generateTakeout } from '@placeport/testkit';
import type { Locator, Page } from '@playwright/test';
import { expectedPlacemarks, FAILED_CSV_HEADER, placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { readDownload, readKml } from './support/kml';
import { paymentDialog, resultsHeading, selectionDialog } from './support/page';

/** More Tab presses than any screen of the page has stops. */
const MAX_TABS = 60;

/** Presses Tab until `target` has the focus, as a keyboard user moves through the page. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) {
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('keyboard only: upload, select, authorize, convert and download', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 61,
    lists: [
      { name: 'Reykjavik', places: 21 },
      { name: 'Akureyri', places: 12 },
    ],
  });
  const [reykjavik, akureyri] = placeLists(takeout);
  await page.goto(demoApi.url);
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'Choose File' }));
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(zipUpload(takeout));

  const dialog = selectionDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('2 of 2 lists selected')).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Deselect All' }));
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('0 of 2 lists selected')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();

  const akureyriBox = dialog.getByRole('checkbox', { name: /Akureyri/ });
  await tabTo(page, akureyriBox);
  await page.keyboard.press('Space');
  await expect(akureyriBox).toBeChecked();
  await expect(dialog.getByText('1 of 2 lists selected')).toBeVisible();
  await expect(dialog.getByText('12 places in total')).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Select All', exact: true }));
  await page.keyboard.press('Space');
  await expect(dialog.getByText('2 of 2 lists selected')).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Proceed to Payment' }));
  await page.keyboard.press('Enter');

  const payment = paymentDialog(page);
  await expect(payment.getByText('Demo mode — no card is charged')).toBeVisible();
  await tabTo(page, payment.getByRole('button', { name: 'Authorize Payment & Convert' }));
  await page.keyboard.press('Enter');

  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 2 File(s) Ready', {
    timeout: 30_000,
  });
  // The results heading takes the focus, so the keyboard continues from there.
  await expect(resultsHeading(page)).toBeFocused();

  for (const list of [reykjavik!, akureyri!]) {
    await tabTo(page, page.getByRole('link', { name: `Download KML — ${list.name}` }));
    const started = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const kml = readKml((await readDownload(await started)).text);
    expect(kml.placemarks.map((p) => p.name)).toEqual(expectedPlacemarks(list).map((p) => p.name));
  }
  await tabTo(page, page.getByRole('link', { name: /^Download Failed \(\d+\) — Akureyri$/ }));
  const failed = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await readDownload(await failed)).text).toMatch(FAILED_CSV_HEADER);

  await tabTo(page, page.getByRole('button', { name: 'Remove' }));
  await page.keyboard.press('Enter');
  // Files not downloaded: the page asks, "Keep my files" focused; Tab and Enter discard them.
  const asked = page.getByRole('alertdialog');
  await expect(page.getByText('Drop your ZIP file here').or(asked)).toBeVisible();
  if (await asked.isVisible()) {
    await expect(asked.getByRole('button', { name: 'Keep my files' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(asked.getByRole('button', { name: 'Remove files' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
});
