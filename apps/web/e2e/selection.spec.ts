/**
 * The selection dialog tells the truth before anyone pays, against the real API in demo mode: each
 * row says where its places' coordinates come from, a list that cannot be converted shows why and
 * is neither chosen nor counted in the total or the maximum charge (which the payment view then
 * asks for), the starred places are tagged, same-named lists show their folders, and past eight
 * lists a filter narrows the rows without touching the selection. axe-core checks the dialog at
 * 1280 and 360 px, and screenshots are kept in `test-results/e2e-screenshots/`.
 */
import { generateTakeout, type GeneratedTakeout, type ListSpec } from '@placeport/testkit';
import type { Locator } from '@playwright/test';
import { dollarsFor, placeLists, zipUpload } from './support/archives';
import { expect, test } from './support/fixtures';
import { chooseFile, expectAccessible, paymentDialog, selectionDialog, snap } from './support/page';

const WIDTHS = [1280, 360] as const;

/** A CSV without the seed's Title and URL columns: the converter cannot read it. */
const BROKEN_CSV = new TextEncoder().encode('Name,Link\nA,B\n');

/** The reason the converter gives for {@link BROKEN_CSV}, as the row shows it. */
const BROKEN_REASON =
  'Can\'t be converted: CSV file must contain "Title" and "URL" columns. Found columns: Name, Link';

/** A list of every place needing a lookup, one of every place placed by its link, one mixed. */
function truthArchive(seed: number): GeneratedTakeout {
  return generateTakeout({
    seed,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Weekend in Lisbon', places: 9, kinds: { pin: 1, ftid: 1 } },
      { name: 'Want to go', places: 6, kinds: { ftid: 1 } },
      { name: 'Want to go', places: 4, kinds: { pin: 1 }, folder: 'Takeout 2/Saved' },
    ],
    savedPlacesJson: { format: 'new', places: 5 },
    extraEntries: { 'Takeout/Saved/Broken.csv': BROKEN_CSV },
  });
}

/** Twelve small lists, two of them cafés (one accented), so the filter has something to find. */
function manyListsArchive(seed: number): GeneratedTakeout {
  const names = [
    'Cafés à Paris',
    'Museums',
    'Ramen',
    'Beaches',
    'Hikes',
    'Bookshops',
    'Café crawl',
    'Road trip',
    'Zürich',
    'Bakeries',
    'Viewpoints',
    'Night markets',
  ];
  const lists: ListSpec[] = names.map((name) => ({ name, places: 2, kinds: { pin: 1 } }));
  return generateTakeout({ seed, quirks: false, includeNonPlaceLists: false, lists });
}

/** The row (list item) whose checkbox is named `name` exactly. */
function row(dialog: Locator, name: string): Locator {
  return dialog
    .getByRole('listitem')
    .filter({ has: dialog.page().getByRole('checkbox', { name, exact: true }) });
}

