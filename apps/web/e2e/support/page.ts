/**
 * What a person does on the page, as helpers: choose a file through the file chooser, wait for
 * the page to settle, check it with axe-core, and keep a screenshot of it.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import type { UploadFile } from './archives';

/** Screenshots of every screen land here (git-ignored), named `<screen>-<width>.png`. */
export const SCREENSHOT_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test-results',
  'e2e-screenshots',
);

/** Clicks Choose File and picks the file in the chooser that opens, as a person does. */
export async function chooseFile(page: Page, file: UploadFile): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose File' }).click();
  await (await chooser).setFiles(file);
}

/**
 * Chooses `file` and goes on with the lists the page selected by itself (every place list), as a
 * person who changes nothing does: the payment view comes next.
 */
export async function uploadAndProceed(page: Page, file: UploadFile): Promise<void> {
  await chooseFile(page, file);
  await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
}

/** The selection dialog. */
export function selectionDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Select Lists to Convert' });
}

/** The payment view of the same dialog. */
export function paymentDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Payment' });
}

/** The results card's heading, whatever the file count. */
export function resultsHeading(page: Page): Locator {
  return page.getByRole('heading', {
    name: /^(Conversion (Complete|Stopped) - \d+ File\(s\) Ready|Nothing could be converted|Conversion Stopped - Nothing Converted)$/,
    level: 2,
  });
}

/** One list's panel in the results card, found by the file name it shows. */
export function resultPanel(page: Page, shownFileName: string): Locator {
  return page.getByRole('article').filter({
    has: page.getByText(shownFileName, { exact: true }),
  });
}

/** The one toast on screen, by its title. */
export function toast(page: Page, title: string): Locator {
  return page.getByRole('status').filter({ hasText: title });
}

/** The receipt under the payment summary, once the payment is settled. */
export function receipt(page: Page): Locator {
  return page.getByRole('group', { name: 'Receipt' });
}

/** The receipt's lines as a person reads them, term → value, once it is shown. */
export async function receiptLines(page: Page): Promise<Record<string, string>> {
  const group = receipt(page);
  await expect(group).toBeVisible();
  const terms = await group.getByRole('term').allTextContents();
  const values = await group.getByRole('definition').allTextContents();
  expect(values).toHaveLength(terms.length);
  return Object.fromEntries(terms.map((term, index) => [term, values[index]!]));
}

/**
 * The receipt's date, checked: it names a moment between `notBefore` and now (the browser and
 * the tests share the machine's clock), written as the page writes dates in the browser's time
 * zone (`January 15, 2026, 2:05 PM`, what `toLocaleString('en-US')` gives).
 */
export async function expectReceiptDated(page: Page, notBefore: number): Promise<void> {
  const time = receipt(page).locator('time');
  const moment = Date.parse((await time.getAttribute('datetime')) ?? '');
  expect(moment).toBeGreaterThanOrEqual(notBefore);
  expect(moment).toBeLessThanOrEqual(Date.now());
  const written = await page.evaluate((ms) => {
    const text = new Date(ms).toLocaleString('en-US', { dateStyle: 'long', timeStyle: 'short' });
    return text.replace(' at ', ', ').replace(/\u202f/g, ' ');
  }, moment);
  await expect(time).toHaveText(written);
}

/** Every dialog a page opened, by type, and how the next one is answered. */
export interface DialogLog {
  types: string[];
  /** `stay` dismisses (a beforeunload dialog then keeps the page); `leave` accepts. */
  answer: 'stay' | 'leave';
}

/** Listens for the page's dialogs (`page.on('dialog')`), recording and answering each one. */
export function answerDialogs(page: Page, answer: DialogLog['answer']): DialogLog {
  const log: DialogLog = { types: [], answer };
  page.on('dialog', (dialog) => {
    log.types.push(dialog.type());
    void (log.answer === 'stay' ? dialog.dismiss() : dialog.accept());
  });
  return log;
}

/** Waits until no finite CSS animation or transition is running (dialogs, toasts, cards). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** Runs axe-core on the settled page and expects no violations, listing any it finds. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
  expect(found, `axe-core violations on the ${screen} screen`).toEqual([]);
}

/**
 * Saves a screenshot of the settled page as `<name>-<viewport width>.png`: the whole page, or
 * only the viewport for a modal dialog (its fixed overlay covers the viewport, not the page).
 */
export async function snap(page: Page, name: string, fullPage = true): Promise<void> {
  await settle(page);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage });
}

/** Clicks (or otherwise triggers) a download and returns it once the browser has it. */
export async function download(page: Page, trigger: () => Promise<void>): Promise<Download> {
  const started = page.waitForEvent('download');
  await trigger();
  return started;
}

/**
 * Remove on the upload card; when the results still hold files not downloaded, the page asks
 * first, and this confirms ("Remove files").
 */
export async function removeArchive(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  const asked = page.getByRole('alertdialog');
  await expect(page.getByText('Drop your ZIP file here').or(asked)).toBeVisible();
  if (await asked.isVisible()) {
    await asked.getByRole('button', { name: 'Remove files' }).click();
    await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
  }
}
