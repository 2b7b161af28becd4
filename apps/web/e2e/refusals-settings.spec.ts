/**
 * Refusals of the real API, provoked through its own settings (issue 17, part 7): demo payments
 * capped as on a server others can reach (`DEMO_PAYMENTS=on` with `TRUST_PROXY=1`: at most 1,000
 * places a payment, `demo_limit`), and a small free budget (`FREE_LINKS_PER_DAY=2`:
 * `free_budget_used`). Each names its cause and what to do, never "try again" where it cannot work.
 * The refusals that are hard to provoke are in `refusals.spec.ts`.
 */
import { generateTakeout } from '@placeport/testkit';
import { zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  paymentDialog,
  resultsHeading,
  selectionDialog,
  toast,
  uploadAndProceed,
} from './support/page';

test.use({ apiSettings: { DEMO_PAYMENTS: 'on', TRUST_PROXY: '1', FREE_LINKS_PER_DAY: '2' } });

const TRY_AGAIN = /try again/i;

test('demo_limit: a selection over the demo cap says so and what to do, and fewer lists proceed', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 7101,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: true,
    lists: [
      { name: 'Everything', places: 995 },
      { name: 'A few more', places: 6 },
    ],
  });
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  await expect(dialog.getByText('1,001 places in total')).toBeVisible();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  const sentence =
    'Demo payments on this server cover at most 1,000 places, and this selection has 1,001 places. Choose fewer lists, then Proceed to Payment (you can convert the others in another run).';
  await expect(dialog.getByRole('alert')).toHaveText(sentence);
  await expect(toast(page, 'Payment Error')).toContainText(sentence);
  await expect(page.getByText(TRY_AGAIN)).toHaveCount(0);

  // Doing what it says works.
  await dialog.getByRole('checkbox', { name: 'A few more', exact: true }).click();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(paymentDialog(page).getByText('Demo mode — no card is charged')).toBeVisible();
});

test("free_budget_used: a free run past the day's free lookups names the cause in the results", async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 7102,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Three cafés', places: 3, kinds: { ftid: 1 } }],
  });
  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Convert for Free' }).click();
  await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
    timeout: 60_000,
  });
  await expect(
    page.getByText(
      "Today's free lookups (2 a day for each address) are used up or too few for these places, so the places that need one were not looked up. A paid selection of 5 places or more looks them all up; or retry them for free tomorrow.",
    ),
  ).toBeVisible();
  await expect(page.getByText(TRY_AGAIN)).toHaveCount(0);
});
