/**
 * The page on a server that cannot reach Google (issue 17): the API's resolver opens its breaker
 * after a handful of requests that got no answer, every other lookup is answered `unavailable`
 * without being sent, the page stops sending once the API says so, and the results say why in
 * plain words and offer "Retry failed places". Nothing here waits on a clock: the test's own
 * timeout is the only bound, and a run that ground through every place would still end, but with
 * far more requests than the at-most-twice the test counts.
 */
import { generateTakeout } from '@placeport/testkit';
import type { Route } from '@playwright/test';
import { dollarsFor, placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import {
  paymentDialog,
  receiptLines,
  resultsHeading,
  snap,
  uploadAndProceed,
} from './support/page';

// Google's name does not resolve from this server (as on a machine with no route out).
test.use({ apiSettings: { MAPS_UPSTREAM_ORIGIN: 'http://maps-upstream.invalid' } });

test('Google out of reach: results with the reason in plain words, each link sent at most twice, Retry offered', async ({
  page,
  demoApi,
}) => {
  test.setTimeout(10 * 60_000);
  const takeout = generateTakeout({
    seed: 1717,
    quirks: false,
    includeNonPlaceLists: false,
    lists: Array.from({ length: 12 }, (_, i) => ({
      name: `Trip ${i + 1}`,
      places: 10,
      kinds: { ftid: 1 },
    })),
  });
  const lists = placeLists(takeout);
  const links = lists.flatMap((list) => list.places.map((place) => place.url));
  const sent = new Map<string, number>();
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/resolve-urls-batch')) return;
    const { urls } = request.postDataJSON() as { urls: string[] };
    for (const url of urls) sent.set(url, (sent.get(url) ?? 0) + 1);
  });

  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();

  await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
    timeout: 5 * 60_000,
  });
  await expect(page.getByText(REASON_ADVICE_UNAVAILABLE, { exact: false }).first()).toBeVisible();
  // The cause, as the API said it: the server cannot reach Google (not that lookups failed one by one).
  await expect(
    page.getByText("Cannot reach Google: PlacePort's server gets no answer from Google right now"),
  ).toBeVisible();
  await expect(
    page.getByRole('button', { name: `Retry failed places (${links.length})` }),
  ).toBeVisible();
  // Every link was asked about, and none more than twice: once the API says Google is out of reach
  // the page sends nothing more (no retry round follows).
  expect([...sent.keys()].sort()).toEqual([...new Set(links)].sort());
  expect(Math.max(...sent.values())).toBeLessThanOrEqual(2);
  await snap(page, '60-results-google-unreachable');
});

test('100 lists on a server that cannot reach Google: Cancel keeps every list and charges only what converted', async ({
  page,
  demoApi,
}) => {
  test.setTimeout(10 * 60_000);
  // Each list mixes places whose links carry coordinates with places that need a lookup.
  const takeout = generateTakeout({
    seed: 1718,
    quirks: false,
    includeNonPlaceLists: false,
    lists: Array.from({ length: 100 }, (_, i) => ({
      name: `Stop ${i + 1}`,
      places: 3,
      kinds: { pin: 1, ftid: 1 },
    })),
  });
  const lists = placeLists(takeout);
  const places = lists.flatMap((list) => list.places);
  const pinned = places.filter((place) => place.kind === 'pin').length;
  const looked = places.filter((place) => place.kind === 'ftid').length;
  const withFiles = lists.filter((list) => list.places.some((p) => p.kind === 'pin')).length;
  expect(pinned + looked).toBe(places.length);
  expect(pinned).toBeGreaterThanOrEqual(5);

  // The first lookup request reaches the API (which cannot reach Google); the others wait, so the
  // run is still looking places up when Cancel is pressed.
  const held: Route[] = [];
  let passed = 0;
  await page.route('**/api/resolve-urls-batch', async (route) => {
    if (passed === 0) {
      passed += 1;
      await route.continue();
    } else held.push(route);
  });
  await page.goto(demoApi.url);
  await uploadAndProceed(page, zipUpload(takeout));
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();
  const card = page.getByRole('region', { name: 'Converting your places' });
  await expect.poll(() => held.length, { timeout: 60_000 }).toBeGreaterThan(0);
  await card.getByRole('button', { name: 'Cancel' }).click();

  await expect(resultsHeading(page)).toHaveText(`Conversion Stopped - ${withFiles} File(s) Ready`, {
    timeout: 60_000,
  });
  await expect(page.getByRole('button', { name: `Retry failed places (${looked})` })).toBeVisible();
  // The hold covered every place that could be placed; the charge is what converted.
  expect(await receiptLines(page)).toMatchObject({
    'Authorized (held)': dollarsFor(places.length),
    Charged: dollarsFor(pinned),
    Released: dollarsFor(looked),
  });
  await snap(page, '61-cancel-google-unreachable', false);
  for (const route of held) await route.abort().catch(() => undefined);
});

/** The advice the results give for places whose lookup failed (apps/web's REASON_ADVICE). */
const REASON_ADVICE_UNAVAILABLE =
  '"Retry failed places" looks them up again, now or in a few minutes.';
