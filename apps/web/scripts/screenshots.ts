/**
 * Screenshots of every screen, at 1280 px and 360 px, for a person to look at. Serves the built
 * app (`dist/`) from the local fake API (demo payments; ftid links resolved the way the fake
 * Google upstream places them), drives Debian's Chromium with playwright-core, and writes PNGs to
 * `test-results/screenshots/`. Run `pnpm --filter @placeport/web screenshots` (it builds first).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coordinatesForCid, coordinatesForFtid, generateTakeout } from '@placeport/testkit';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { startFakeApi } from '../src/test/fake-api';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test-results', 'screenshots');
const FIXTURES = join(ROOT, 'test-results', 'fixtures');
const WIDTHS = [1280, 360] as const;
/** The Stripe.js stand-in, served where the page asks Stripe for its script. */
const STRIPE_SHIM_PATH = fileURLToPath(import.meta.resolve('@placeport/testkit/stripe-shim'));

/** Answers like the real resolver: coordinates for a link that names its place by id. */
function resolve(url: string): string | null {
  const ftid = /0x[0-9a-f]+:0x[0-9a-f]+/i.exec(url)?.[0];
  const cid = /[?&](?:cid|ludocid)=(\d+)/.exec(url)?.[1];
  const at = ftid ? coordinatesForFtid(ftid) : cid ? coordinatesForCid(cid) : null;
  return at ? `https://www.google.com/maps/search/?api=1&query=${at.lat},${at.lng}` : null;
}

async function writeFixtures(): Promise<Record<string, string>> {
  await mkdir(FIXTURES, { recursive: true });
  const broken = new TextEncoder().encode('Name,Link\nCafé,https://example.com\n');
  const archives = {
    takeout: generateTakeout({
      seed: 4,
      extraEntries: { 'Takeout/Saved/Old export.csv': broken },
    }).zip,
    small: generateTakeout({
      seed: 5,
      quirks: false,
      includeNonPlaceLists: false,
      lists: [{ name: 'Weekend in Lisbon', places: 3, kinds: { pin: 1 } }],
    }).zip,
    large: generateTakeout({
      seed: 7,
      quirks: false,
      includeNonPlaceLists: false,
      coordinatesInUrls: true,
      lists: [{ name: 'Every café in Paris', places: 4500 }],
    }).zip,
    unresolvable: generateTakeout({
      seed: 6,
      quirks: false,
      includeNonPlaceLists: false,
      lists: [{ name: 'Mystery spots', places: 12, kinds: { 'q-address': 1 } }],
    }).zip,
  };
  const paths: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(archives)) {
    paths[name] = join(FIXTURES, `${name}.zip`);
    await writeFile(paths[name], bytes);
  }
  paths.notZip = join(FIXTURES, 'Saved Places.json');
  await writeFile(paths.notZip, '{}');
  return paths;
}

async function shoot(page: Page, name: string, width: number): Promise<void> {
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
}

async function upload(page: Page, file: string): Promise<void> {
  await page.setInputFiles('input[type=file]', file);
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const files = await writeFixtures();
  const api = await startFakeApi({ staticDir: join(ROOT, 'dist'), resolve });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  try {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.route('https://js.stripe.com/**', (route) =>
        route.fulfill({ path: STRIPE_SHIM_PATH, contentType: 'text/javascript' }),
      );
      const page = await context.newPage();
      api.options.payments = 'demo';
      api.options.resolve = resolve;

      await page.goto(api.url);
      await page.getByText('Drop your ZIP file here').waitFor();
      await shoot(page, '01-home', width);

      await upload(page, files.notZip!);
      await page.getByRole('alert').waitFor();
      await shoot(page, '02-refused-file', width);

      await page.reload();
      await upload(page, files.takeout!);
      await page.getByRole('dialog', { name: 'Select Lists to Convert' }).waitFor();
      await shoot(page, '03-selection', width);

      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByText('Demo mode — no card is charged').waitFor();
      await shoot(page, '04-payment-demo', width);

      await page.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
      await page.getByRole('heading', { name: 'Converting your places' }).waitFor();
      await page.screenshot({ path: join(OUT, `05-processing-${width}.png`), fullPage: true });

      await page.getByRole('heading', { name: /Conversion Complete/ }).waitFor();
      await page.getByText('Final charge').waitFor();
      await shoot(page, '06-results', width);

      await page.getByRole('button', { name: 'Remove' }).click();
      await upload(page, files.small!);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByText('This conversion is free').waitFor();
      await shoot(page, '07-payment-free', width);
      await page.getByRole('button', { name: 'Convert for Free' }).click();
      await page.getByRole('heading', { name: /Conversion Complete/ }).waitFor();
      await shoot(page, '08-results-free', width);

      await page.getByRole('button', { name: 'Remove' }).click();
      await upload(page, files.large!);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
      await page.getByText(/Split into 3 files/).waitFor();
      await shoot(page, '14-results-split', width);

      await page.getByRole('button', { name: 'Remove' }).click();
      api.options.resolve = () => null;
      await upload(page, files.unresolvable!);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByRole('button', { name: 'Authorize Payment & Convert' }).click();
      await page.getByRole('heading', { name: 'Payment Cancelled' }).waitFor();
      await shoot(page, '09-results-payment-cancelled', width);

      await page.getByRole('button', { name: 'Remove' }).click();
      api.options.failIntent = true;
      await upload(page, files.takeout!);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByText('Payment Error', { exact: true }).waitFor();
      await shoot(page, '10-intent-failed-toast', width);
      api.options.failIntent = false;

      api.options.payments = 'stripe';
      await page.goto(api.url);
      await upload(page, files.takeout!);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByTestId('fake-stripe-payment').waitFor();
      await shoot(page, '11-payment-stripe', width);

      await context.unroute('https://js.stripe.com/**');
      await context.route('https://js.stripe.com/**', (route) => route.abort());
      const failing = await context.newPage();
      await failing.goto(api.url);
      await upload(failing, files.takeout!);
      await failing.getByRole('button', { name: 'Proceed to Payment' }).click();
      await failing.getByText('Payment form unavailable').waitFor();
      await shoot(failing, '12-payment-stripe-unavailable', width);

      await page.goto(`${api.url}/no/such/page`);
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
      await shoot(page, '13-not-found', width);
      await context.close();
    }
  } finally {
    await browser.close();
    await api.close();
  }
  console.log(`Screenshots written to ${OUT}`);
}

await main();
