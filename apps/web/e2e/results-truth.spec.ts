/**
 * The results tell the truth and leave no dead end: lookups the service refused are named as
 * such, "Convert more lists" goes back to the selection with the same archive, and Remove asks
 * before it discards files not downloaded.
 */
import { generateTakeout } from '@placeport/testkit';
import { placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { allow, OVERLOADED, refuse } from './support/refusals';
import {
  chooseFile,
  download,
  paymentDialog,
  resultPanel,
  resultsHeading,
  selectionDialog,
  snap,
  uploadAndProceed,
} from './support/page';

test('lookups the service refuses are named, with what to do; "Retry failed places" places them in a new run', async ({
  page,
  demoApi,
}) => {
  // The retry rounds alone wait 75 s: far more room than that, on a busy machine.
  test.setTimeout(6 * 60_000);
  const takeout = generateTakeout({
    seed: 91,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Refused', places: 10, kinds: { ftid: 3, search: 1 } }],
  });
  const [list] = placeLists(takeout);
  const offline = list!.places.filter((place) => place.expected).length;
  // The lookup service is overloaded for this page (503 with Retry-After), every time.
  await refuse(page, 'resolve-urls-batch', OVERLOADED);
  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  const missing = list!.places.length - offline;
  // While the run waits to send them again, the card says so and counts down.
  await expect(
    page.getByText(new RegExp(`${missing} could not be looked up yet: trying again in \\d+ s`)),
  ).toBeVisible({ timeout: 60_000 });
  await snap(page, '45-processing-retry-countdown');
  // The retry rounds wait 5, 10, 20 and 40 s before the results (the service refuses every time).
  await expect(resultsHeading(page)).toBeVisible({ timeout: 150_000 });
  await expect(
    page.getByText(`The lookups of ${missing} places failed: the lookup service was unavailable.`, {
      exact: false,
    }),
  ).toBeVisible();
  const panel = resultPanel(page, 'Refused.kml');
  await expect(
    panel.getByText(`${offline} of ${list!.places.length} places converted`),
  ).toBeVisible();
  await expect(
    panel.getByText('The lookup failed (network, timeout or server error); try again.', {
      exact: false,
    }),
  ).toBeVisible();

  // The service is back: "Retry failed places" is a new run (selection, payment) for just those.
  await allow(page, 'resolve-urls-batch');
  await page.getByRole('button', { name: `Retry failed places (${missing})` }).click();
  const asked = page.getByRole('alertdialog');
  await expect(asked.getByText('Leave files not downloaded?')).toBeVisible();
  await asked.getByRole('button', { name: 'Retry without them' }).click();
  const dialog = selectionDialog(page);
  await expect(dialog.getByRole('checkbox', { name: /Refused \(failed places\)/ })).toBeChecked();
  await expect(dialog.getByText(`${missing} places in total`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  const retried = resultPanel(page, 'Refused (retry).kml');
  await expect(retried.getByText(`${missing} of ${missing} places converted`)).toBeVisible({
    timeout: 60_000,
  });
  const file = await download(page, () =>
    retried.getByRole('link', { name: /^Download KML/ }).click(),
  );
  expect(file.suggestedFilename()).toBe('Refused (retry).kml');
});

test('"Convert more lists" goes back to the same archive; Remove asks before discarding files', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 92,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: true,
    lists: [
      { name: 'Lisbon', places: 6 },
      { name: 'Porto', places: 7 },
    ],
  });
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  await dialog.getByRole('checkbox', { name: /Porto/ }).click();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 1 File(s) Ready', {
    timeout: 60_000,
  });

  // Nothing downloaded yet: going back asks first; keeping the files stays on the results.
  await page.getByRole('button', { name: 'Convert more lists' }).click();
  const asked = page.getByRole('alertdialog');
  await expect(asked.getByText('Leave files not downloaded?')).toBeVisible();
  await asked.getByRole('button', { name: 'Keep my files' }).click();
  await expect(asked).toHaveCount(0);
  await download(page, () => page.getByRole('button', { name: 'Download all (KML, ZIP)' }).click());

  // Everything downloaded (in the ZIP): no question, the lists not converted yet are chosen.
  await page.getByRole('button', { name: 'Convert more lists' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: /Porto/ })).toBeChecked();
  // Lisbon, converted already, is marked so, and not chosen again.
  await expect(dialog.getByRole('checkbox', { name: /Lisbon/ })).not.toBeChecked();
  await expect(
    dialog.getByRole('checkbox', { name: 'Lisbon', exact: true }),
  ).toHaveAccessibleDescription(/Converted in this session/);
  await expect(
    dialog.getByRole('checkbox', { name: 'Porto', exact: true }),
  ).not.toHaveAccessibleDescription(/Converted in this session/);
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(resultPanel(page, 'Porto.kml')).toBeVisible({ timeout: 60_000 });
  // Both lists are converted now: nothing more to convert.
  await expect(page.getByRole('button', { name: 'Back to the lists' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Convert more lists' })).toHaveCount(0);

  // Remove with the Porto files not downloaded: asked, and "Remove files" discards them.
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(asked.getByText('Remove files not downloaded?')).toBeVisible();
  await asked.getByRole('button', { name: 'Remove files' }).click();
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
});

test('after nothing converted, "Retry failed places" goes straight to the selection; Remove after downloading everything asks nothing', async ({
  page,
  demoApi,
}) => {
  // The retry rounds alone wait 75 s: far more room than that, on a busy machine.
  test.setTimeout(6 * 60_000);
  const takeout = generateTakeout({
    seed: 93,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Unreached', places: 7, kinds: { ftid: 1 } }],
  });
  const [list] = placeLists(takeout);
  const places = list!.places.length;
  // The lookup service is overloaded for this page: nothing can be placed.
  await refuse(page, 'resolve-urls-batch', OVERLOADED);
  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  // The retry rounds wait 5, 10, 20 and 40 s before the results (the service refuses every time).
  await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
    timeout: 150_000,
  });
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();

  // No map file exists and nothing was paid: no question, straight to the failed places.
  await allow(page, 'resolve-urls-batch');
  await page.getByRole('button', { name: `Retry failed places (${places})` }).click();
  const dialog = selectionDialog(page);
  await expect(dialog.getByRole('checkbox', { name: /Unreached \(failed places\)/ })).toBeChecked();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  const retried = resultPanel(page, 'Unreached (retry).kml');
  await expect(retried.getByText(`${places} of ${places} places converted`)).toBeVisible({
    timeout: 60_000,
  });

  // Every file downloaded (in the ZIP): Remove asks nothing.
  await download(page, () => page.getByRole('button', { name: 'Download all (KML, ZIP)' }).click());
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});
