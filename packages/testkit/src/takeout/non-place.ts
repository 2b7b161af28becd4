import { writeCsv } from './csv-file.js';
import { SAVED_FOLDER } from './list.js';
import type { Random } from './random.js';
import type { GeneratedList, GeneratedPlace } from './types.js';

/** The lists Takeout's `Saved/` holds that are not places; the product must exclude them all. */
export const NON_PLACE_LIST_NAMES = [
  'Favourite images',
  'Favorite images',
  'Images',
  'Favourite pages',
  'Favorite pages',
] as const;

/** Other files of a real export that are not lists at all. */
export const ARCHIVE_BROWSER_PATH = 'Takeout/archive_browser.html';
export const SAVED_PLACES_JSON_PATH = 'Takeout/Maps (your places)/Saved Places.json';

const PAGES = [
  ['Eiffel Tower - Wikipedia', 'https://en.wikipedia.org/wiki/Eiffel_Tower'],
  [
    'The 50 best restaurants in Tokyo',
    'https://www.timeout.com/tokyo/restaurants/best-restaurants',
  ],
  ['Opening hours & tickets', 'https://www.louvre.fr/en/visit/hours-admission'],
  ['Ramen, ranked', 'https://example.com/blog/ramen?sort=best&page=2'],
] as const;

function webRow(name: string, index: number, random: Random): GeneratedPlace {
  const images = name.toLowerCase().includes('images');
  const [title, url] = images
    ? [
        `IMG_${20190504 + index}_${random.int(900000) + 100000}.jpg`,
        `https://lh3.googleusercontent.com/p/AF1QipN${random.uint32().toString(36)}=w1920-h1080`,
      ]
    : random.pick(PAGES);
  return { title, note: '', url, comment: '', kind: 'web' };
}

/** The image and page lists, with ordinary web URLs and the classic header. */
export function buildNonPlaceLists(random: Random): GeneratedList[] {
  return NON_PLACE_LIST_NAMES.map((name) => {
    const places = Array.from({ length: 2 + random.int(4) }, (_, i) => webRow(name, i, random));
    const layout = { header: 'classic', bom: false, crlf: false } as const;
    const written = writeCsv(layout, places, false, random);
    const path = `${SAVED_FOLDER}/${name}.csv`;
    return { path, name, ...layout, places, isPlaceList: false, ...written };
  });
}

/** The archive's HTML index page, as Takeout ships it (trimmed). */
export function archiveBrowserHtml(paths: readonly string[]): string {
  const items = paths.map((p) => `<li>${p.replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</li>`);
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Archive Overview</title></head>\n<body><h1>Your Google data archive</h1><ul>${items.join('')}</ul></body></html>\n`;
}
