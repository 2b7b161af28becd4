/**
 * No hold is left behind (product.md "Money"): a visitor who reloads the page in the middle of a
 * paid conversion never comes back to capture, so the server's settlement sweep settles the
 * authorization by itself, for the places the server resolved for it.
 *
 * The API of this spec settles an authorization unused for 3 s (`SETTLE_AFTER_MINUTES=0.05`), in
 * a worker of its own. What the server resolves is fixed by the archive, not by timing: the first
 * list's places all answer, and the second list's one place is never answered (`holdLookups`); the
 * sweep finds intents through Stripe's search, which the fake keeps frozen until the page has been
 * reloaded, so however slow the machine the sweep cannot settle earlier.
 */
import type { Locator, Page } from '@playwright/test';
import { answeredThenNever, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { holdLookups } from './support/lookups';
import {
  answerDialogs,
  expectAccessible,
  paymentDialog,
  snap,
  uploadAndProceed,
} from './support/page';
import { useStripeShim } from './support/stripe';

test.use({ settleAfterMinutes: '0.05' });

test('a reload during a paid conversion: the page asks first, and the server settles the hold', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  // Every place of the first list needs the server to look it up, and the fake Google answers.
  const { takeout, found: resolved, never: neverAnswered, places } = answeredThenNever(91);
  // At least 5 places ($0.50): the sweep captures rather than cancels.
  expect(resolved).toBeGreaterThanOrEqual(5);
  const hold = await holdLookups(page, (link) => link.includes(neverAnswered.ftid!));

  await useStripeShim(page, fakeStripe.url);
  const before = new Set(fakeStripe.paymentIntents().map((intent) => intent.id));
  let intentId = '';
  fakeStripe.holdSearchIndex();
  try {
    const dialogs = answerDialogs(page, 'leave');
    await startPaidRun(page, stripeApi.url, takeout);
    const created = fakeStripe.paymentIntents().filter((each) => !before.has(each.id));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ amount: places * 10, capture_method: 'manual' });
    intentId = created[0]!.id;

    // The first list's places are answered, and with them the server's count (kept in its store;
    // the intent hears of it when it is settled); the second list's lookup waits.
    await expect.poll(() => hold.held()).toBe(1);
    expect(fakeStripe.paymentIntent(intentId)?.status).toBe('requires_capture');

    await page.reload();
    expect(dialogs.types).toEqual(['beforeunload']);
    await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Converting your places' })).toHaveCount(0);
    // The page that would have captured is gone; the hold is still there, and the page says so.
    expect(fakeStripe.paymentIntent(intentId)?.status).toBe('requires_capture');
    const held = page.getByRole('region', { name: 'A payment from your last visit is still held' });
    await expect(held).toContainText(
      `${usd(places * 10)} is still held (authorized, not charged) on your card`,
    );
    await expect(held).toContainText(
      `the server had found the locations of ${resolved} places for it, so you will be charged ${usd(resolved * 10)} for them`,
    );
    await expect(held).toContainText(`Reference: ${intentId}`);
    await expectAccessible(page, 'a payment from the last visit, held');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'last-visit-held');
    await page.setViewportSize({ width: 1280, height: 900 });
  } finally {
    fakeStripe.releaseSearchIndex();
    await hold.release();
  }

  await expect
    .poll(
      () => {
        const now = fakeStripe.paymentIntent(intentId);
        return { status: now?.status, amountReceived: now?.amount_received };
      },
      { timeout: 60_000 },
    )
    .toEqual({ status: 'succeeded', amountReceived: resolved * 10 });
  // The sweep wrote the server's count to the intent before capturing it.
  expect(fakeStripe.paymentIntent(intentId)?.metadata.resolved).toBe(String(resolved));
  // Captured by the server's sweep: the browser never asked to capture. The API writes its log
  // line just after Stripe answered, so it is waited for, not read at once.
  await expect.poll(() => stripeApi.log(), { timeout: 60_000 }).toContain('settlement: captured');
  expect(capturesOf(fakeStripe, intentId)).toHaveLength(1);

  // Back on the page later: the receipt of what the server did, and Dismiss forgets it.
  await page.reload();
  const settled = page.getByRole('region', { name: 'Your last visit’s payment was settled' });
  await expect(settled).toContainText(
    `The server had found the locations of ${resolved} places for it, so you were charged ${usd(resolved * 10)} for them, and the rest of the hold, ${usd((places - resolved) * 10)}, was released.`,
  );
  await expect(receiptOf(settled)).toHaveText([
    `Authorized (held)${usd(places * 10)}`,
    `Charged${usd(resolved * 10)}`,
    `Released${usd((places - resolved) * 10)}`,
    `Reference${intentId}`,
  ]);
  await settled.getByRole('button', { name: 'Dismiss' }).click();
  await expect(settled).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
  await expect(page.getByRole('region', { name: /last visit/ })).toHaveCount(0);
});

