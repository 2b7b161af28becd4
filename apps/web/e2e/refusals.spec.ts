/**
 * Every refusal names its cause and what to do (issue 17, part 7). These refusals are hard to
 * provoke from the real API (Redis away, Stripe unreachable, a payment's allowance used, a payment
 * no longer authorized), so Playwright answers the call with the API's own refusal body and status
 * (`support/refusals.ts`); `refusals-settings.spec.ts` provokes `demo_limit` and `free_budget_used`
 * through the API's settings. "Try again" is never shown where trying again cannot work.
 */
import { REASON_TEXT } from '@placeport/contract';
import { generateTakeout } from '@placeport/testkit';
import { placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  paymentDialog,
  resultsHeading,
  selectionDialog,
  snap,
  toast,
  uploadAndProceed,
} from './support/page';
import { allow, answerOf, refuse, type Refusal } from './support/refusals';

const TRY_AGAIN = /try again/i;

/** Refusals of `POST /api/create-payment-intent`, and the page's sentence for each. */
const INTENT_REFUSALS: Array<[Refusal, string]> = [
  [
    {
      status: 400,
      code: 'too_many_places',
      message: 'A payment can cover at most 100,000 places ($10000.00).',
      limit: 100_000,
    },
    'One payment covers at most 100,000 places, and this selection has 12 places. Choose fewer lists, then convert the others in another run.',
  ],
  [
    { status: 400, code: 'invalid_amount', message: 'amount must be a whole number of cents.' },
    'The server did not accept the amount this page asked for 12 places, so no payment was started and nothing was charged. This is a fault of the page, not yours: reload it, and if it happens again, write to feedback@example.com.',
  ],
  [
    {
      status: 429,
      code: 'too_many_payments',
      message: 'At most 20 payments can be started from one address in an hour. Try again later.',
      limit: 20,
      per: 'hour',
    },
    'At most 20 payments can be started from one address in an hour, and yours has reached that. Nothing was charged. Try again in an hour.',
  ],
  [
    {
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests. Please wait 1 minute and try again.',
    },
    'Too many requests came from your address in the last minute. Wait a minute, then try again.',
  ],
  [
    {
      status: 503,
      code: 'store_unavailable',
      message: 'This server cannot reach its shared state right now; please try again in a moment.',
      retryAfter: 5,
    },
    'The server cannot reach its payment records right now. Nothing was charged by this step. Try again in a moment.',
  ],
  [
    {
      status: 503,
      code: 'store_full',
      message: 'Too many payments are open on this server right now.',
      retryAfter: 60,
    },
    'Too many payments are open on this server right now. Nothing was charged. Try again in a few minutes.',
  ],
  [
    {
      status: 503,
      code: 'payment_provider_unavailable',
      message: 'The payment provider could not be reached. Please try again in a moment.',
      retryAfter: 10,
    },
    'The payment provider (Stripe) could not be reached, so no payment was started and nothing was charged. Try again in 10 seconds.',
  ],
  [
    {
      status: 503,
      code: 'payments_unavailable',
      message: 'Payments are not available right now. Please contact support.',
    },
    'Payments are not available on this server right now, so paid conversions cannot start; nothing was charged. Selections under 5 places still convert for free. Please write to feedback@example.com.',
  ],
  [
    {
      status: 500,
      code: 'internal_error',
      message: 'Something went wrong on our side. Please try again.',
    },
    'Failed to initialize payment. Please try again.',
  ],
];

test('each refusal of Proceed to Payment names its cause and what to do', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 7103,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: true,
    lists: [{ name: 'Lisbon', places: 12 }],
  });
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(takeout));
  const dialog = selectionDialog(page);
  for (const [refusal, sentence] of INTENT_REFUSALS) {
    await refuse(page, 'create-payment-intent', refusal);
    await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(dialog.getByRole('alert'), refusal.code).toHaveText(sentence);
    await expect(toast(page, 'Payment Error'), refusal.code).toContainText(sentence);
    await allow(page, 'create-payment-intent');
  }
});

