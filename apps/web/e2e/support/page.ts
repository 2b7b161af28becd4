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
  return page.getByRole('heading', { name: /^Conversion Complete - \d+ File\(s\) Ready$/ });
}

/** One list's panel in the results card, found by the file name it shows. */
export function resultPanel(page: Page, shownFileName: string): Locator {
  return page.getByRole('article').filter({
    has: page.getByText(shownFileName, { exact: true }),
  });
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
