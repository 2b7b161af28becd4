/**
 * The selection dialog reads at every width (issue 17, part 6): a list's name keeps its width and
 * wraps by words, and its facts line ("2 with coordinates · 4 need a lookup · 1 without a usable
 * link") goes under the name instead of squeezing it. Names of 120 characters and more, in Latin,
 * Japanese, Arabic and Hebrew, among 300 lists, at 1280 and 360 px: every name's box is measured
 * against eight characters of its own font, nothing overflows sideways, axe-core finds nothing, and
 * screenshots are kept in `test-results/e2e-screenshots/` to be looked at.
 */
import { generateTakeout, type GeneratedTakeout, type ListSpec } from '@placeport/testkit';
import type { Locator, Page } from '@playwright/test';
import { zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { chooseFile, expectAccessible, selectionDialog, snap } from './support/page';

const WIDTHS = [1280, 360] as const;

/** The name of the report, whose facts line took the whole row at 1280 px. */
const FAVORITES = 'Favorite places';

/** Long names in several scripts, each at least 120 characters. */
const LONG_NAMES = [
  'Restaurants, cafés and bakeries we want to try on the long weekend in Lisbon, Porto and the Douro valley, with friends in June',
  'ポートランドで行きたいカフェとパン屋さんと本屋さんのリスト、週末の散歩のときに寄りたいところ、雨の日でも楽しめる場所、友だちにすすめられたお店、古い映画館と小さな美術館、夜遅くまで開いている喫茶店と屋台',
  'مطاعم ومقاهي نريد زيارتها في عطلة نهاية الأسبوع الطويلة في مراكش وفاس والرباط مع الأصدقاء في شهر يونيو، وأماكن أخرى للزيارة',
  'מסעדות ובתי קפה שאנחנו רוצים לנסות בסוף השבוע הארוך בתל אביב, ירושלים וחיפה עם חברים בחודש יוני, ועוד מקומות לבקר בהם',
  'Donaudampfschifffahrtsgesellschaftskapitänsmützenherstellerinnungsmitgliederversammlungsprotokollabschriftenverzeichnisausgabe',
];

/** 300 lists: the list with its three facts, the long names, and short ones to fill. */
function wideArchive(seed: number): GeneratedTakeout {
  const lists: ListSpec[] = [
    { name: FAVORITES, places: 7, kinds: { pin: 2, ftid: 4, 'no-link': 1 } },
    ...LONG_NAMES.map((name) => ({ name, places: 3, kinds: { pin: 1, ftid: 1 } })),
  ];
  for (let i = lists.length; i < 300; i += 1) {
    lists.push({ name: `List ${String(i).padStart(3, '0')}`, places: 1, kinds: { pin: 1 } });
  }
  return generateTakeout({ seed, quirks: false, includeNonPlaceLists: false, lists });
}

/** Every name box of the dialog that is narrower than eight characters of its font (or than the name itself). */
async function squeezedNames(dialog: Locator): Promise<string[]> {
  return dialog.locator('.list-name').evaluateAll((names) => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    return names.flatMap((name) => {
      const style = getComputedStyle(name);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const eight = canvas.measureText('0').width * 8;
      const natural = canvas.measureText(name.textContent ?? '').width;
      const width = name.getBoundingClientRect().width;
      // Half a pixel for subpixel layout.
      return width + 0.5 >= Math.min(eight, natural)
        ? []
        : [`${name.textContent} (${width.toFixed(1)} px, font ${style.fontSize})`];
    });
  });
}

/** Rows whose facts line is not under their name (it sits beside it, taking the name's room). */
async function factsBesideName(dialog: Locator): Promise<string[]> {
  return dialog.getByRole('listitem').evaluateAll((rows) =>
    rows.flatMap((row) => {
      const name = row.querySelector('.list-name');
      const facts = row.querySelector('.list-sources');
      if (!name || !facts) return [];
      return facts.getBoundingClientRect().top + 0.5 >= name.getBoundingClientRect().bottom
        ? []
        : [name.textContent ?? ''];
    }),
  );
}

async function expectNoSidewaysScroll(page: Page, dialog: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
  expect(await dialog.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
}

for (const width of WIDTHS) {
  test.describe(`the selection dialog reads at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('long names in any script and 300 lists keep their width; facts wrap under them', async ({
      page,
      demoApi,
    }) => {
      await page.goto(demoApi.url);
      await chooseFile(page, zipUpload(wideArchive(2060)));
      const dialog = selectionDialog(page);
      await expect(dialog.getByRole('checkbox')).toHaveCount(300);
      await expect(dialog.getByText('300 of 300 lists selected')).toBeVisible();

      const favorites = dialog
        .getByRole('listitem')
        .filter({ has: page.getByRole('checkbox', { name: FAVORITES, exact: true }) });
      await expect(favorites.locator('.list-sources')).toHaveText(
        // The space before each dot is a no-break space: the facts wrap after it, between parts.
        /^\d+ with coordinates\u00a0· \d+ needs? a lookup\u00a0· \d+ without a usable link$/,
      );
      for (const name of LONG_NAMES) {
        await expect(dialog.getByRole('checkbox', { name, exact: true })).toBeAttached();
      }

      expect(await squeezedNames(dialog)).toEqual([]);
      expect(await factsBesideName(dialog)).toEqual([]);
      await expectNoSidewaysScroll(page, dialog);
      await expectAccessible(page, `selection (300 lists, long names, ${width} px)`);
      await snap(page, '22-selection-long-names', false);
      await dialog
        .getByRole('checkbox', { name: LONG_NAMES[3], exact: true })
        .scrollIntoViewIfNeeded();
      await snap(page, '22-selection-rtl-names', false);

      // Further down the list, the short names read as well; then the filter finds a long one.
      await dialog
        .getByRole('checkbox', { name: 'List 150', exact: true })
        .scrollIntoViewIfNeeded();
      await snap(page, '23-selection-300-lists', false);
      await dialog.getByRole('searchbox', { name: 'Filter lists' }).fill('ポートランド');
      await expect(dialog.getByRole('checkbox')).toHaveCount(1);
      expect(await squeezedNames(dialog)).toEqual([]);
      await expectNoSidewaysScroll(page, dialog);
    });
  });
}

test('on a small phone (375 × 667) with more lists than fit, the dialog’s buttons stay in sight', async ({
  page,
  demoApi,
}) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(demoApi.url);
  await chooseFile(page, zipUpload(wideArchive(8)));
  const dialog = selectionDialog(page);
  for (const name of ['Cancel', 'Proceed to Payment']) {
    const box = (await dialog.getByRole('button', { name }).boundingBox())!;
    // Within the screen without scrolling the dialog or the list, and not covered by either.
    expect(box.y + box.height).toBeLessThanOrEqual(667);
    await expect(dialog.getByRole('button', { name })).toBeInViewport();
  }
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click({ trial: true });
  await snap(page, '18-selection-small-phone', false);
});
