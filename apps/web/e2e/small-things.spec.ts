/**
 * Small things a person meets first: unknown paths answer HTTP 404 with the 404 screen; on a
 * 390 × 844 phone (iPhone 12–14) Choose File is on the first screen; the guide says that importing
 * into My Maps needs a computer; and files that are not good Takeout archives get the product's
 * messages, never a library's, with a way to choose another file. Axe-core checks the home screen
 * at 390 and 1280 px and the 404 screen, kept as screenshots for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateTakeout } from '@placeport/testkit';
import type { Page } from '@playwright/test';
import { uploadOf, zipUpload, type UploadFile } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  chooseFile,
  expectAccessible,
  paymentDialog,
  SCREENSHOT_DIR,
  selectionDialog,
  settle,
} from './support/page';

const NOT_FOUND_HEADING = '404 Page Not Found';
const MY_MAPS_NOTE =
  'Importing into Google My Maps needs a computer: My Maps imports files only in a desktop web browser. Afterwards the Google Maps app on your phone can show the map.';

/** What fflate and the browser say about bad archives; the page must never show them. */
const RAW_ERRORS = /invalid zip data|unexpected EOF|TypeError|RangeError|Error:/i;

/** Keeps a screenshot of the settled page under exactly this file name. */
async function snapAs(page: Page, fileName: string): Promise<void> {
  await settle(page);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, fileName), fullPage: true });
}

function uploadCard(page: Page) {
  return page.getByRole('region', { name: 'Upload Your Takeout Archive' });
}

function guide(page: Page) {
  return page.getByRole('region', { name: 'How to Use This Converter' });
}

test.describe('unknown paths', () => {
  test('answer HTTP 404 with the 404 screen; the page, its assets and the API keep theirs', async ({
    page,
    demoApi,
  }) => {
    for (const path of ['/nope', '/foo/bar']) {
      const response = await page.goto(`${demoApi.url}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(response?.headers()['cache-control'], path).toBe('no-store');
      expect(response?.headers()['content-type'], path).toContain('text/html');
      await expect(page.getByRole('heading', { name: NOT_FOUND_HEADING })).toBeVisible();
      await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
      await expect(page).toHaveTitle(/^404 Page Not Found/);
    }

    for (const path of ['/', '/index.html']) {
      const response = await page.goto(`${demoApi.url}${path}`);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('button', { name: 'Choose File' })).toBeVisible();
      await expect(page.getByRole('heading', { name: NOT_FOUND_HEADING })).toHaveCount(0);
    }

    // The page's own script and stylesheet, as the browser fetched them.
    const assets = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLScriptElement>('script[src]'),
        ...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'),
      ].map((element) => ('src' in element ? element.src : element.href)),
    );
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const response = await page.request.get(asset);
      expect(response.status(), asset).toBe(200);
    }

    const api = await page.request.get(`${demoApi.url}/api/nope`);
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({
      error: { code: 'not_found', message: 'There is no GET /api/nope.' },
    });
  });

  test('the 404 screen passes axe-core', async ({ page, demoApi }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const response = await page.goto(`${demoApi.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: NOT_FOUND_HEADING })).toBeVisible();
    await expectAccessible(page, '404 (390 px)');
    await snapAs(page, '23-not-found-404.png');
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page, '404 (1280 px)');
  });
});

test.describe('on a 390 × 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Choose File is visible without scrolling; the guide, with the My Maps note, follows', async ({
    page,
    demoApi,
  }) => {
    await page.goto(demoApi.url);
    const chooseFileButton = page.getByRole('button', { name: 'Choose File' });
    await expect(chooseFileButton).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const box = await chooseFileButton.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);

    // The guide comes after the upload card (in the document too, so Tab and screen readers
    // meet them in the order seen), and the upload card points to it.
    const uploadTop = (await uploadCard(page).boundingBox())!.y;
    const guideTop = (await guide(page).boundingBox())!.y;
    expect(guideTop).toBeGreaterThan(uploadTop);
    await uploadCard(page).getByRole('link', { name: 'How to Use This Converter' }).click();
    await expect(
      guide(page).getByRole('heading', { name: 'How to Use This Converter' }),
    ).toBeInViewport();
    const note = guide(page).getByText(MY_MAPS_NOTE, { exact: true });
    await note.scrollIntoViewIfNeeded();
    await expect(note).toBeVisible();
    await expect(note).toBeInViewport({ ratio: 1 });

    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page, 'home (390 px)');
    await snapAs(page, '22-home-phone-390.png');
  });
});

