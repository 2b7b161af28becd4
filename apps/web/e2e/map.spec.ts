/**
 * The results' map: once the results are shown, its chunk is fetched (never before, and nothing
 * from another origin), and every place is drawn where its coordinates say. Where that is, is
 * computed here in Node with the page's own projection setup (`makeProjection`, d3-geo) from the
 * canvas' size, and the canvas pixel there is read back; hovering the spot shows the place's name.
 * axe-core checks the results with the map at 1280 and 360 px, and screenshots are kept.
 */
import { generateTakeout, type GeneratedTakeout } from '@placeport/testkit';
import type { Locator, Page } from '@playwright/test';
import { POINT_RGB } from '../src/features/map/colours';
import { makeProjection } from '../src/features/map/projection';
import {
  expectedPlacemarks,
  placeLists,
  zipUpload,
  type ExpectedPlacemark,
} from './support/archives';
import { expect, test } from './support/fixtures';
import {
  expectAccessible,
  paymentDialog,
  resultsHeading,
  snap,
  uploadAndProceed,
} from './support/page';

/** The map's chunk, as Vite names it after its module. */
const MAP_CHUNK = /\/assets\/MapView-[\w-]+\.js$/;

/** The map's chunk and its stylesheet. */
const MAP_FILES = /\/assets\/MapView-[\w-]+\.(js|css)$/;

/** Four places in two lists: under five, so the free path converts them with no payment step. */
function twoLists(seed: number): GeneratedTakeout {
  return generateTakeout({
    seed,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: true,
    lists: [
      { name: 'Weekend in Lisbon', places: 2 },
      { name: 'Tokyo trip', places: 2 },
    ],
  });
}

/** Chooses the archive and converts it for free, up to the results; `converting` runs just before. */
async function convertForFree(
  page: Page,
  takeout: GeneratedTakeout,
  converting: () => void = () => undefined,
): Promise<void> {
  await uploadAndProceed(page, zipUpload(takeout));
  const convert = paymentDialog(page).getByRole('button', { name: 'Convert for Free' });
  await expect(convert).toBeEnabled();
  converting();
  await convert.click();
  await expect(resultsHeading(page)).toBeVisible({ timeout: 30_000 });
}

/** The map's canvas, by its text alternative. */
function mapImage(page: Page, label: string): Locator {
  return page.getByRole('img', { name: label });
}

/** Waits until every point of the current view is drawn. */
async function drawn(page: Page): Promise<void> {
  await expect(page.getByRole('figure')).toHaveAttribute('data-state', 'drawn');
}

/** Where the page must have drawn each place: the same projection, set up for the canvas' size. */
async function expectedPositions(
  canvas: Locator,
  places: readonly ExpectedPlacemark[],
): Promise<Array<ExpectedPlacemark & { x: number; y: number }>> {
  const size = await canvas.evaluate((element) => ({
    width: element.clientWidth,
    height: element.clientHeight,
  }));
  const coordinates = Float64Array.from(places.flatMap((place) => place.lngLat));
  const projection = makeProjection(coordinates, size.width, size.height);
  return places.map((place) => {
    const [x, y] = projection(place.lngLat)!;
    return { ...place, x, y };
  });
}

/** The canvas pixel under a CSS position, as `[r, g, b, a]`. */
async function pixelAt(canvas: Locator, x: number, y: number): Promise<number[]> {
  return canvas.evaluate(
    (element, [px, py]) => {
      const target = element as HTMLCanvasElement;
      const ratio = target.width / target.clientWidth;
      const context = target.getContext('2d')!;
      return Array.from(
        context.getImageData(Math.floor(px! * ratio), Math.floor(py! * ratio), 1, 1).data,
      );
    },
    [x, y],
  );
}

/** Every place is a point-coloured dot where it belongs, and hovering it shows its name. */
async function expectPlacesDrawn(
  page: Page,
  canvas: Locator,
  places: readonly ExpectedPlacemark[],
): Promise<void> {
  await drawn(page);
  const positions = await expectedPositions(canvas, places);
  for (const place of positions) {
    expect(await pixelAt(canvas, place.x, place.y), `the dot of ${place.name}`).toEqual([
      ...POINT_RGB,
      255,
    ]);
  }
  // Not everything is point-coloured: the corner is sea or blank.
  expect((await pixelAt(canvas, 1, 1)).slice(0, 3)).not.toEqual([...POINT_RGB]);
  for (const place of positions) {
    await canvas.hover({ position: { x: place.x, y: place.y } });
    await expect(page.getByRole('tooltip')).toHaveText(place.name);
  }
}

