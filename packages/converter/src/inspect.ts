import { eachCsvEntry } from './core/archive.js';
import type { ZipContents } from './core/zip-directory.js';
import { ConverterError, MESSAGES } from './core/errors.js';
import { LIMITS, PlaceCounter, type Limits } from './core/limits.js';
import { placeNeed, type PlaceNeed } from './core/link-need.js';
import { countNonBlankRows, type CsvSource, type ParsedCsv } from './core/csv.js';
import { FAILED_CSV_SUFFIX, failedPlacesListName, listOutputNames } from './core/names.js';
import { unguardFailedPlaces } from './core/failed-csv.js';
import type { ReadOptions } from './library.js';
import { parseSavedPlacesJson } from './core/saved-places-json.js';
import { parseSavedPlacesCsv } from './core/csv.js';
import type { ListKind, ListSummary, ParsedPlace } from './core/types.js';

const utf8 = new TextDecoder();

/** Where a list's places get their coordinates, as {@link ListSummary} counts them. */
type SourceCounts = Pick<ListSummary, 'withCoordinates' | 'needsLookup' | 'withoutLocation'>;

/** The counts of a list that cannot be converted. */
const NO_SOURCES: SourceCounts = { withCoordinates: 0, needsLookup: 0, withoutLocation: 0 };

/**
 * A list ready to convert: what inspection says of it, and its places as read (or why they cannot
 * be), so a list is parsed once however often it is converted.
 */
export interface InspectedList extends ListSummary {
  parsed: ParsedCsv | ConverterError;
}

/**
 * Parses a list (its text, or its UTF-8 bytes), turning a validation failure into data (the seed
 * skips such a list and goes on). A saved list is CSV; the starred places (`kind` `starred`) are
 * `Saved Places.json`. With a `counter` (one per archive), its places count against the archive's
 * place cap, and past it this throws ConverterError `too-many-places`, the one failure that is not
 * the list's own.
 */
export function parseList(
  content: CsvSource,
  kind: ListKind = 'csv',
  counter?: PlaceCounter,
): ParsedCsv | ConverterError {
  try {
    return kind === 'starred'
      ? parseSavedPlacesJson(typeof content === 'string' ? content : utf8.decode(content), counter)
      : parseSavedPlacesCsv(content, counter);
  } catch (error) {
    // Past the archive's place cap the whole archive is refused, not this list.
    if (error instanceof ConverterError && error.code === 'too-many-places') throw error;
    if (error instanceof ConverterError) return error;
    return new ConverterError(
      'csv-parse',
      error instanceof Error ? error.message : MESSAGES.validationFailed,
    );
  }
}

function isEmptyList(parsed: ParsedCsv | ConverterError): boolean {
  return parsed instanceof ConverterError && parsed.code === 'csv-empty';
}

/**
 * What each place of a list needs ({@link placeNeed}), in order, and the counts inspection shows:
 * how many are placed without a lookup (coordinates in the file or the link) and how many need a
 * lookup (a link without coordinates that the resolver accepts), and how many Takeout gives no
 * location for (a search for 0,0). The rest (no link, or a link the resolver refuses,
 * `not_allowed`) cannot be placed at all. Every link is read here once: a place
 * placed by it gets its coordinates (and no need), and the run plans from `needs` (kept on the
 * parsed list) instead of reading it again.
 */
export function coordinateSources(places: readonly ParsedPlace[]): SourceCounts & {
  needs: (PlaceNeed | undefined)[];
} {
  const needs = new Array<PlaceNeed | undefined>(places.length);
  let withCoordinates = 0;
  let needsLookup = 0;
  let withoutLocation = 0;
  for (let i = 0; i < places.length; i += 1) {
    const place = places[i]!;
    const need = placeNeed(place);
    if (need.kind === 'coordinates') {
      // The place keeps what its link says (no need is kept), so a run uses it as it is.
      place.coordinates = need.coordinates;
      withCoordinates += 1;
      continue;
    }
    needs[i] = need;
    if (need.kind === 'lookup') needsLookup += 1;
    // `not_found` before any lookup is Takeout's own "no location" (a search for 0,0).
    else if (need.reason === 'not_found') withoutLocation += 1;
  }
  return { needs, withCoordinates, needsLookup, withoutLocation };
}

/**
 * The counts of {@link coordinateSources} for `parsed`, whose `needs` it sets so the run does not
 * read the links again.
 */
function countSources(parsed: ParsedCsv): SourceCounts {
  const { needs, ...counts } = coordinateSources(parsed.places);
  parsed.needs = needs;
  return counts;
}

