/**
 * The page asks before it is left while converting and while results are not downloaded
 * (product.md "Money"). The browser's own `beforeunload` dialog is what a person sees: closing the
 * tab (`page.close({ runBeforeUnload: true })`) must summon it, staying must keep the page as it
 * was, and once every file is downloaded (or the results removed) the tab closes without a word.
 */
import { generateTakeout, type GeneratedTakeout } from '@placeport/testkit';
import type { Page } from '@playwright/test';
import {
  countsOf,
  expectedPlacemarks,
  failedPlaces,
  placeLists,
  zipUpload,
} from './support/archives';
import { expect, test } from './support/fixtures';
import {
  answerDialogs,
  type DialogLog,
  download,
  paymentDialog,
  removeArchive,
  resultPanel,
  resultsHeading,
  uploadAndProceed,
} from './support/page';

/** Chooses the archive, every list, and authorizes the demo payment. */
async function convert(page: Page, takeout: GeneratedTakeout): Promise<void> {
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
}

/** Closes the tab as a person does; the page's answer is in `dialogs`. */
async function closeTab(page: Page, dialogs: DialogLog, expected: number): Promise<void> {
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => dialogs.types.length).toBe(expected);
}

/** One list whose pins need no lookup and whose places without a link fail: a KML and a CSV. */
function smallArchive(seed: number): {
  takeout: GeneratedTakeout;
  converted: number;
  failed: number;
} {
  const takeout = generateTakeout({
    seed,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Kyoto', places: 7, kinds: { pin: 3, 'no-link': 1 } }],
  });
  const [list] = placeLists(takeout);
  const converted = expectedPlacemarks(list!).length;
  const failed = failedPlaces(list!).length;
  expect(converted, 'the seed gives places with a pin').toBeGreaterThan(0);
  expect(failed, 'the seed gives places without a link').toBeGreaterThan(0);
  // Places without a link are never held: enough others for a paid (demo) authorization.
  expect(countsOf([list!]).chargeable, 'a paid selection').toBeGreaterThanOrEqual(5);
  return { takeout, converted, failed };
}

test('during a conversion, closing the tab asks first, and staying keeps the conversion', async ({
  page,
  demoApi,
  fakeGoogle,
}) => {
  const takeout = generateTakeout({
    seed: 81,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Lisbon', places: 6, kinds: { ftid: 1 } }],
  });
  const waiting = placeLists(takeout)[0]!.places[0]!;
  // Its page never answers, so the conversion stays on "Extracting coordinates from URLs".
  fakeGoogle.setPlace(waiting.cid!, { hang: true });
  const dialogs = answerDialogs(page, 'stay');

  await page.goto(demoApi.url);
  await convert(page, takeout);
  const processing = page.getByRole('heading', { name: 'Converting your places' });
  await expect(processing).toBeVisible();
  await expect(page.locator('[aria-current="step"]')).toContainText(
    'Extracting coordinates from URLs',
  );

  await closeTab(page, dialogs, 1);
  expect(dialogs.types).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);
  await expect(processing).toBeVisible();
  await expect(resultsHeading(page)).toHaveCount(0);
});

test('results ask before the tab is closed until every file is downloaded', async ({
  page,
  demoApi,
}) => {
  const dialogs = answerDialogs(page, 'stay');
  const { takeout, converted, failed } = smallArchive(88);
  await page.goto(demoApi.url);
  await convert(page, takeout);
  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 1 File(s) Ready');
  const panel = resultPanel(page, 'Kyoto.kml');
  await expect(panel.getByText(`${converted} of 7 places converted`)).toBeVisible();

  await closeTab(page, dialogs, 1);
  await expect(resultsHeading(page)).toBeVisible();

  // The map file alone is not everything: the failed-places CSV would be lost too.
  await download(page, () => panel.getByRole('link', { name: 'Download KML — Kyoto' }).click());
  await closeTab(page, dialogs, 2);
  await expect(resultsHeading(page)).toBeVisible();

  await download(page, () =>
    panel.getByRole('link', { name: `Download Failed (${failed}) — Kyoto` }).click(),
  );
  // Every file is saved: the tab closes, and no dialog was shown for it.
  dialogs.answer = 'leave';
  const closed = page.waitForEvent('close');
  await page.close({ runBeforeUnload: true });
  await closed;
  expect(dialogs.types).toEqual(['beforeunload', 'beforeunload']);
});

test('Remove drops the results, and leaving asks nothing more', async ({ page, demoApi }) => {
  const dialogs = answerDialogs(page, 'leave');
  await page.goto(demoApi.url);
  await convert(page, smallArchive(83).takeout);
  const panel = resultPanel(page, 'Kyoto.kml');
  await download(page, () => panel.getByRole('link', { name: 'Download KML — Kyoto' }).click());
  await removeArchive(page);
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();

  await page.reload();
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
  expect(dialogs.types).toEqual([]);
});
