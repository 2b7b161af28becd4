/**
 * The web app's benchmark in Debian's Chromium: a generated archive of 100,000 places goes through
 * the real page (card payments through the fake Stripe and the Stripe.js shim, so the run loads
 * Stripe.js as a paying visitor's does; the real API process; the fake Google upstream), and the
 * figures are printed: long tasks on the page's main thread while the archive is read and while it
 * converts (target: none over 50 ms), time from the file being chosen to the results being shown,
 * peak JS heap of the page and of the conversion worker, the gzipped size of the first screen's
 * JS and CSS (target: under 150 KB), whether Stripe.js was requested on the first screen (it
 * must not be), and the Stripe API calls the server made for the run. Then the results' map
 * (`map.ts`): results shown → map drawn, the long tasks until then, and the time and long tasks of
 * drawing each list chosen in its selector.
 *
 * Builds nothing: run after `pnpm build` (turbo's `bench` task builds first). Options:
 * `--places N` (default 100000), `--lists K` (default 4), `--resolution` (every link is a
 * Takeout place link without coordinates, so the API looks each one up on the fake Google).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateTakeout, startFakeGoogle, startFakeStripe } from '@placeport/testkit';
import { chromium } from 'playwright-core';
import { startApi, WEB_DIST } from '../e2e/support/api-process';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { useStripeShim } from '../e2e/support/stripe';
import { initialAssets } from './assets';
import { sampleHeap } from './heap';
import { instrument, mark, pageRecord, type LongTask } from './instrument';
import { instrumentMap, measureMap, printMap } from './map';

/** Long tasks that end this soon after the results appear still belong to the conversion. */
const AFTER_RESULTS_MS = 1_000;
const INITIAL_TARGET_KB = 150;

const { values } = parseArgs({
  options: {
    places: { type: 'string', default: '100000' },
    lists: { type: 'string', default: '4' },
    resolution: { type: 'boolean', default: false },
    /** Latency of the fake Google's every answer, in ms (with --resolution: 100, like a real page). */
    latency: { type: 'string' },
  },
});
const latencyMs = Number(values.latency ?? (values.resolution ? '100' : '0'));
const places = Number(values.places);
const listCount = Number(values.lists);

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function within(tasks: readonly LongTask[], from: number, to: number): LongTask[] {
  return tasks.filter((task) => task.start >= from && task.start <= to);
}

function describeTasks(tasks: readonly LongTask[]): string {
  if (tasks.length === 0) return 'none';
  const longest = Math.max(...tasks.map((task) => task.duration));
  const total = tasks.reduce((sum, task) => sum + task.duration, 0);
  return `${tasks.length} (longest ${longest.toFixed(0)} ms, ${total.toFixed(0)} ms in all)`;
}