test('a refused demo authorization says why, and the payment view stays', async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 7104,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: true,
    lists: [{ name: 'Porto', places: 8 }],
  });
  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  const payment = paymentDialog(page);
  await refuse(page, 'demo/authorize', {
    status: 404,
    code: 'payment_not_found',
    message: 'No payment with this id was found.',
  });
  // By keyboard, as a screen reader's user presses it.
  const authorize = payment.getByRole('button', { name: 'Authorize Payment & Convert' });
  await authorize.focus();
  await page.keyboard.press('Enter');
  const why =
    'The server no longer knows this payment (it may have restarted), so it cannot be authorized; nothing was charged. Go Back to Selection and choose Proceed to Payment again.';
  await expect(toast(page, 'Payment Failed')).toContainText(why);
  await expect(authorize).toBeEnabled();
  // The focus stayed on the button (busy, it was only aria-disabled), which the error describes.
  await expect(authorize).toBeFocused();
  const error = payment.getByText(`Payment Failed: ${why}`, { exact: true });
  await expect(authorize).toHaveAttribute('aria-describedby', (await error.getAttribute('id'))!);
  // The toast goes after a few seconds (and sits behind the dialog, out of a screen reader's
  // reach); the payment view keeps the error until the next attempt (accessibility audit).
  await expect(page.locator('.toast', { hasText: 'Payment Failed' })).toHaveCount(0);
  await expect(error).toBeVisible();
  await snap(page, '49-payment-refused-kept', false);
});

test("refused lookups name each cause in the results, and a capture Stripe could not make quotes the payment's reference", async ({
  page,
  demoApi,
}) => {
  const takeout = generateTakeout({
    seed: 7105,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'North', places: 120, kinds: { ftid: 1 } },
      { name: 'South', places: 120, kinds: { ftid: 1 } },
      { name: 'West', places: 120, kinds: { ftid: 1 } },
    ],
  });
  const lookups = new Set(placeLists(takeout).flatMap((list) => list.places.map((p) => p.ftid)));
  expect(lookups.size, 'more than three requests of 100 links').toBeGreaterThan(300);
  // Each request of the run is refused for another reason. A refusal for what lookups cost (402,
  // 403) stops the run sending, so the second request's 403 is held until the third (sent when the
  // first's 400 comes back, two being in flight) has arrived: the run sees all three, then sends
  // nothing more.
  const refusals: Refusal[] = [
    {
      status: 400,
      code: 'too_many_urls',
      message: 'This request holds 100 links to look up; at most 50 are allowed per request.',
    },
    {
      status: 403,
      code: 'link_allowance_used',
      message: 'This payment covers 360 places; 0 more links can be looked up.',
      limit: 360,
    },
    {
      status: 402,
      code: 'payment_not_authorized',
      message: 'This payment is not authorized, so it cannot cover more links.',
    },
  ];
  let requests = 0;
  let thirdArrived: () => void = () => {};
  const third = new Promise<void>((resolve) => (thirdArrived = resolve));
  await page.route('**/api/resolve-urls-batch', async (route) => {
    const index = requests++;
    if (index === 1) await third;
    if (index === 2) thirdArrived();
    return route.fulfill(answerOf(refusals[Math.min(index, refusals.length - 1)]!));
  });
  await refuse(page, 'capture-payment', {
    status: 503,
    code: 'payment_provider_unavailable',
    message: 'The payment provider could not be reached. Please try again in a moment.',
    retryAfter: 10,
  });
  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
    timeout: 60_000,
  });
  for (const sentence of [
    'This payment\'s lookups were used up (it covers 360 places), so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.',
    'The server refused lookups sent in requests too large for this payment, so those places were not looked up. "Retry failed places" sends them again in a new run.',
    'The payment of this run was no longer accepted for lookups (it was settled, or the server restarted), so the rest were not looked up. "Retry failed places" starts a new run, with its own payment, for just those places.',
  ]) {
    await expect(page.getByText(sentence, { exact: true })).toBeVisible();
  }
  // Refused for what lookups cost, the run sent nothing more: not its fourth request, nor a retry
  // of the first's links.
  expect(requests).toBe(3);
  // The two refused requests' places and the fourth's, never sent, are all the allowance's.
  await expect(
    page.getByText('260 places were not looked up: the lookup allowance was used up.'),
  ).toBeVisible();
  await snap(page, '40-refused-lookups');
  const results = page.getByRole('region', { name: 'Nothing could be converted' });
  await expect(
    results.getByText(
      /^Stripe could not be reached to settle your payment, so your card still holds the authorization\. The server settles it by itself within 30 minutes, charging only for the places it looked up; nothing more is needed from you\. Reference: pi_\w+$/,
    ),
  ).toBeVisible();
  // Trying again is offered only for the first request's places (its refusal said nothing of them,
  // and a new run can send them), never for the lookups a payment no longer covers.
  const tryAgain = page.getByText(TRY_AGAIN);
  await expect(tryAgain).toHaveCount(1);
  await expect(tryAgain).toHaveText(`${REASON_TEXT.unavailable}.`);
});