test('the map draws every place where its coordinates are, names it on hover, and fetches nothing from elsewhere', async ({
  page,
  demoApi,
}) => {
  const takeout = twoLists(2101);
  const [lisbon, tokyo] = placeLists(takeout);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));

  await page.goto(demoApi.url);
  await expect(page.getByText('Drop your ZIP file here')).toBeVisible();
  // The map's code is fetched once there are results, never before.
  let beforeConverting = -1;
  await convertForFree(page, takeout, () => {
    beforeConverting = requests.length;
  });

  const all = [...expectedPlacemarks(lisbon!), ...expectedPlacemarks(tokyo!)];
  const canvas = mapImage(page, 'Map of 4 places in 2 lists');
  await expect(canvas).toBeVisible();
  await expectPlacesDrawn(page, canvas, all);

  const select = page.getByRole('combobox', { name: 'Show' });
  await expect(select.getByRole('option')).toHaveText([
    'All lists',
    'Weekend in Lisbon',
    'Tokyo trip',
  ]);
  await select.selectOption({ label: 'Tokyo trip' });
  const tokyoMap = mapImage(page, 'Map of 2 places in Tokyo trip');
  await expect(tokyoMap).toBeVisible();
  await expectPlacesDrawn(page, tokyoMap, expectedPlacemarks(tokyo!));

  // The keyboard reaches every name too.
  await tokyoMap.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tooltip')).toHaveText(expectedPlacemarks(tokyo!)[0]!.name);

  const origin = new URL(demoApi.url).origin;
  const chunks = requests.filter((url) => MAP_CHUNK.test(new URL(url).pathname));
  expect(chunks).toHaveLength(1);
  expect(requests.indexOf(chunks[0]!)).toBeGreaterThanOrEqual(beforeConverting);
  expect(
    requests.filter((url) => !/^(blob|data):/.test(url) && new URL(url).origin !== origin),
  ).toEqual([]);
});

test('a map whose chunk could not be fetched is fetched again with Try again, styles and all', async ({
  page,
  demoApi,
}) => {
  const takeout = twoLists(2102);
  const places = placeLists(takeout).flatMap((list) => expectedPlacemarks(list));
  // The server away for the map's first requests: its stylesheet and its code each fail once.
  const refused: string[] = [];
  await page.route(MAP_FILES, async (route) => {
    const file = new URL(route.request().url()).pathname;
    if (refused.includes(file)) return route.continue();
    refused.push(file);
    return route.abort('connectionrefused');
  });
  await page.goto(demoApi.url);
  await convertForFree(page, takeout);

  const again = page.getByRole('button', { name: 'Try again' });
  await expect(page.getByText('The map could not be shown.', { exact: true })).toBeVisible();
  await again.scrollIntoViewIfNeeded();
  await snap(page, '24-results-map-failed', false);
  // From the keyboard, as often as it takes: each try asks for what failed before.
  for (let tries = 0; await again.isVisible(); tries += 1) {
    expect(tries).toBeLessThan(3);
    await again.focus();
    await page.keyboard.press('Enter');
    await expect(
      page.getByText('The map could not be shown.', { exact: true }).or(page.getByRole('figure')),
    ).toBeVisible();
  }
  expect(refused.map((file) => file.split('.').pop()).sort()).toEqual(['css', 'js']);

  const canvas = mapImage(page, 'Map of 4 places in 2 lists');
  await expectPlacesDrawn(page, canvas, places);
  // The map's own stylesheet came too: its frame is laid out as map.css says.
  await expect(page.locator('.map-frame')).toHaveCSS('position', 'relative');
  await canvas.scrollIntoViewIfNeeded();
  await snap(page, '25-results-map-retried', false);
});

for (const width of [1280, 360] as const) {
  test.describe(`the results with the map at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('pass axe-core, and are kept as a screenshot', async ({ page, demoApi }) => {
      const takeout = twoLists(2110 + width);
      const places = placeLists(takeout).flatMap((list) => expectedPlacemarks(list));
      await page.goto(demoApi.url);
      await convertForFree(page, takeout);
      const canvas = mapImage(page, 'Map of 4 places in 2 lists');
      await drawn(page);
      const [first] = await expectedPositions(canvas, places);
      await canvas.hover({ position: { x: first!.x, y: first!.y } });
      await expect(page.getByRole('tooltip')).toHaveText(first!.name);
      await expectAccessible(page, 'results with the map');
      // What the viewport shows: a full-page capture resizes the page, and the map redraws.
      await snap(page, '21-results-map', false);
    });
  });
}
