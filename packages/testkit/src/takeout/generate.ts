import { buildArchive } from './archive.js';
import { buildPlaceList, listPath } from './list.js';
import {
  ARCHIVE_BROWSER_PATH,
  archiveBrowserHtml,
  buildNonPlaceLists,
  SAVED_PLACES_JSON_PATH,
} from './non-place.js';
import { Random, seedFrom } from './random.js';
import { generateSavedPlacesJson } from './saved-places-json.js';
import type {
  GeneratedList,
  GeneratedPlace,
  GeneratedTakeout,
  GenerateTakeoutOptions,
  ListSpec,
} from './types.js';

/**
 * The lists of an archive generated without `lists`: together they show every header variant,
 * a description, a BOM, CRLF, and names in several scripts with `&` and quotes.
 */
export const DEFAULT_LISTS: readonly ListSpec[] = [
  { name: 'Want to go', places: 40, header: 'tags', description: false, bom: false, crlf: false },
  {
    name: 'Favourite places',
    places: 25,
    header: 'classic',
    description: false,
    bom: false,
    crlf: false,
  },
  {
    name: 'Starred places',
    places: 30,
    header: '2022',
    description: false,
    bom: false,
    crlf: true,
  },
  {
    name: '東京 🍜',
    places: 20,
    header: 'classic',
    description: 'Ramen and more in Tokyo, 2024',
    bom: true,
    crlf: false,
  },
  {
    name: 'Café & "Bars"',
    places: 12,
    header: 'classic',
    description: false,
    bom: true,
    crlf: true,
  },
];

/** Stream numbers apart from the lists' own (0, 1, 2, …). */
const NON_PLACE_STREAM = 0x7fff_0000;

/** The place of the first list copied into the others: its first place with a feature id. */
function sharedPlace(first: GeneratedList | undefined): GeneratedPlace | undefined {
  return first?.places.find((p) => p.ftid !== undefined) ?? first?.places[0];
}

/**
 * Generates a realistic Google Takeout "Saved" archive, deterministic for a seed: the same
 * options give the same bytes on any machine. Each returned list says what a correct converter
 * must read from every row. Throws `RangeError` on a bad seed, list name, place count or a
 * repeated list path.
 */
export function generateTakeout(options: GenerateTakeoutOptions): GeneratedTakeout {
  const specs = options.lists ?? DEFAULT_LISTS;
  const quirks = options.quirks ?? true;
  const coordinatesInUrls = options.coordinatesInUrls ?? false;
  const paths = specs.map(listPath);
  const repeated = paths.find((p, i) => paths.indexOf(p) !== i);
  if (repeated !== undefined) throw new RangeError(`two lists share the path ${repeated}`);

  const lists: GeneratedList[] = [];
  specs.forEach((spec, index) => {
    const random = new Random(seedFrom(options.seed, index));
    const shared = quirks && index > 0 ? sharedPlace(lists[0]) : undefined;
    const context = { random, quirks, coordinatesInUrls };
    lists.push(buildPlaceList(spec, shared ? { ...context, shared } : context));
  });

  const files = new Map<string, Uint8Array>();
  const includeOthers = options.includeNonPlaceLists ?? true;
  if (includeOthers) {
    lists.push(...buildNonPlaceLists(new Random(seedFrom(options.seed, NON_PLACE_STREAM))));
  }
  const starred = options.savedPlacesJson;
  const savedPlaces = starred
    ? generateSavedPlacesJson(options.seed, starred.places, starred.format)
    : undefined;
  // Set before the lists, so "Maps (your places)" comes before "Saved" as in Takeout's archives.
  if (savedPlaces) files.set(SAVED_PLACES_JSON_PATH, new TextEncoder().encode(savedPlaces.text));
  if (includeOthers) {
    const allPaths = [
      ...(savedPlaces ? [SAVED_PLACES_JSON_PATH] : []),
      ...lists.map((l) => l.path),
    ];
    files.set(ARCHIVE_BROWSER_PATH, new TextEncoder().encode(archiveBrowserHtml(allPaths)));
  }
  for (const list of lists) files.set(list.path, list.bytes);

  const extra = options.extraEntries ?? {};
  for (const [path, bytes] of Object.entries(extra)) files.set(path, bytes);

  const { zip, entries } = buildArchive(files);
  const kept = lists.filter((l) => !Object.hasOwn(extra, l.path));
  // Like a list, the generated file is not reported when an extra entry replaced it.
  const starredKept = Object.hasOwn(extra, SAVED_PLACES_JSON_PATH) ? undefined : savedPlaces;
  return { zip, lists: kept, entries, ...(starredKept ? { savedPlaces: starredKept } : {}) };
}