/**
 * Opens a Takeout archive: chooses and inflates the place lists (saved lists and starred places),
 * parses each once, and counts its places (rowCount, what the price is computed from): rows with a
 * Title or a URL, or the features of `Saved Places.json`; and among them those placed without a
 * lookup and those needing one. A list that fails validation keeps its reason in `problem` and counts
 * its non-blank rows after the header. A `Saved Places.json` without places is not a list. Throws ConverterError with the seed's messages and
 * product.md's (`no-place-lists`, `incomplete-zip`), and `too-many-places` as soon as the lists
 * together hold more than `limits.maxPlaces` places (counted while parsing, so an archive of
 * millions of rows is refused after reading just past the cap). With `options.pick`, only the lists
 * it picks are unpacked, read and counted; each list is named as when every list is read.
 */
export function readArchive(
  archive: Uint8Array | ZipContents,
  options: Pick<ReadOptions, 'logger' | 'inflate' | 'crc32' | 'release' | 'pick'> & {
    limits?: Limits;
  } = {},
): InspectedList[] {
  const limits = options.limits ?? LIMITS;
  const warn = (message: string) => options.logger?.warn(message);
  const { paths, entries } = eachCsvEntry(
    archive,
    limits,
    warn,
    options.inflate,
    options.pick,
    options.crc32,
  );
  // One count for the whole archive: its lists together may hold at most limits.maxPlaces places.
  const counter = new PlaceCounter(limits.maxPlaces);
  // Each list is parsed as it comes out of the archive, and its text let go before the next.
  const read: Array<Omit<InspectedList, 'outputName'>> = [];
  let emptyStarred = false;
  for (const entry of entries) {
    try {
      const parsed = parseList(entry.bytes, entry.kind, counter);
      // A failed-places CSV of an earlier run among the lists (a folder of them, given back to
      // the CLI): its places as they were, without the formula guards its cells got.
      if (entry.kind === 'csv' && !(parsed instanceof ConverterError)) unguardFailedPlaces(parsed);
      // Starred places without a single place (Takeout writes an empty collection) are no list.
      if (entry.kind === 'starred' && isEmptyList(parsed)) {
        emptyStarred = true;
        continue;
      }
      const failed = parsed instanceof ConverterError;
      read.push({
        path: entry.path,
        name: entry.name,
        kind: entry.kind,
        size: entry.size,
        rowCount: !failed
          ? parsed.places.length
          : entry.kind === 'csv'
            ? Math.max(0, countNonBlankRows(entry.bytes, counter) - 1)
            : 0,
        ...(failed ? NO_SOURCES : countSources(parsed)),
        ...(failed ? { problem: parsed.message } : {}),
        parsed,
      });
    } finally {
      // Read and counted (or the archive refused): its bytes are not needed (`ReadOptions.release`).
      options.release?.(entry.bytes);
    }
  }
  if (read.length === 0) {
    throw new ConverterError(
      'no-place-lists',
      emptyStarred ? MESSAGES.noPlacesStarredEmpty : MESSAGES.noPlaceLists,
    );
  }
  // Named from every list's path, read or not (picked out, damaged), so a list's files are named
  // the same whichever lists a run reads.
  const names = new Map<string, string[]>();
  listOutputNames(paths).forEach((name, index) => {
    const same = names.get(paths[index]!);
    if (same) same.push(name);
    else names.set(paths[index]!, [name]);
  });
  return read.map((list) => ({ ...list, outputName: names.get(list.path)!.shift()! }));
}

/**
 * One CSV file as a list of its own (the `placeport` command's input besides a ZIP): a saved list,
 * or a failed-places CSV of an earlier run, whose formula guards are taken off
 * ({@link unguardFailedPlaces}) and whose files are
 * named after the list it came from (`Want to go - failed-places.csv` writes `Want to go.kml`
 * before any retry label). Its places count against `limits.maxPlaces`; a CSV that cannot be read
 * throws its ConverterError (there is no other list to go on with).
 */
export function readCsvFile(
  content: string,
  fileName: string,
  options: { limits?: Limits } = {},
): InspectedList {
  const name = fileName.replace(/\.csv$/i, '');
  const parsed = parseList(content, 'csv', new PlaceCounter((options.limits ?? LIMITS).maxPlaces));
  if (parsed instanceof ConverterError) throw parsed;
  unguardFailedPlaces(parsed);
  // A failed-places CSV is named after its list (`Want to go - failed-places.csv`): the list it
  // makes is "Want to go (failed places)", as a retry on the page is, its files named after the list.
  const listName = name.endsWith(FAILED_CSV_SUFFIX) ? name.slice(0, -FAILED_CSV_SUFFIX.length) : '';
  return {
    path: fileName,
    name: listName ? failedPlacesListName(listName) : name,
    outputName: listName || name,
    kind: 'csv',
    size: new TextEncoder().encode(content).byteLength,
    rowCount: parsed.places.length,
    ...countSources(parsed),
    parsed,
  };
}
