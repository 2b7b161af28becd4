/**
 * The other ways a conversion can end: nothing converts (the authorization is cancelled, and the
 * receipt releases everything held), the selection is too small to charge (free, no payment
 * step), and a list fails validation (its skipped panel, while the other lists convert).
 */
import { generateTakeout } from '@placeport/testkit';
import {
  countsOf,
  dollarsFor,
  expectedPlacemarks,
  placeLists,
  safeStem,
  withoutLocation,
  zipUpload,
} from './support/archives';
import { expect, test } from './support/fixtures';
import { readDownload, readKml } from './support/kml';
import {
  chooseFile,
  download,
  paymentDialog,
  receiptLines,
  resultPanel,
  resultsHeading,
  selectionDialog,
  uploadAndProceed,
} from './support/page';
import { useStripeShim } from './support/stripe';

test('Payment Cancelled: when no place converts, the authorization is cancelled and nothing is charged', async ({
  page,
  stripeApi,
  fakeStripe,
  fakeGoogle,
}) => {
  const takeout = generateTakeout({
    seed: 41,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Nowhere', places: 8, kinds: { 'no-link': 1, cid: 3 } }],
  });
  // Google has no location for any place it is asked about.
  withoutLocation(fakeGoogle, takeout);
  // The places without a link are never held: the card is authorized for the others only.
  const { chargeable } = countsOf(placeLists(takeout));
  expect(chargeable, 'the seed gives both kinds, and a paid selection').toBeGreaterThanOrEqual(5);
  expect(chargeable).toBeLessThan(8);
  const held = dollarsFor(chargeable);
  await useStripeShim(page, fakeStripe.url);
  const before = new Set(fakeStripe.paymentIntents().map((intent) => intent.id));
  await page.goto(stripeApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  const payment = paymentDialog(page);
  await expect(payment.getByRole('definition').filter({ hasText: held })).toBeVisible();
  await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();

  await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
  await expect(
    page.getByText(
      'No places were converted, so your payment authorization has been cancelled. You have not been charged.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment Summary' })).toHaveCount(0);
  // A list with no place placed is named as a list: no "Nowhere.kml" for a file that does not exist.
  const panel = resultPanel(page, 'Nowhere');
  await expect(panel.getByText('0 of 8 places converted')).toBeVisible();
  await expect(page.getByText('Nowhere.kml')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'File format' })).toHaveCount(0);
  await expect(panel.getByRole('link', { name: 'Download Failed (8) — Nowhere' })).toBeVisible();
  await expect(panel.getByRole('link', { name: /Download KML/ })).toHaveCount(0);
  // Why, in plain words, per reason; and no steps about map files that do not exist.
  await expect(page.getByText('None of the 8 places could be placed on a map.')).toBeVisible();
  await expect(panel.getByText('Google has no location for this place.')).toBeVisible();
  await expect(panel.getByText('The row has no link.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Next Steps' })).toHaveCount(0);

  const [intent] = fakeStripe.paymentIntents().filter((each) => !before.has(each.id));
  await expect.poll(() => fakeStripe.paymentIntent(intent!.id)?.status).toBe('canceled');
  expect(fakeStripe.paymentIntent(intent!.id)?.amount_received ?? 0).toBe(0);
  expect(
    fakeStripe.mutations().filter((request) => request.path.endsWith(`${intent!.id}/capture`)),
  ).toEqual([]);
  // The receipt: everything held is released.
  expect(await receiptLines(page)).toMatchObject({
    'Authorized (held)': held,
    Charged: '$0.00',
    Released: held,
    Reference: intent!.id,
  });
});

test('the free path: under 5 places there is no payment step, no intent and no Stripe.js', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  const takeout = generateTakeout({
    seed: 42,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Weekend in Lisbon', places: 3, kinds: { ftid: 1 } }],
  });
  const [list] = placeLists(takeout);
  const stripeJs = await useStripeShim(page, fakeStripe.url);
  fakeStripe.clearRequests();
  await page.goto(stripeApi.url);
  await uploadAndProceed(page, zipUpload(takeout));

  const payment = paymentDialog(page);
  await expect(payment.getByText('This conversion is free')).toBeVisible();
  await expect(payment.getByText('$0.00 (free)')).toBeVisible();
  await expect(payment.getByRole('button', { name: 'Authorize Payment & Convert' })).toHaveCount(0);
  await payment.getByRole('button', { name: 'Convert for Free' }).click();

  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 1 File(s) Ready', {
    timeout: 30_000,
  });
  await expect(page.getByText('Successfully converted: 3 places')).toBeVisible();
  await expect(
    page.getByText('Final charge: $0.00. This selection was free, so nothing was charged.'),
  ).toBeVisible();
  const kml = readKml(
    (
      await readDownload(
        await download(page, () =>
          page.getByRole('link', { name: 'Download KML — Weekend in Lisbon' }).click(),
        ),
      )
    ).text,
  );
  // The three links name places only by id: the free tier still resolves them.
  expect(kml.placemarks.map((p) => p.name)).toEqual(expectedPlacemarks(list!).map((p) => p.name));
  expect(stripeJs.requests).toEqual([]);
  expect(fakeStripe.requests).toEqual([]);
});

test('a list that cannot be converted is shown with its reason, never chosen or charged; the others convert', async ({
  page,
  demoApi,
}) => {
  const broken = new TextEncoder().encode('Name,Link\nCafé Central,https://example.com/cafe\n');
  const takeout = generateTakeout({
    seed: 43,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Vienna', places: 6, kinds: { pin: 1 } }],
    extraEntries: { 'Takeout/Saved/Old export.csv': broken },
  });
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  // Found at upload: the broken list is shown with its reason, unchecked and not counted.
  await expect(dialog.getByText('1 of 2 lists selected')).toBeVisible();
  await expect(dialog.getByText('6 places in total')).toBeVisible();
  await expect(dialog.getByText(/Found columns: Name, Link/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(dialog.getByText('1 of 2 lists selected')).toBeVisible();
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();

  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 1 File(s) Ready', {
    timeout: 30_000,
  });
  await expect(page.getByRole('article').filter({ hasText: 'Old export.csv' })).toHaveCount(0);

  const vienna = resultPanel(page, 'Vienna.kml');
  await expect(vienna.getByText('6 of 6 places converted')).toBeVisible();
  await expect(vienna.getByRole('link', { name: /Download Failed/ })).toHaveCount(0);
  const file = await readDownload(
    await download(page, () => vienna.getByRole('link', { name: 'Download KML — Vienna' }).click()),
  );
  expect(file.fileName).toBe(`${safeStem('Vienna')}.kml`);
  expect(readKml(file.text).placemarks).toHaveLength(6);
  await expect(page.getByText('Successfully converted: 6 places')).toBeVisible();
  await expect(page.getByText('Final charge: $0.60')).toBeVisible();
});
