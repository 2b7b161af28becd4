/**
 * Stripe mode: the API holds test keys and talks to the fake Stripe API; the page's Stripe.js is
 * the testkit's shim, whose confirmPayment authorizes the intent on that same fake. What Stripe
 * ends up holding (the intent's amounts and status) is read on the fake itself, and the receipt
 * on the results must say the same.
 */
import { generateTakeout } from '@placeport/testkit';
import { countsOf, dollarsFor, placeLists, withoutLocation, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  expectReceiptDated,
  paymentDialog,
  receiptLines,
  resultsHeading,
  selectionDialog,
} from './support/page';
import { useStripeShim } from './support/stripe';

test('Stripe: the card is authorized for the maximum and captured for the converted places only', async ({
  page,
  stripeApi,
  fakeStripe,
  fakeGoogle,
}) => {
  const takeout = generateTakeout({
    seed: 31,
    lists: [
      { name: 'Lisbon', places: 30 },
      { name: 'Porto', places: 24 },
    ],
  });
  // A few places Google has no location for: held, looked up, never converted nor charged.
  expect(withoutLocation(fakeGoogle, takeout, 3)).toBeGreaterThan(0);
  // The maximum charge counts the places that can be placed; those without a usable link are never held.
  const { chargeable: total, converted } = countsOf(placeLists(takeout));
  expect(converted).toBeLessThan(total);
  const stripeJs = await useStripeShim(page, fakeStripe.url);
  const intentsBefore = new Set(fakeStripe.paymentIntents().map((intent) => intent.id));
  const started = Date.now();

  await page.goto(stripeApi.url);
  await chooseFile(page, zipUpload(takeout));
  await expect(selectionDialog(page).getByText('2 of 2 lists selected')).toBeVisible();
  // Stripe.js is not fetched for the first screen, nor for the selection.
  expect(stripeJs.requests).toEqual([]);
  await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();

  const payment = paymentDialog(page);
  await expect(payment.getByTestId('fake-stripe-payment')).toBeVisible();
  await expect(payment.getByText(/enter your e-mail and phone number/)).toBeVisible();
  await expect(payment.getByText('Demo mode — no card is charged')).toHaveCount(0);
  await expect(
    payment.getByRole('definition').filter({ hasText: dollarsFor(total) }),
  ).toBeVisible();
  expect(stripeJs.requests.length).toBeGreaterThan(0);
  expect(stripeJs.requests.every((url) => url.startsWith('https://js.stripe.com/'))).toBe(true);

  const created = fakeStripe.paymentIntents().filter((intent) => !intentsBefore.has(intent.id));
  expect(created).toHaveLength(1);
  const intentId = created[0]!.id;
  expect(created[0]).toMatchObject({
    amount: total * 10,
    currency: 'usd',
    capture_method: 'manual',
    status: 'requires_payment_method',
  });

  await payment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(page.getByText('Payment Authorized', { exact: true })).toBeVisible();
  await expect(
    page.getByText(
      "Starting conversion. You'll only be charged for successfully converted places.",
      { exact: true },
    ),
  ).toBeVisible();
  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 2 File(s) Ready', {
    timeout: 30_000,
  });
  await expect(page.getByText(`Successfully converted: ${converted} places`)).toBeVisible();
  await expect(page.getByText(`Final charge: ${dollarsFor(converted)}`)).toBeVisible();
  await expect(page.getByText('Finalizing your payment…')).toHaveCount(0);

  // On Stripe's side: confirmed by the browser, then captured for exactly the converted places.
  const confirm = fakeStripe
    .mutations()
    .filter((request) => request.path === `/v1/payment_intents/${intentId}/confirm`);
  expect(confirm).toHaveLength(1);
  expect(confirm[0]!.body).toMatchObject({ key: fakeStripe.publishableKey });
  const captures = fakeStripe
    .mutations()
    .filter((request) => request.path === `/v1/payment_intents/${intentId}/capture`);
  expect(captures).toHaveLength(1);
  expect(captures[0]!.body).toMatchObject({ amount_to_capture: String(converted * 10) });
  expect(fakeStripe.paymentIntent(intentId)).toMatchObject({
    status: 'succeeded',
    amount: total * 10,
    amount_received: converted * 10,
  });

  // The receipt under the summary: what Stripe held, charged and released, its id, the date.
  expect(await receiptLines(page)).toEqual({
    'Authorized (held)': dollarsFor(total),
    Charged: dollarsFor(converted),
    Released: dollarsFor(total - converted),
    Reference: intentId,
    Date: expect.stringMatching(/^[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/),
  });
  await expectReceiptDated(page, started);
  await expect(
    page.getByRole('heading', { name: 'Payment Summary' }).locator('..').getByRole('group'),
  ).toHaveAccessibleName('Receipt');
});

/** What the page says when Stripe refused to create the intent (the API's `payment_rejected`). */
const REJECTED =
  'The payment provider refused to start this payment, so nothing was charged. If it refuses again, please write to feedback@example.com.';

test('Stripe: a failed intent creation shows the Payment Issue panel and a Payment Error toast', async ({
  page,
  stripeApi,
  fakeStripe,
}) => {
  const takeout = generateTakeout({ seed: 32, lists: [{ name: 'Rome', places: 22 }] });
  await useStripeShim(page, fakeStripe.url);
  await page.goto(stripeApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  await expect(dialog).toBeVisible();

  fakeStripe.failNext(1, 400, {
    type: 'invalid_request_error',
    code: 'parameter_invalid_integer',
    message: 'Invalid integer.',
  });
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page.getByText('Payment Error', { exact: true })).toBeVisible();
  // The API says Stripe refused the request (payment_rejected): the page says so, and whom to tell.
  await expect(dialog.getByRole('alert')).toHaveText(REJECTED);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  const panel = page
    .getByRole('region', { name: 'Upload Your Takeout Archive' })
    .getByRole('alert');
  await expect(panel.getByText('Payment Issue', { exact: true })).toBeVisible();
  await expect(panel.getByText(REJECTED)).toBeVisible();

  // The visitor can try again, and this time the payment form opens.
  await page.getByRole('button', { name: 'Select Lists' }).click();
  await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(paymentDialog(page).getByTestId('fake-stripe-payment')).toBeVisible();
});
