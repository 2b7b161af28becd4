/**
 * Every screen of the product, at a desktop width (1280 px) and a phone width (360 px): axe-core
 * must find no violation on any of them once their animations have finished, and each is kept as
 * a screenshot in `test-results/e2e-screenshots/` for a person to look at. Results are taken once
 * the payment is settled, with its receipt under the summary.
 */
import { generateTakeout, type GeneratedTakeout } from '@placeport/testkit';
import { placeLists, uploadOf, withoutLocation, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  expectAccessible,
  paymentDialog,
  receipt,
  removeArchive,
  resultsHeading,
  selectionDialog,
  snap,
  uploadAndProceed,
} from './support/page';
import { useStripeShim } from './support/stripe';
import type { Page } from '@playwright/test';

/** How long the fake Google keeps one place's page waiting, so the processing card stays up. */
const SLOW_PLACE_MS = 4_000;

const WIDTHS = [1280, 360] as const;

/** Checks the screen with axe-core, then keeps its screenshot. */
async function screen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await snap(page, name);
}

/** The same for a screen in the modal dialog, kept as what the viewport shows. */
async function dialogScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await snap(page, name, false);
}

function smallArchive(seed: number): GeneratedTakeout {
  return generateTakeout({
    seed,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Weekend in Lisbon', places: 3, kinds: { pin: 1 } }],
  });
}