/** Stripe API calls by kind, e.g. `1 POST /v1/payment_intents, 2 GET /v1/payment_intents/pi_…`. */
function describeCalls(calls: readonly { method: string; path: string }[]): string {
  const kinds = new Map<string, number>();
  for (const call of calls) {
    const kind = `${call.method} ${call.path.replace(/\/pi_\w+/, '/pi_…')}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([kind, times]) => `${times} ${kind}`).join(', ');
}

function makeArchive(): Uint8Array {
  const base = Math.floor(places / listCount);
  const lists = Array.from({ length: listCount }, (_, index) => ({
    name: `Bench list ${index + 1}`,
    places: index === 0 ? places - base * (listCount - 1) : base,
    ...(values.resolution ? { kinds: { ftid: 1 } } : {}),
  }));
  return generateTakeout({
    seed: 100_000,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: !values.resolution,
    lists,
  }).zip;
}

async function main(): Promise<void> {
  const assets = await initialAssets(WEB_DIST);
  const folder = await mkdtemp(join(tmpdir(), 'placeport-bench-'));
  const zipPath = join(folder, 'takeout-bench.zip');
  const zip = makeArchive();
  await writeFile(zipPath, zip);

  const google = await startFakeGoogle(latencyMs > 0 ? { delayMs: latencyMs } : {});
  const stripe = await startFakeStripe();
  const api = await startApi(
    {
      MAPS_UPSTREAM_ORIGIN: google.url,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
      STRIPE_API_BASE: stripe.url,
    },
    join(folder, 'api.log'),
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const stripeRequests = (await useStripeShim(page, stripe.url)).requests;
    const firstScreen: string[] = [];
    const onRequest = (request: { url(): string }) => firstScreen.push(request.url());
    page.on('request', onRequest);
    await instrument(page);
    await instrumentMap(page);

    await page.goto(api.url, { waitUntil: 'networkidle' });
    await page.getByText('Drop your ZIP file here').waitFor();
    page.off('request', onRequest);
    const stripeOnFirstScreen = stripeRequests.length;
    const stripeFirstScreenUrls = [...stripeRequests];

    const heap = await sampleHeap(page);
    await mark(page, 'chosen');
    await page.setInputFiles('input[type=file]', zipPath);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click({ timeout: 300_000 });
    const authorize = page.getByRole('button', { name: 'Authorize Payment & Convert' });
    await authorize.waitFor({ timeout: 60_000 });
    // The card form (the shim) is ready when the button is.
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('button')].some(
          (button) => button.textContent === 'Authorize Payment & Convert' && !button.disabled,
        ),
      undefined,
      { timeout: 60_000 },
    );
    await mark(page, 'authorized');
    await authorize.click();
    await page.getByText(/^Final charge: /).waitFor({ timeout: 900_000 });
    const converted = await page.getByText(/^Successfully converted: /).textContent();
    await page.waitForTimeout(AFTER_RESULTS_MS);
    const peaks = await heap.stop();
    const record = await pageRecord(page);
    const { chosen, dialogShown, authorized, resultsShown } = record.marks;
    if (!chosen || !dialogShown || !authorized || !resultsShown) {
      throw new Error(`A moment was not recorded: ${JSON.stringify(record.marks)}`);
    }
    const map = await measureMap(page, resultsShown);
    const inspectTasks = within(record.longTasks, chosen, dialogShown);
    const conversionTasks = within(record.longTasks, authorized, resultsShown + AFTER_RESULTS_MS);
    const js = assets.filter((asset) => asset.kind === 'js');
    const css = assets.filter((asset) => asset.kind === 'css');
    const initialGzip = assets.reduce((sum, asset) => sum + asset.gzipped, 0);

    console.log(
      `\nPlacePort web benchmark: ${places.toLocaleString('en-US')} places in ${listCount} lists ` +
        `(${mb(zip.length)} zip), ${values.resolution ? 'every link resolved by the API' : 'coordinates in the links'}, Chromium ${browser.version()}`,
    );
    console.log(`  result shown                   ${converted}`);
    if (values.resolution) {
      console.log(
        `  upstream latency               ${latencyMs} ms a page; lookup updates received ${record.lookupUpdates.length} (first "${record.lookupUpdates[0] ?? '-'}", last "${record.lookupUpdates.at(-1) ?? '-'}")`,
      );
    }
    console.log(
      `  progress bar                   ${record.percents.length} distinct values, highest while converting ${Math.max(0, ...record.percents)}%`,
    );
    console.log(
      `  file chosen → results shown    ${((resultsShown - chosen) / 1000).toFixed(2)} s`,
    );
    console.log(
      `    reading the archive          ${((dialogShown - chosen) / 1000).toFixed(2)} s (file chosen → selection dialog)`,
    );
    console.log(
      `    converting                   ${((resultsShown - authorized) / 1000).toFixed(2)} s (authorize → results, incl. the seed's ~1.4 s of pauses)`,
    );
    console.log(`  long tasks while reading       ${describeTasks(inspectTasks)}`);
    console.log(`  long tasks while converting    ${describeTasks(conversionTasks)}`);
    console.log(
      `  long tasks over 50 ms, all run ${describeTasks(within(record.longTasks, chosen, Infinity))}`,
    );
    console.log(
      `  peak JS heap, page             ${mb(peaks.mainThread)} (${peaks.samples} samples)`,
    );
    console.log(`  peak JS heap, worker           ${mb(peaks.worker)}`);
    for (const asset of assets) {
      console.log(
        `  initial ${asset.kind.padEnd(3)} ${asset.path.padEnd(28)} ${kb(asset.bytes)} → ${kb(asset.gzipped)} gzipped`,
      );
    }
    console.log(
      `  initial JS + CSS, gzipped      ${kb(initialGzip)} (JS ${kb(js.reduce((s, a) => s + a.gzipped, 0))}, CSS ${kb(css.reduce((s, a) => s + a.gzipped, 0))}; target < ${INITIAL_TARGET_KB} KB: ${initialGzip < INITIAL_TARGET_KB * 1024 ? 'met' : 'MISSED'})`,
    );
    console.log(
      `  first screen requests          ${firstScreen.map((url) => new URL(url).pathname).join(', ')}`,
    );
    console.log(
      `  Stripe.js on the first screen  ${stripeOnFirstScreen === 0 ? 'not requested' : `REQUESTED (${stripeFirstScreenUrls.join(', ')})`}`,
    );
    console.log(
      `  Stripe.js requests, whole run  ${stripeRequests.length} (card payment through the shim)`,
    );
    const serverCalls = stripe.requests.filter((request) => request.headers.authorization);
    console.log(
      `  Stripe API calls by the server ${serverCalls.length} (${describeCalls(serverCalls)})`,
    );
    printMap(map);
  } finally {
    await browser.close();
    await api.stop();
    await google.close();
    await stripe.close();
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
