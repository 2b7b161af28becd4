/**
 * Cancel during processing (issue 17, part 3). A paid run of two lists whose lookups go in two
 * requests of 100 links: the first list's request reaches the real API (which looks its places up
 * on the fake Google), the second list's is held by the test, so the run waits with one list done.
 * Cancel then stops the run: the converter's worker stops its lookups and converts every list with
 * what has coordinates, the page shows those results, and the payment is captured for exactly the
 * places converted (the demo receipt says so).
 */
import { generateTakeout } from '@placeport/testkit';
import type { Page, Route } from '@playwright/test';
import { dollarsFor, placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  expectAccessible,
  paymentDialog,
  receiptLines,
  resultPanel,
  resultsHeading,
  snap,
  uploadAndProceed,
} from './support/page';

/** 100 places the API looks up (one request), then 20 whose request the test holds. */
function twoRequests() {
  const takeout = generateTakeout({
    seed: 8101,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Done', places: 100, kinds: { ftid: 1 } },
      { name: 'Waiting', places: 20, kinds: { ftid: 1 } },
    ],
  });
  const [done, waiting] = placeLists(takeout);
  const ids = (list: typeof done) => new Set(list!.places.map((place) => place.ftid));
  expect(ids(done).size, 'one request of 100 distinct places').toBe(100);
  expect(done!.places.every((place) => place.resolvable && !place.expected)).toBe(true);
  return { takeout, done: done!, waiting: waiting!, waitingIds: ids(waiting) };
}

/** Starts the paid run and holds the request of the second list; resolves once it is held. */
async function runUntilHeld(page: Page, url: string) {
  const archive = twoRequests();
  const held: Route[] = [];
  await page.route('**/api/resolve-urls-batch', async (route) => {
    const urls = (route.request().postDataJSON() as { urls: string[] }).urls;
    const waits = urls.some((link) =>
      [...archive.waitingIds].some((id) => id !== undefined && link.includes(id)),
    );
    if (waits) held.push(route);
    else await route.continue();
  });
  await page.goto(url);
  await uploadAndProceed(page, zipUpload(archive.takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  const card = page.getByRole('region', { name: 'Converting your places' });
  // The first list's 100 places are answered; the second list's request waits.
  await expect(card.getByText(/^Looking up 100 of 120 places/)).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => held.length).toBe(1);
  return { ...archive, card, held };
}

test('Cancel keeps the list done, converts the rest with what it has, and captures what converted', async ({
  page,
  demoApi,
}) => {
  const { card, held, done, waiting } = await runUntilHeld(page, demoApi.url);
  await expectAccessible(page, 'processing, with Cancel');
  await snap(page, '50-cancel-before');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(resultsHeading(page)).toHaveText('Conversion Stopped - 1 File(s) Ready', {
    timeout: 60_000,
  });
  await expect(
    page.getByText(
      `You stopped the conversion: ${waiting.places.length} places were not looked up. They are in the failed-places CSVs, and "Retry failed places" looks them up in a new run.`,
    ),
  ).toBeVisible();
  await expect(
    resultPanel(page, 'Done.kml').getByText(`100 of ${done.places.length} places converted`),
  ).toBeVisible();
  const rest = resultPanel(page, 'Waiting');
  await expect(rest.getByText(`0 of ${waiting.places.length} places converted`)).toBeVisible();
  await expect(rest.getByText('Not looked up: the run was interrupted.')).toBeVisible();
  await expect(
    page.getByRole('button', { name: `Retry failed places (${waiting.places.length})` }),
  ).toBeVisible();

  // The payment: captured for the 100 places converted, the rest of the hold released.
  expect(await receiptLines(page)).toMatchObject({
    'Authorized (held)': dollarsFor(120),
    Charged: dollarsFor(100),
    Released: dollarsFor(20),
  });
  await snap(page, '51-cancel-results');
  for (const route of held) await route.abort().catch(() => undefined);
});