for (const width of WIDTHS) {
  test.describe(`every screen at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    test.setTimeout(600_000);

    test('demo payments', async ({ page, demoApi, fakeGoogle }) => {
      const broken = new TextEncoder().encode('Name,Link\nCafé Central,https://example.com/\n');
      const takeout = generateTakeout({
        seed: 700 + width,
        extraEntries: { 'Takeout/Saved/Old export.csv': broken },
      });
      const slow = placeLists(takeout)[0]!.places.find((place) => place.kind === 'ftid')!;
      fakeGoogle.setPlace(slow.cid!, { delayMs: SLOW_PLACE_MS });

      await test.step('home', async () => {
        await page.goto(demoApi.url);
        await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
        await expect(page.getByText('feedback@example.com')).toBeVisible();
        await screen(page, '01-home');
      });

      await test.step('a refused file', async () => {
        await chooseFile(page, uploadOf('Saved Places.json', '{}', 'application/json'));
        await expect(page.getByText('Invalid File', { exact: true })).toBeVisible();
        await screen(page, '02-refused-file');
      });

      await test.step('an archive that cannot be read', async () => {
        await chooseFile(
          page,
          uploadOf('takeout.zip', takeout.zip.subarray(0, 900), 'application/zip'),
        );
        await expect(
          page.getByText(
            'This file is not a complete ZIP archive. Download it again from Google Takeout.',
            { exact: true },
          ),
        ).toBeVisible();
        await screen(page, '03-extraction-error');
      });

      await test.step('selection', async () => {
        await chooseFile(page, zipUpload(takeout));
        // The list that cannot be converted is shown, but never chosen.
        await expect(selectionDialog(page).getByText('5 of 6 lists selected')).toBeVisible();
        await dialogScreen(page, '04-selection');
        await selectionDialog(page).getByRole('button', { name: 'Deselect All' }).click();
        await expect(
          selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }),
        ).toBeDisabled();
        await dialogScreen(page, '05-selection-none');
        await selectionDialog(page)
          .getByRole('button', { name: 'Select All', exact: true })
          .click();
      });

      await test.step('payment (demo)', async () => {
        await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
        await expect(paymentDialog(page).getByText('Demo mode — no card is charged')).toBeVisible();
        await dialogScreen(page, '06-payment-demo');
      });

      await test.step('processing', async () => {
        await paymentDialog(page)
          .getByRole('button', { name: 'Authorize Payment & Convert' })
          .click();
        await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeVisible();
        await expect(page.locator('[aria-current="step"]')).toContainText(
          'Extracting coordinates from URLs',
        );
        await screen(page, '07-processing');
      });

      await test.step('results, with the receipt', async () => {
        await expect(resultsHeading(page)).toBeVisible({ timeout: 30_000 });
        await expect(page.getByText(/^Final charge: \$/)).toBeVisible();
        await expect(receipt(page)).toBeVisible();
        await screen(page, '08-results');
      });

      await test.step('Remove asks before discarding files not downloaded', async () => {
        await page.getByRole('button', { name: 'Remove', exact: true }).click();
        await expect(page.getByRole('alertdialog')).toBeVisible();
        await dialogScreen(page, '16-remove-confirm');
        await page.getByRole('button', { name: 'Keep my files' }).click();
        await expect(resultsHeading(page)).toBeVisible();
      });

      await test.step('payment (free)', async () => {
        await removeArchive(page);
        await uploadAndProceed(page, zipUpload(smallArchive(710 + width)));
        await expect(paymentDialog(page).getByText('This conversion is free')).toBeVisible();
        await dialogScreen(page, '09-payment-free');
      });

      await test.step('results (free)', async () => {
        await paymentDialog(page).getByRole('button', { name: 'Convert for Free' }).click();
        await expect(resultsHeading(page)).toBeVisible({ timeout: 30_000 });
        await screen(page, '10-results-free');
      });

      await test.step('results (nothing converted: Payment Cancelled)', async () => {
        await removeArchive(page);
        const nowhere = generateTakeout({
          seed: 720 + width,
          quirks: false,
          includeNonPlaceLists: false,
          lists: [{ name: 'Mystery spots', places: 12, kinds: { cid: 1, 'no-link': 1 } }],
        });
        withoutLocation(fakeGoogle, nowhere);
        await uploadAndProceed(page, zipUpload(nowhere));
        await paymentDialog(page)
          .getByRole('button', { name: 'Authorize Payment & Convert' })
          .click();
        await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible({
          timeout: 30_000,
        });
        await expect(receipt(page)).toBeVisible();
        await screen(page, '11-results-payment-cancelled');
      });

      await test.step('404', async () => {
        // Remove first: results not downloaded make the page ask before it is left.
        await removeArchive(page);
        await page.goto(`${demoApi.url}/no/such/page`);
        await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
        await screen(page, '13-not-found');
      });
    });

    test('Stripe payments', async ({ page, stripeApi, fakeStripe }) => {
      await useStripeShim(page, fakeStripe.url);

      await test.step('payment (Stripe)', async () => {
        await page.goto(stripeApi.url);
        await uploadAndProceed(page, zipUpload(generateTakeout({ seed: 740 + width })));
        await expect(paymentDialog(page).getByTestId('fake-stripe-payment')).toBeVisible();
        await expect(
          paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }),
        ).toBeEnabled();
        await dialogScreen(page, '14-payment-stripe');
      });

      await test.step('results (Stripe), with the receipt', async () => {
        await paymentDialog(page)
          .getByRole('button', { name: 'Authorize Payment & Convert' })
          .click();
        await expect(resultsHeading(page)).toBeVisible({ timeout: 60_000 });
        await expect(receipt(page).getByText(/^pi_/)).toBeVisible();
        await screen(page, '15-results-stripe');
      });

      // A list split into parts, paid by card in this Stripe-mode stack.
      await test.step('results (a list split for My Maps)', async () => {
        await removeArchive(page);
        const large = generateTakeout({
          seed: 730 + width,
          quirks: false,
          includeNonPlaceLists: false,
          coordinatesInUrls: true,
          lists: [{ name: 'Every café in Paris', places: 4500 }],
        });
        await uploadAndProceed(page, zipUpload(large));
        await expect(paymentDialog(page).getByTestId('fake-stripe-payment')).toBeVisible();
        await paymentDialog(page)
          .getByRole('button', { name: 'Authorize Payment & Convert' })
          .click();
        await expect(page.getByText(/^Split into 3 files/)).toBeVisible({ timeout: 60_000 });
        await expect(
          page.getByRole('link', { name: /Download KML \(part 3 of 3\)/ }),
        ).toBeVisible();
        await expect(receipt(page)).toBeVisible();
        await screen(page, '12-results-split');
      });
    });
  });
}
