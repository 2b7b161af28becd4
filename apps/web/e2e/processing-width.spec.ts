/**
 * The processing card names the place being looked up, never its raw Google link, and nothing runs
 * past the card (issue 17, part 5): with links of over 200 characters, at 360 px the page never
 * scrolls sideways (`scrollWidth`), and at 1280 px the current item stays inside the card. The
 * lookups are held (Playwright answers `resolve-urls-batch` only when the test says) so the card is
 * measured while it shows them; screenshots are kept in `test-results/e2e-screenshots/`.
 */
import { generateTakeout } from '@placeport/testkit';
import type { Route } from '@playwright/test';
import { zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { paymentDialog, resultsHeading, snap, uploadAndProceed } from './support/page';

/** Long place names, as Google puts them in the path of a place link. */
const NAMES = [
  'Miradouro de Santa Catarina e o Adamastor, com vista sobre o Tejo e a Ponte 25 de Abril, ao pôr do sol num dia de verão',
  'Jardim Botânico Tropical de Belém, com as estufas, o lago dos patos, as palmeiras imperiais e o palácio dos Condes da Calheta',
  'Pastelaria com os pastéis de nata mais famosos da cidade, a fila que dá a volta ao quarteirão e as mesas azuis lá dentro',
  'Livraria Bertrand do Chiado, a mais antiga livraria do mundo ainda em funcionamento, segundo o livro dos recordes Guinness',
  'Mercado da Ribeira e Time Out Market, com as bancas de peixe de manhã cedo e os restaurantes dos chefes à noite, muito cheio',
  'Castelo de São Jorge, as muralhas, os pavões, a câmara escura e a vista sobre a Baixa Pombalina, Alfama e o rio Tejo inteiro',
];

/** A place link of over 200 characters: the name, then a feature id that needs a lookup. */
function longLink(name: string, index: number): string {
  const hex = (index + 1).toString(16).padStart(4, '0');
  return `https://www.google.com/maps/place/${encodeURIComponent(name).replace(/%20/g, '+')}/data=!4m2!3m1!1s0x12${hex}ab3c4d5e6f:0x7a8b9c0d1e2f${hex}`;
}

function csvCell(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * 200 places, so the run sends two requests of 100 links (the converter's smallest) at once: the
 * test answers the first, and the card names a place of it while the second is held.
 */
const PLACES = Array.from({ length: 200 }, (_, index) => `${NAMES[index % NAMES.length]} ${index}`);

const LONG_LINKS_CSV = new TextEncoder().encode(
  [
    'Title,Note,URL,Comment',
    ...PLACES.map((name, index) => `${csvCell(name)},,${csvCell(longLink(name, index))},`),
  ].join('\n'),
);

for (const width of [360, 1280] as const) {
  test.describe(`the processing card at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('names the place looked up, not its 200-character link, and nothing overflows', async ({
      page,
      demoApi,
    }) => {
      for (const [index, name] of PLACES.entries()) {
        expect(longLink(name, index).length, 'the links are long').toBeGreaterThan(200);
      }
      const takeout = generateTakeout({
        seed: 5300,
        quirks: false,
        includeNonPlaceLists: false,
        lists: [],
        extraEntries: { 'Takeout/Saved/Long links.csv': LONG_LINKS_CSV },
      });
      // The lookups wait until the test has measured the card.
      const held: Route[] = [];
      await page.route('**/api/resolve-urls-batch', (route) => {
        held.push(route);
      });
      await page.goto(demoApi.url);
      await uploadAndProceed(page, zipUpload(takeout));
      await paymentDialog(page)
        .getByRole('button', { name: 'Authorize Payment & Convert' })
        .click();

      const card = page.getByRole('region', { name: 'Converting your places' });
      await expect(card.getByText('Looking up 0 of 200 places')).toBeVisible();
      await expect.poll(() => held.length).toBe(2);
      await held.shift()!.fulfill({ json: { results: {}, failures: {} } });
      await expect(card.getByText('Looking up 100 of 200 places')).toBeVisible();
      const item = card.locator('.current-item');
      await expect(item).toBeVisible();
      const shown = (await item.textContent()) ?? '';
      expect(shown).not.toMatch(/https?:|google\.com|data=/);
      expect(
        NAMES.some((name) => name.startsWith(shown.replace(/…$/, ''))),
        `"${shown}" is the start of a place's name`,
      ).toBe(true);

      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      const cardBox = (await card.boundingBox())!;
      const itemBox = (await item.boundingBox())!;
      expect(itemBox.x + itemBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      await snap(page, '30-processing-long-links');

      for (const route of held.splice(0)) {
        await route.fulfill({ json: { results: {}, failures: {} } });
      }
      await page.unroute('**/api/resolve-urls-batch');
      await page.route('**/api/resolve-urls-batch', (route) =>
        route.fulfill({ json: { results: {}, failures: {} } }),
      );
      await expect(resultsHeading(page)).toHaveText('Nothing could be converted', {
        timeout: 60_000,
      });
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
    });
  });
}
