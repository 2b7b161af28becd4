/**
 * The page on a server that cannot reach Google (issue 17): the API's resolver opens its breaker
 * after a handful of requests that got no answer, every other lookup is answered `unavailable`
 * without being sent, the page retries once at the end of the run, and the results say why in
 * plain words and offer "Retry failed places". Nothing here waits on a clock: the test's own
 * timeout is the only bound, and a run that ground through every place would still end, but with
 * far more requests than the at-most-twice the test counts.
 */
import { generateTakeout } from '@placeport/testkit';
import { placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { chooseFile, paymentDialog, resultsHeading, selectionDialog, snap } from './support/page';

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
  await chooseFile(page, zipUpload(takeout));
  await selectionDialog(page).getByRole('button', { name: 'Proceed to Payment' }).click();
  await paymentDialog(page).getByRole('button', { name: 'Authorize Payment & Convert' }).click();

  await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
    timeout: 5 * 60_000,
  });
  await expect(page.getByText(REASON_ADVICE_UNAVAILABLE, { exact: false }).first()).toBeVisible();
  await expect(
    page.getByRole('button', { name: `Retry failed places (${links.length})` }),
  ).toBeVisible();
  // Every link was asked about, and none more than twice (the run's one retry round).
  expect([...sent.keys()].sort()).toEqual([...new Set(links)].sort());
  expect(Math.max(...sent.values())).toBeLessThanOrEqual(2);
  await snap(page, '60-results-google-unreachable');
});

/** The advice the results give for places whose lookup failed (apps/web's REASON_ADVICE). */
const REASON_ADVICE_UNAVAILABLE = 'The lookup service could not be reached or took too long.';