test('a reload during a paid conversion, then "Settle it now": the hold settled at once for what the server found', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  const { takeout, found: resolved, never: neverAnswered } = answeredThenNever(91);
  const hold = await holdLookups(page, (link) => link.includes(neverAnswered.ftid!));
  await useStripeShim(page, fakeStripe.url);
  const before = new Set(fakeStripe.paymentIntents().map((intent) => intent.id));
  // The sweep finds nothing to settle while this test runs: the page settles it.
  fakeStripe.holdSearchIndex();
  try {
    answerDialogs(page, 'leave');
    await startPaidRun(page, stripeApi.url, takeout);
    await expect.poll(() => hold.held()).toBe(1);
    const intentId = fakeStripe.paymentIntents().find((each) => !before.has(each.id))!.id;

    await page.reload();
    const held = page.getByRole('region', { name: 'A payment from your last visit is still held' });
    await held.getByRole('button', { name: 'Settle it now' }).click();
    const settled = page.getByRole('region', { name: 'Your last visit’s payment was settled' });
    await expect(settled).toContainText(`you were charged ${usd(resolved * 10)} for them`);
    expect(fakeStripe.paymentIntent(intentId)).toMatchObject({
      status: 'succeeded',
      amount_received: resolved * 10,
    });
    // Settled by this page: its receipt is dated.
    await expect(receiptOf(settled)).toContainText([`Charged${usd(resolved * 10)}`, /^Date/]);
    await snap(page, 'last-visit-settled');
  } finally {
    fakeStripe.releaseSearchIndex();
    await hold.release();
  }
});

test('a reload during a paid conversion, then the same archive again: the hold converts it, charged once', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  const { takeout, found, never: neverAnswered, places } = answeredThenNever(91);
  const hold = await holdLookups(page, (link) => link.includes(neverAnswered.ftid!));
  await useStripeShim(page, fakeStripe.url);
  const before = new Set(fakeStripe.paymentIntents().map((intent) => intent.id));
  const created = () => fakeStripe.paymentIntents().filter((each) => !before.has(each.id));
  // The sweep finds nothing to settle while this test runs: the rerun settles the hold.
  fakeStripe.holdSearchIndex();
  try {
    answerDialogs(page, 'leave');
    await startPaidRun(page, stripeApi.url, takeout);
    await expect.poll(() => hold.held()).toBe(1);
    const intentId = created()[0]!.id;

    await page.reload();
    // The lookup held in the first visit is answered from now on.
    await page.unroute('**/api/resolve-urls-batch');
    await hold.release();
    const card = page.getByRole('region', { name: 'A payment from your last visit is still held' });
    await expect(card).toContainText(
      'To convert the same lists of takeout-20260101T000000Z-001.zip again, choose that file before then: the payment step offers this hold, so the places already found are not charged twice.',
    );

    await uploadAndProceed(page, zipUpload(takeout));
    const payment = paymentDialog(page);
    const offer = payment.getByRole('note', {
      name: 'A payment from your last visit is still held',
    });
    await expect(offer).toContainText(
      `${usd(places * 10)} is still held (authorized, not charged) on your card from your last visit, for these lists of this archive. Convert with it: no new hold is placed, and the ${found} places already found with it are not charged again.`,
    );
    await expect(offer).toContainText(`Reference: ${intentId}`);
    await expect(payment.getByTestId('fake-stripe-payment')).toHaveCount(0);
    await expectAccessible(page, "the payment view offering the last visit's hold");
    await snap(page, 'held-payment-offer');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'held-payment-offer');
    await page.setViewportSize({ width: 1280, height: 900 });
    // No second hold on the card.
    expect(created()).toHaveLength(1);

    await payment.getByRole('button', { name: 'Convert with the Held Payment' }).click();
    await expect(page.getByText(`Successfully converted: ${places} places`)).toBeVisible();
    await expect(page.getByText(`Final charge: ${usd(places * 10)}`)).toBeVisible();
    // The run shows its payment's outcome: the earlier visit's card of it is gone.
    await expect(card).toHaveCount(0);
    // Charged once, for every place once: not the first visit's places again on a second hold.
    // "Final charge" shows while the capture is still on its way ("Finalizing your payment…"):
    // Stripe is read once it has answered, not raced.
    await expect.poll(() => fakeStripe.paymentIntent(intentId)?.status).toBe('succeeded');
    await expect(page.getByText('Finalizing your payment…')).toHaveCount(0);
    expect(created()).toHaveLength(1);
    expect(fakeStripe.paymentIntent(intentId)).toMatchObject({
      status: 'succeeded',
      amount_received: places * 10,
    });
    expect(capturesOf(fakeStripe, intentId)).toHaveLength(1);

    // Settled and shown here: the next visit has nothing left to say of it.
    await page.reload();
    await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
    await expect(page.getByRole('region', { name: /last visit/ })).toHaveCount(0);
  } finally {
    fakeStripe.releaseSearchIndex();
    await hold.release();
  }
});

/** Opens the page, chooses the archive and authorizes the fake card: the run is under way. */
async function startPaidRun(page: Page, url: string, takeout: Parameters<typeof zipUpload>[0]) {
  await page.goto(url);
  await uploadAndProceed(page, zipUpload(takeout));
  const payment = paymentDialog(page);
  await expect(payment.getByTestId('fake-stripe-payment')).toBeVisible();
  await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeVisible();
}

/** Dollars as the page writes them. */
function usd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** The receipt's rows (term and value run together, as `toHaveText` reads them). */
function receiptOf(region: Locator) {
  return region.getByRole('group', { name: 'Receipt' }).locator('dl > div');
}

/** The capture calls the fake Stripe got for intent `intentId`. */
function capturesOf(fakeStripe: { mutations(): Array<{ path: string }> }, intentId: string) {
  return fakeStripe
    .mutations()
    .filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`);
}
