/**
 * The whole journey with the keyboard alone: Tab to move, Enter and Space to press. The only
 * thing not done with keys is picking the file in the chooser the page opens, which is the
 * operating system's dialog, not the page. Then the focus where the control that had it changes
 * or goes (the dialog's views, the format select, Download all), and the focus drawn under forced
 * colours; and, zoomed in to 200% and 400%, the focused control kept in sight.
 */
import { generateTakeout } from '@placeport/testkit';
import type { Locator, Page } from '@playwright/test';
import { expectedPlacemarks, FAILED_CSV_HEADER, placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { readDownload, readKml } from './support/kml';
import { chooseFile, paymentDialog, resultsHeading, selectionDialog } from './support/page';

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

/**
 * Expects `element`'s `edge` (its outline, or its top border) to be drawn: a style, a width, and a
 * colour that is not transparent.
 */
async function expectDrawn(element: Locator, edge: 'outline' | 'border-top'): Promise<void> {
  const [style, width, colour] = await element.evaluate(
    (target, property) =>
      ['style', 'width', 'color'].map((part) =>
        getComputedStyle(target).getPropertyValue(`${property}-${part}`),
      ),
    edge,
  );
  expect(style, `${edge} style`).not.toBe('none');
  expect(width, `${edge} width`).not.toBe('0px');
  expect(colour, `${edge} colour`).not.toBe('rgba(0, 0, 0, 0)');
}

test('forced colours (Windows High Contrast): the focus is outlined, and the dialog has an edge', async ({
  page,
  demoApi,
}) => {
  // Forced colours leave out box-shadows: the page's focus ring and the dialog's edge.
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto(demoApi.url);
  await tabTo(page, page.getByRole('button', { name: 'Choose File' }));
  await expectDrawn(page.locator(':focus'), 'outline');

  const takeout = generateTakeout({
    seed: 62,
    includeNonPlaceLists: false,
    lists: [{ name: 'Tromsø', places: 6, kinds: { pin: 1 } }],
  });
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(zipUpload(takeout));
  const dialog = selectionDialog(page);
  await expect(dialog).toBeVisible();
  await expectDrawn(dialog, 'border-top');
  await tabTo(page, dialog.getByRole('checkbox', { name: /Tromsø/ }));
  await expectDrawn(page.locator(':focus'), 'outline');
});

test('keyboard: Escape after the dialog changed view gives the focus back to Select Lists', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 63,
    includeNonPlaceLists: false,
    lists: [{ name: 'Bergen', places: 30, kinds: { pin: 1 } }],
  });
  await page.goto(demoApi.url);
  await tabTo(page, page.getByRole('button', { name: 'Choose File' }));
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(zipUpload(takeout));
  const selectLists = page.getByRole('button', { name: 'Select Lists' });

  // Straight from the selection.
  await expect(selectionDialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(selectLists).toBeFocused();

  // From the payment view, which took the place of the selection under the focus.
  await page.keyboard.press('Enter');
  await tabTo(page, selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }));
  await page.keyboard.press('Enter');
  const payment = paymentDialog(page);
  await expect(payment.getByText('Demo mode — no card is charged')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(payment).toBeHidden();
  await expect(selectLists).toBeFocused();

  // From the selection again after Back to Selection.
  await page.keyboard.press('Enter');
  await tabTo(page, selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }));
  await page.keyboard.press('Enter');
  await tabTo(page, payment.getByRole('button', { name: 'Back to Selection' }));
  await page.keyboard.press('Enter');
  await expect(selectionDialog(page).getByText('1 of 1 lists selected')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(selectionDialog(page)).toBeHidden();
  await expect(selectLists).toBeFocused();
});

test('keyboard on the results: the arrow keys step through the formats, and Download all keeps the focus', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 64,
    includeNonPlaceLists: false,
    lists: [{ name: 'Stavanger', places: 30, kinds: { pin: 1 } }],
  });
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 1 File(s) Ready', {
    timeout: 30_000,
  });
  await expect(resultsHeading(page)).toBeFocused();

  // Each arrow key chooses the next format while the files are written; the focus stays, and the
  // files end in the format last chosen (KML, KMZ, GPX).
  const format = page.getByRole('combobox', { name: 'File format' });
  await tabTo(page, format);
  await page.keyboard.press('ArrowDown');
  await expect(format).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(format).toBeFocused();
  await expect(format).toHaveValue('gpx');
  const gpx = page.getByRole('link', { name: 'Download GPX — Stavanger' });
  await expect(gpx).toBeVisible();
  await expect(page.getByRole('link', { name: /^Download (KML|KMZ) —/ })).toHaveCount(0);
  await expect(format).toBeFocused();

  // Download all: its button gives way to the ZIP's link, which takes the focus.
  await tabTo(page, page.getByRole('button', { name: 'Download all (GPX, ZIP)' }));
  const zip = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await zip).suggestedFilename()).toMatch(/\.zip$/);
  await expect(page.getByRole('link', { name: 'Download all (GPX, ZIP)' })).toBeFocused();
});

/**
 * Whether the focused control can be seen: its centre is inside the viewport, and what is drawn
 * there is the control itself (not the dialog's buttons kept at its bottom edge, say).
 */
async function focusSeen(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'nothing is focused';
    const box = element.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) {
      return `outside the viewport (top ${Math.round(box.top)}, height ${innerHeight})`;
    }
    const hit = document.elementFromPoint(x, y);
    return hit && (hit === element || element.contains(hit))
      ? 'seen'
      : `covered by ${hit?.className ?? 'nothing'}`;
  });
}

/** Three lists, so the selection dialog scrolls on a short screen. */
const zoomArchive = () =>
  zipUpload(
    generateTakeout({
      seed: 907,
      lists: [
        { name: 'Reykjavik', places: 30 },
        { name: 'Akureyri', places: 12 },
        { name: 'Hvolsvöllur and the south coast', places: 9 },
      ],
    }),
  );

// WCAG 2.4.11 (focus not obscured), at 400% and 200% zoom (accessibility audit): the dialog
// library moves the focus without scrolling, and the buttons kept at the dialog's bottom edge
// covered a checkbox on a screen 256 px high.
test.describe('zoomed in, the focused control is in sight', () => {
  test.describe('400%: 320 × 256', () => {
    test.use({ viewport: { width: 320, height: 256 } });

    test('as the dialog opens, and on a list checkbox reached by Tab', async ({
      page,
      demoApi,
    }) => {
      await page.goto(demoApi.url);
      await chooseFile(page, zoomArchive());
      const dialog = selectionDialog(page);
      await expect(dialog.getByRole('button', { name: 'Select All', exact: true })).toBeFocused();
      await expect.poll(() => focusSeen(page)).toBe('seen');
      await dialog.getByRole('button', { name: 'Deselect All' }).focus();
      await page.keyboard.press('Tab');
      await expect(dialog.getByRole('checkbox').first()).toBeFocused();
      await expect.poll(() => focusSeen(page)).toBe('seen');
    });
  });

  test.describe('200%: 640 × 450', () => {
    test.use({ viewport: { width: 640, height: 450 } });

    test('Tab wrapping from the last control to the first', async ({ page, demoApi }) => {
      await page.goto(demoApi.url);
      await chooseFile(page, zoomArchive());
      await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
      const payment = paymentDialog(page);
      await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).focus();
      await page.keyboard.press('Tab');
      await expect(payment.getByRole('button', { name: 'Back to Selection' })).toBeFocused();
      await expect.poll(() => focusSeen(page)).toBe('seen');
    });
  });
});