test.describe('at 200% zoom (640 × 400 CSS px)', () => {
  test.use({ viewport: { width: 640, height: 400 } });

  test('the payment view opens at its top, wherever the selection was scrolled to', async ({
    page,
    demoApi,
  }) => {
    await page.goto(demoApi.url);
    await chooseFile(page, zipUpload(generateTakeout({ seed: 96 })));
    const selection = selectionDialog(page);
    await selection.evaluate((dialog) => (dialog.scrollTop = dialog.scrollHeight));
    expect(await selection.evaluate((dialog) => dialog.scrollTop)).toBeGreaterThan(0);
    await selection.getByRole('button', { name: 'Proceed to Payment' }).click();
    const payment = paymentDialog(page);
    await expect(payment.getByRole('button', { name: 'Back to Selection' })).toBeInViewport();
    expect(await payment.evaluate((dialog) => dialog.scrollTop)).toBe(0);
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the seed's order: the guide, with the My Maps note, above the upload card", async ({
    page,
    demoApi,
  }) => {
    await page.goto(demoApi.url);
    await expect(page.getByRole('button', { name: 'Choose File' })).toBeVisible();
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings.slice(0, 2)).toEqual([
      'How to Use This Converter',
      'Upload Your Takeout Archive',
    ]);
    await expect(guide(page).getByText(MY_MAPS_NOTE, { exact: true })).toBeVisible();
    await expect(
      uploadCard(page).getByRole('link', { name: 'How to Use This Converter' }),
    ).toHaveCount(0);
    await expectAccessible(page, 'home (1280 px)');
  });
});

/** A 1 × 1 PNG: what a phone's photo picker hands over when a picture is renamed `.zip`. */
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The end-of-directory record alone: a well-formed ZIP with nothing in it. */
const EMPTY_ZIP = Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);

const INCOMPLETE =
  'This file is not a complete ZIP archive. Download it again from Google Takeout.';
const NOT_A_ZIP =
  'This file is not a ZIP archive. Choose the ZIP file you downloaded from Google Takeout (its name starts with "takeout-").';
const NO_CSV = 'No CSV files found in the zip file.';
const NEXT_STEP =
  'Choose the ZIP file from Google Takeout, exported with Saved selected (and Maps (your places) for starred places).';

const badArchives: { what: string; file: UploadFile; message: string; nextStep?: string }[] = [
  {
    what: 'a 0-byte .zip',
    file: uploadOf('takeout-20260101T000000Z-001.zip', new Uint8Array(0), 'application/zip'),
    message: INCOMPLETE,
  },
  {
    what: 'a PNG named .zip',
    file: uploadOf('takeout.zip', PNG_BYTES, 'application/zip'),
    message: NOT_A_ZIP,
  },
  {
    what: 'an empty ZIP (no entries)',
    file: uploadOf('empty.zip', EMPTY_ZIP, 'application/zip'),
    message: NO_CSV,
    nextStep: NEXT_STEP,
  },
  {
    what: 'a ZIP without any CSV (another Takeout product)',
    file: zipUpload(
      generateTakeout({
        seed: 91,
        lists: [],
        includeNonPlaceLists: false,
        extraEntries: {
          'Takeout/archive_browser.html': new TextEncoder().encode('<html></html>'),
          'Takeout/Google Photos/Photos from 2025/IMG_0001.png': PNG_BYTES,
        },
      }),
      'takeout-photos.zip',
    ),
    message: NO_CSV,
    nextStep: NEXT_STEP,
  },
];

for (const [index, { what, file, message, nextStep }] of badArchives.entries()) {
  test(`upload error in plain words: ${what}; "Choose another file" opens the chooser`, async ({
    page,
    demoApi,
  }) => {
    await page.goto(demoApi.url);
    await chooseFile(page, file);
    const alert = uploadCard(page).getByRole('alert');
    await expect(alert.getByText('Invalid File', { exact: true })).toBeVisible();
    await expect(alert.getByText(message, { exact: true })).toBeVisible();
    if (nextStep) await expect(alert.getByText(nextStep, { exact: true })).toBeVisible();
    expect(await alert.innerText()).not.toMatch(RAW_ERRORS);
    expect(await uploadCard(page).innerText()).not.toMatch(RAW_ERRORS);
    await expect(selectionDialog(page)).toHaveCount(0);

    const chooser = page.waitForEvent('filechooser');
    await alert.getByRole('button', { name: 'Choose another file' }).click();
    await (await chooser).setFiles(zipUpload(generateTakeout({ seed: 92 + index })));
    await expect(selectionDialog(page)).toBeVisible();
    await expect(uploadCard(page).getByRole('alert')).toHaveCount(0);
  });
}
