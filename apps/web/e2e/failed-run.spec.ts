/**
 * Every money outcome is shown, a failed run's too (product.md "Money"). When a paid conversion
 * fails, the page releases the hold claiming nothing converted; the server, whose own count is the
 * floor, charges the places it had already found for the payment (or cancels when that is under
 * $0.50), and the page shows the receipt it returned: how much was charged and why, or that the
 * hold was released.
 *
 * How the run fails: the conversion worker dies, as a tab's worker does when it runs out of
 * memory, with an uncaught error in its own scope (the page hears of it through the worker's
 * `error` event, as for a real crash). When it dies is fixed by the archive, not by timing: the
 * lookup of the last list's place is held (`holdLookups`), the others of its request are answered
 * and counted by the server, and the worker sits waiting when it is made to die.
 */
import { generateTakeout, type FakeStripe, type GeneratedPlace } from '@placeport/testkit';
import type { Page } from '@playwright/test';
import { answeredThenNever, placeLists, zipUpload, type UploadFile } from './support/archives';
import { expect, test } from './support/fixtures';
import { holdLookups } from './support/lookups';
import {
  expectAccessible,
  expectReceiptDated,
  paymentDialog,
  receiptLines,
  selectionDialog,
  snap,
  uploadAndProceed,
} from './support/page';
import { useStripeShim } from './support/stripe';

/** The page's message for a worker that died, with the worker's own words after it. */
const WORKER_DIED = /^The converter stopped unexpectedly\. Please remove the file and try again\./;

/** The failed run's card. */
function failedCard(page: Page) {
  return page.getByRole('region', { name: 'Conversion Failed' });
}

/** True for the link of any of these places. */
function linkOf(places: readonly GeneratedPlace[]): (link: string) => boolean {
  return (link) => places.some((place) => link.includes(place.ftid!));
}

/**
 * Pays by card for every list of `upload` and starts the conversion; returns the intent's id once
 * the page shows the conversion running.
 */
async function startPaidRun(
  page: Page,
  upload: UploadFile,
  fakeStripe: FakeStripe,
): Promise<string> {
  const before = new Set(fakeStripe.paymentIntents().map((intent) => intent.id));
  await uploadAndProceed(page, upload);
  const payment = paymentDialog(page);
  await expect(payment.getByTestId('fake-stripe-payment')).toBeVisible();
  await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeVisible();
  const created = fakeStripe.paymentIntents().filter((intent) => !before.has(intent.id));
  expect(created).toHaveLength(1);
  return created[0]!.id;
}

/** Makes the page's conversion worker die of an uncaught error, as an out-of-memory worker does. */
async function killConversionWorker(page: Page): Promise<void> {
  const worker = page.workers().find((each) => /converter\.worker/.test(each.url()));
  expect(worker, 'the conversion worker is running').toBeDefined();
  await worker!.evaluate(() => {
    setTimeout(() => {
      throw new RangeError('Array buffer allocation failed');
    });
  });
}

test('a paid run that fails after the server found places shows what it charged for them, and why', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  // The first list's 8 places are found by the server's lookups: $0.80, at least the $0.50
  // minimum, so the server captures rather than cancels.
  const { takeout, found, never: neverAnswered, places } = answeredThenNever(93);
  expect(found).toBe(8);
  const hold = await holdLookups(page, linkOf([neverAnswered]));

  await useStripeShim(page, fakeStripe.url);
  await page.goto(stripeApi.url);
  const started = Date.now();
  const intentId = await startPaidRun(page, zipUpload(takeout), fakeStripe);
  expect(fakeStripe.paymentIntent(intentId)).toMatchObject({ amount: places * 10 });

  // The server has found the first list's places; the last lookup waits.
  await expect.poll(() => hold.held()).toBe(1);
  await killConversionWorker(page);

  const card = failedCard(page);
  await expect(card.getByRole('heading', { name: 'Conversion Failed', level: 2 })).toBeVisible();
  await expect(card.getByText(WORKER_DIED)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Converting your places' })).toHaveCount(0);
  // How much, and why: the places the server had found when the run failed.
  await expect(card.getByRole('heading', { name: 'Payment Summary' })).toBeVisible();
  await expect(
    card.getByText(
      'The server had already found the locations of 8 places for this payment when the conversion failed; you were charged $0.80 for them.',
    ),
  ).toBeVisible();
  await expect(card.getByText('The rest of the hold, $0.10, was released.')).toBeVisible();
  expect(await receiptLines(page)).toMatchObject({
    'Authorized (held)': '$0.90',
    Charged: '$0.80',
    Released: '$0.10',
    Reference: intentId,
  });
  await expectReceiptDated(page, started);

  // The receipt is what Stripe holds: captured for the server's count, not the page's claim of 0.
  expect(fakeStripe.paymentIntent(intentId)).toMatchObject({
    status: 'succeeded',
    amount_received: found * 10,
  });
  const captures = fakeStripe
    .mutations()
    .filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`);
  expect(captures).toHaveLength(1);

  await expectAccessible(page, 'failed run (charged)');
  await snap(page, 'failed-run-charged');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByText('The rest of the hold, $0.10, was released.')).toBeVisible();
  // Nothing wider than a phone: no text runs off the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  await expectAccessible(page, 'failed run (charged), phone');
  await snap(page, 'failed-run-charged');

  // The receipt stays until the person moves on: back to the lists, same archive.
  await card.getByRole('button', { name: 'Back to the lists' }).click();
  await expect(selectionDialog(page).getByText('2 of 2 lists selected')).toBeVisible();
  await hold.release();
});

test('a paid run that fails before the server found any place says the hold was released', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  const takeout = generateTakeout({
    seed: 94,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Never answered', places: 6, kinds: { ftid: 1 } }],
  });
  const [list] = placeLists(takeout);
  expect(list!.places.every((place) => place.ftid && place.cid)).toBe(true);
  const hold = await holdLookups(page, linkOf(list!.places));

  await useStripeShim(page, fakeStripe.url);
  await page.goto(stripeApi.url);
  const intentId = await startPaidRun(page, zipUpload(takeout), fakeStripe);
  await expect.poll(() => hold.held()).toBe(1);
  await killConversionWorker(page);

  const card = failedCard(page);
  await expect(card.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
  await expect(
    card.getByText(
      'The conversion failed, so your payment authorization has been cancelled and the hold of $0.60 released. You have not been charged.',
    ),
  ).toBeVisible();
  expect(await receiptLines(page)).toMatchObject({
    'Authorized (held)': '$0.60',
    Charged: '$0.00',
    Released: '$0.60',
    Reference: intentId,
  });
  expect(fakeStripe.paymentIntent(intentId)).toMatchObject({ status: 'canceled' });
  expect(fakeStripe.paymentIntent(intentId)?.amount_received ?? 0).toBe(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'failed-run-released');
  await hold.release();
});