/** `3 with coordinates · 37 need a lookup`, zero parts left out, as the dialog writes it. */
function sourcesText(withCoordinates: number, needsLookup: number): string {
  return [
    withCoordinates > 0 ? `${withCoordinates} with coordinates` : '',
    needsLookup > 0 ? `${needsLookup} ${needsLookup === 1 ? 'needs' : 'need'} a lookup` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

for (const width of WIDTHS) {
  test.describe(`the selection dialog at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a broken list, the starred places and same-named lists, told truthfully', async ({
      page,
      demoApi,
    }) => {
      const takeout = truthArchive(1900 + width);
      const [lisbon, wantToGo, wantToGo2] = placeLists(takeout);
      const starred = takeout.savedPlaces!.places;
      const convertible = [lisbon!, wantToGo!, wantToGo2!];
      const places = convertible.reduce((sum, list) => sum + list.places.length, starred.length);
      const lisbonPlaced = lisbon!.places.filter((place) => place.expected).length;
      expect(lisbonPlaced, 'the mixed list mixes').toBeGreaterThan(0);
      expect(lisbonPlaced, 'the mixed list mixes').toBeLessThan(lisbon!.places.length);

      await page.goto(demoApi.url);
      await chooseFile(page, zipUpload(takeout));
      const dialog = selectionDialog(page);
      await expect(dialog.getByRole('checkbox')).toHaveCount(5);

      // The broken list: its reason, its checkbox disabled and unchecked, not counted.
      const broken = dialog.getByRole('checkbox', { name: 'Broken', exact: true });
      await expect(broken).toBeDisabled();
      await expect(broken).toHaveAttribute('aria-checked', 'false');
      await expect(row(dialog, 'Broken').getByText(BROKEN_REASON)).toBeVisible();
      await expect(broken).toHaveAccessibleDescription(new RegExp(`^${escape(BROKEN_REASON)}`));
      await expect(dialog.getByText('4 of 5 lists selected')).toBeVisible();
      await expect(dialog.getByText(`${places} places in total`)).toBeVisible();
      await expect(dialog.getByText(`Maximum charge: ${dollarsFor(places)}`)).toBeVisible();
      await expect(
        dialog.getByText('Only converted places are charged, at $0.10 each.'),
      ).toBeVisible();

      // Where the coordinates come from, per list.
      await expect(
        row(dialog, 'Weekend in Lisbon').getByText(
          sourcesText(lisbonPlaced, lisbon!.places.length - lisbonPlaced),
        ),
      ).toBeVisible();

      // Same-named lists show their folders, and their checkboxes are named by them.
      const first = row(dialog, 'Want to go in Takeout/Saved');
      const second = row(dialog, 'Want to go in Takeout 2/Saved');
      await expect(first.getByText('Takeout/Saved', { exact: true })).toBeVisible();
      await expect(first.getByText(sourcesText(0, wantToGo!.places.length))).toBeVisible();
      await expect(second.getByText('Takeout 2/Saved', { exact: true })).toBeVisible();
      await expect(second.getByText(sourcesText(wantToGo2!.places.length, 0))).toBeVisible();

      // The starred places are tagged as such.
      const starredRow = row(dialog, 'Saved Places');
      await expect(starredRow.getByText('Starred places', { exact: true })).toBeVisible();
      await expect(starredRow.getByText(`${starred.length} places ·`)).toBeVisible();

      await expectAccessible(page, `selection (truth, ${width} px)`);
      // On a phone the list scrolls: the screenshot shows the broken list and the starred places.
      await starredRow.scrollIntoViewIfNeeded();
      await snap(page, '20-selection-truth', false);

      // Select All never takes the broken list; clicking it changes nothing.
      await dialog.getByRole('button', { name: 'Deselect All' }).click();
      await expect(dialog.getByText('Maximum charge: $0.00')).toBeVisible();
      await dialog.getByRole('button', { name: 'Select All', exact: true }).click();
      await broken.click({ force: true });
      await expect(dialog.getByText('4 of 5 lists selected')).toBeVisible();
      await expect(broken).toHaveAttribute('aria-checked', 'false');
      await expect(dialog.getByText(`Maximum charge: ${dollarsFor(places)}`)).toBeVisible();

      // The payment view asks for the same maximum, which the API accepted.
      await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
      const payment = paymentDialog(page);
      await expect(
        payment.getByRole('definition').filter({ hasText: `${places} places` }),
      ).toBeVisible();
      await expect(
        payment.getByRole('definition').filter({ hasText: dollarsFor(places) }),
      ).toBeVisible();
    });

    test('past eight lists, a filter narrows the rows and leaves the selection alone', async ({
      page,
      demoApi,
    }) => {
      const takeout = manyListsArchive(1950 + width);
      const lists = placeLists(takeout);
      await page.goto(demoApi.url);
      await chooseFile(page, zipUpload(takeout));
      const dialog = selectionDialog(page);
      await expect(dialog.getByRole('checkbox')).toHaveCount(lists.length);
      await expect(dialog.getByText(`Showing all ${lists.length} lists`)).toBeVisible();

      await dialog.getByRole('button', { name: 'Deselect All' }).click();
      await dialog.getByRole('checkbox', { name: 'Museums', exact: true }).click();
      await expect(dialog.getByText(`1 of ${lists.length} lists selected`)).toBeVisible();

      const filter = dialog.getByRole('searchbox', { name: 'Filter lists' });
      await filter.fill('CAFE');
      await expect(dialog.getByRole('checkbox')).toHaveCount(2);
      await expect(dialog.getByRole('checkbox', { name: 'Cafés à Paris' })).toBeVisible();
      await expect(dialog.getByRole('checkbox', { name: 'Café crawl' })).toBeVisible();
      await expect(dialog.getByText(`Showing 2 of ${lists.length} lists`)).toBeVisible();
      await expect(dialog.getByText(`1 of ${lists.length} lists selected`)).toBeVisible();
      await expect(
        dialog.getByText(`Select All and Deselect All act on all ${lists.length} lists`),
      ).toBeVisible();
      await expectAccessible(page, `selection (filtered, ${width} px)`);
      await snap(page, '21-selection-filter', false);

      // Select All acts on every list, shown or not.
      await dialog.getByRole('button', { name: 'Select All', exact: true }).click();
      await expect(
        dialog.getByText(`${lists.length} of ${lists.length} lists selected`),
      ).toBeVisible();
      await expect(dialog.getByText(`${lists.length * 2} places in total`)).toBeVisible();

      // By folder; nothing found; Escape clears the filter and leaves the dialog open.
      await filter.fill('no such list');
      await expect(dialog.getByRole('checkbox')).toHaveCount(0);
      await expect(dialog.getByText('No list matches “no such list”.')).toBeVisible();
      await filter.press('Escape');
      await expect(filter).toHaveValue('');
      await expect(dialog.getByRole('checkbox')).toHaveCount(lists.length);

      await filter.fill('zur');
      await expect(dialog.getByRole('checkbox')).toHaveCount(1);
      await dialog.getByRole('button', { name: 'Clear filter' }).click();
      await expect(filter).toBeFocused();
      await expect(dialog.getByRole('checkbox')).toHaveCount(lists.length);
      await expect(
        dialog.getByText(`${lists.length} of ${lists.length} lists selected`),
      ).toBeVisible();
    });
  });
}

/** `text` as a regular expression matching it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
