/**
 * The README's start command on a person's whole export (product.md, Money, "Demo payments"): the
 * API on loopback with no Stripe keys and its default limits runs demo payments, and a demo
 * payment covers any number of places there. A generated archive of 20,000 places, every one a
 * link without coordinates, goes through the page: the server looks each one up on the fake
 * Google, and the results show the demo payment's receipt for exactly the converted places.
 *
 * Written for a slow, busy two-core machine: the test's own limit is generous, and every wait is
 * on something the person sees.
 */
import { generateTakeout } from '@placeport/testkit';
import { startApi } from './support/api-process';
import { countsOf, dollarsFor, placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  paymentDialog,
  receiptLines,
  resultsHeading,
  selectionDialog,
} from './support/page';

const PLACES = 20_000;
/** Reading the archive, 20,000 lookups and the results: minutes on a busy machine, not seconds. */
const RUN_TIMEOUT_MS = 15 * 60_000;

const count = (n: number) => n.toLocaleString('en-US');

test(`the README's demo on loopback converts a ${count(PLACES)}-place export, every place looked up`, async ({
  page,
  fakeGoogle,
}, testInfo) => {
  test.setTimeout(RUN_TIMEOUT_MS + 5 * 60_000);
  const takeout = generateTakeout({
    seed: PLACES,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Want to go', places: 12_000, kinds: { ftid: 1 } },
      { name: 'Favourite places', places: PLACES - 12_000, kinds: { ftid: 1 } },
    ],
  });
  const lists = placeLists(takeout);
  const { total, chargeable, converted } = countsOf(lists);
  expect(total).toBe(PLACES);
  // Every place needs the server to look it up, and the fake Google knows where each one is.
  expect(lists.every((list) => list.places.every((p) => !p.expected && p.resolvable))).toBe(true);

  // The README's demo: loopback, no keys, the default limits; only Google is the local fake.
  const api = await startApi(
    { MAPS_UPSTREAM_ORIGIN: fakeGoogle.url, RATE_LIMIT_FACTOR: '1' },
    testInfo.outputPath('api-readme-demo.log'),
  );
  try {
    fakeGoogle.clearRequests();
    await page.goto(api.url);
    await chooseFile(page, zipUpload(takeout));

    const dialog = selectionDialog(page);
    await expect(dialog.getByText(`${count(total)} places in total`)).toBeVisible({
      timeout: RUN_TIMEOUT_MS,
    });
    const intentCreated = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/create-payment-intent',
      { timeout: RUN_TIMEOUT_MS },
    );
    await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
    const created = await intentCreated;
    expect(created.status()).toBe(200);
    const { paymentIntentId } = (await created.json()) as { paymentIntentId: string };

    // The demo panel, and the maximum charge for every place: no cap on loopback.
    const payment = paymentDialog(page);
    await expect(payment.getByText('Demo mode — no card is charged')).toBeVisible();
    await expect(
      payment.getByRole('definition').filter({ hasText: dollarsFor(chargeable) }),
    ).toBeVisible();
    await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();

    await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeVisible();
    await expect(page.getByText(/^Looking up [\d,]+ of [\d,]+ places/)).toBeVisible({
      timeout: RUN_TIMEOUT_MS,
    });
    await expect(resultsHeading(page)).toHaveText(/^Conversion Complete - \d+ File\(s\) Ready$/, {
      timeout: RUN_TIMEOUT_MS,
    });

    // The demo payment, captured for exactly the converted places.
    await expect(
      page.getByText(`Successfully converted: ${count(converted)} places`),
    ).toBeVisible();
    await expect(page.getByText(`Final charge: ${dollarsFor(converted)}`)).toBeVisible();
    expect(await receiptLines(page)).toMatchObject({
      'Authorized (held)': dollarsFor(chargeable),
      Charged: dollarsFor(converted),
      Released: dollarsFor(chargeable - converted),
      Reference: paymentIntentId,
    });
    // Each converted place was looked up by the server on the fake Google.
    expect(fakeGoogle.count()).toBeGreaterThanOrEqual(converted);
  } finally {
    await api.stop();
  }
});
