/**
 * A part of an export of the whole account (Takeout splits one into 2 GB parts by default, ZIP64
 * past 4 GB): the page's worker reads it from the file's slices, its directory and only its
 * lists, instead of refusing it for its size. The part is a sparse file of 5 GB (no disk used),
 * chosen by its path as a person picks it.
 */
import { kmlPoints, writeSparseZip64Part } from '@placeport/testkit';
import { expect, test } from './support/fixtures';
import { readDownload } from './support/kml';
import {
  download,
  paymentDialog,
  resultPanel,
  resultsHeading,
  selectionDialog,
  snap,
} from './support/page';

test('a 5 GB part of a whole-account export is read by its lists and converted', async ({
  page,
  demoApi,
}, testInfo) => {
  const file = testInfo.outputPath('takeout-20261127T110000Z-003.zip');
  const size = await writeSparseZip64Part(file, {
    'Takeout/Saved/Want to go.csv':
      'Title,Note,URL,Comment\nColosseum,,"https://www.google.com/maps/search/41.8902,12.4922",\nPantheon,,"https://www.google.com/maps/place/Pantheon/@41.8986,12.4769,17z/data=!3d41.8986108!4d12.4768729",\n',
  });
  expect(size).toBeGreaterThan(5 * 1024 ** 3);
  await page.goto(demoApi.url);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose File' }).click();
  await (await chooser).setFiles(file);

  const dialog = selectionDialog(page);
  await expect(dialog.getByText('Want to go', { exact: true })).toBeVisible();
  await expect(dialog.getByText('2 places in total')).toBeVisible();
  await expect(page.getByText('5 GB · ZIP archive')).toBeVisible();
  await snap(page, 'large-part-selection', false);
  await dialog.getByRole('button', { name: 'Proceed to Payment' }).click();
  // Two places are under the card minimum: converted free.
  await paymentDialog(page).getByRole('button', { name: 'Convert for Free' }).click();
  await expect(resultsHeading(page)).toHaveText('Conversion Complete - 1 File(s) Ready');
  const kml = await readDownload(
    await download(page, () =>
      resultPanel(page, 'Want to go.kml')
        .getByRole('link', { name: 'Download KML — Want to go' })
        .click(),
    ),
  );
  expect(kmlPoints(kml.text)).toEqual([
    { name: 'Colosseum', lngLat: [12.4922, 41.8902] },
    { name: 'Pantheon', lngLat: [12.4768729, 41.8986108] },
  ]);
});
