/**
 * Two tabs of one browser paying for the same lists (web audit): while one tab converts lists of an
 * archive with its payment, another tab choosing those lists of the same archive is told, in its
 * payment view, that the places converted in both are charged in both. The first tab's run is held
 * in its lookups (one link is never answered), so its payment's Web Lock is held for as long as
 * the test looks.
 */
import { answeredThenNever, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { holdLookups } from './support/lookups';
import { chooseFile, expectAccessible, paymentDialog, selectionDialog, snap } from './support/page';

const ANOTHER_TAB = /^Another tab of this browser is converting lists of this archive right now/;

test('a second tab paying for lists another tab is converting is told it would pay twice', async ({
  page,
  demoApi,
}) => {
  const { takeout, never } = answeredThenNever(92);
  const upload = zipUpload(takeout);
  const hold = await holdLookups(page, (link) => link.includes(never.ftid!));
  try {
    // The first tab pays (demo) and converts; its run waits on the link never answered.
    await page.goto(demoApi.url);
    await chooseFile(page, upload);
    await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
    const firstPayment = paymentDialog(page);
    await expect(firstPayment.getByText(ANOTHER_TAB)).toHaveCount(0);
    await firstPayment.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
    await expect(page.getByRole('heading', { name: 'Converting your places' })).toBeVisible();

    // The second tab: the same archive, the same lists.
    const second = await page.context().newPage();
    await second.goto(demoApi.url);
    await chooseFile(second, upload);
    await selectionDialog(second).getByRole('button', { name: 'Proceed to Payment' }).click();
    const payment = paymentDialog(second);
    await expect(payment.getByText(ANOTHER_TAB)).toBeVisible();
    // It may still pay: the person may mean to convert them again.
    await expect(
      payment.getByRole('button', { name: 'Authorize Payment & Convert' }),
    ).toBeEnabled();
    await expectAccessible(second, 'payment view, another tab paying');
    await snap(second, '48-payment-another-tab', false);

    // Another archive's lists are no other tab's business.
    await payment.getByRole('button', { name: 'Back to Selection' }).click();
    await selectionDialog(second).getByRole('button', { name: 'Cancel' }).click();
    await second.getByRole('button', { name: 'Remove' }).click();
    await chooseFile(second, zipUpload(takeout, 'takeout-20260202T000000Z-001.zip'));
    await selectionDialog(second).getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(
      paymentDialog(second).getByRole('button', { name: 'Authorize Payment & Convert' }),
    ).toBeVisible();
    await expect(paymentDialog(second).getByText(ANOTHER_TAB)).toHaveCount(0);
    await second.close();
  } finally {
    await hold.release();
  }
});
