import { extractCsvEntries } from './core/archive.js';
import { ConverterError, MESSAGES } from './core/errors.js';
import { LIMITS, PlaceCounter, type Limits } from './core/limits.js';
import { placeNeed } from './core/link-need.js';
import { countNonBlankRows, type ParsedCsv } from './core/csv.js';
import { listOutputNames } from './core/names.js';
import type { ParsedPlace, UploadedList } from './core/types.js';
import { parseList, type Logger } from './pipeline.js';

/** A list from the archive with its parse, kept so the list is read once. */
export interface InspectedList extends UploadedList {
  parsed: ParsedCsv | ConverterError;
}

function isEmptyList(parsed: ParsedCsv | ConverterError): boolean {
  return parsed instanceof ConverterError && parsed.code === 'csv-empty';
}

/**
 * How many places of a list are placed without a lookup (coordinates in the file or the link), and
 * how many need a lookup: a link without coordinates that the resolver accepts ({@link placeNeed}),
 * as the pipeline sends them. The rest (no link, or a link the resolver refuses, `not_allowed`)
 * cannot be placed at all.
 */
export function countCoordinateSources(places: readonly ParsedPlace[]): {
  withCoordinates: number;
  needsLookup: number;
} {
  let withCoordinates = 0;
  let needsLookup = 0;
  for (const place of places) {
    const need = placeNeed(place).kind;
    if (need === 'coordinates') withCoordinates += 1;
    else if (need === 'lookup') needsLookup += 1;
  }
  return { withCoordinates, needsLookup };
}

/**
 * Opens a Takeout archive: chooses and inflates the place lists (saved lists and starred places),
 * parses each once, and counts its places (rowCount, what the price is computed from): rows with a
 * Title or a URL, or the features of `Saved Places.json`; and among them those placed without a
 * lookup and those needing one. A list that fails validation keeps its reason in `problem` and counts
 * its non-blank rows after the header. A `Saved Places.json` without places is not a list. Throws ConverterError with the seed's messages and
 * product.md's (`no-place-lists`, `incomplete-zip`), and `too-many-places` as soon as the lists
 * together hold more than `limits.maxPlaces` places (counted while parsing, so an archive of
 * millions of rows is refused after reading just past the cap).
 */
export function readArchive(
  bytes: Uint8Array,
  options: { limits?: Limits; logger?: Logger } = {},
): InspectedList[] {
  const warn = (message: string) => options.logger?.warn(message);
  const limits = options.limits ?? LIMITS;
  const entries = extractCsvEntries(bytes, limits, warn);
  // One count for the whole archive: its lists together may hold at most limits.maxPlaces places.
  const counter = new PlaceCounter(limits.maxPlaces);
  const parsedEntries = entries
    .map((entry) => ({ entry, parsed: parseList(entry.content, entry.kind, counter) }))
    // Starred places without a single place (Takeout writes an empty collection) are no list.
    .filter(({ entry, parsed }) => !(entry.kind === 'starred' && isEmptyList(parsed)));
  if (parsedEntries.length === 0) {
    throw new ConverterError('no-place-lists', MESSAGES.noPlaceLists);
  }
  const outputNames = listOutputNames(parsedEntries.map(({ entry }) => entry.path));
  return parsedEntries.map(({ entry, parsed }, index) => {
    const failed = parsed instanceof ConverterError;
    const counts = failed
      ? { withCoordinates: 0, needsLookup: 0 }
      : countCoordinateSources(parsed.places);
    return {
      path: entry.path,
      name: entry.name,
      kind: entry.kind,
      content: entry.content,
      size: entry.size,
      rowCount: !failed
        ? parsed.places.length
        : entry.kind === 'csv'
          ? Math.max(0, countNonBlankRows(entry.content, counter) - 1)
          : 0,
      ...counts,
      ...(failed ? { problem: parsed.message } : {}),
      parsed,
      outputName: outputNames[index]!,
    };
  });
}
