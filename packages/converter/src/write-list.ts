/**
 * Writing a list once its places have their final answers: its statistics, its files in each
 * format asked for, its failed-places CSV, and the log of places left without coordinates.
 */
import type { ConverterError } from './core/errors.js';
import { MESSAGES } from './core/errors.js';
import { buildFailedCsv } from './core/failed-csv.js';
import { writeListFiles, type OutputFormat } from './core/formats/output.js';
import type { MappedPlace } from './core/kml.js';
import { failedCsvFileName, listNameFromPath } from './core/names.js';
import type { UnplacedReason } from './core/reasons.js';
import type { Logger } from './core/seams.js';
import type { ParsedCsv } from './core/csv.js';
import type {
  ConversionResult,
  ConversionStats,
  ListIdentity,
  ListOrigin,
  ParsedPlace,
} from './core/types.js';

/** Places without coordinates logged one by one; the rest are counted in one line. */
export const MAX_LOGGED_UNCONVERTED = 20;

/** A list's identity and names as the run planned them: its name only when not its file's (a retry list). */
export interface PlannedList extends Pick<ListIdentity, 'path' | 'outputName'> {
  name?: string | undefined;
  origin?: ListOrigin | undefined;
  fileName: string;
}

function statsFor(places: readonly ParsedPlace[]): ConversionStats {
  let converted = 0;
  const unplaced: Partial<Record<UnplacedReason, number>> = {};
  for (const place of places) {
    if (place.coordinates) converted += 1;
    else if (place.reason) unplaced[place.reason] = (unplaced[place.reason] ?? 0) + 1;
  }
  return {
    totalPlaces: places.length,
    converted,
    skipped: places.length - converted,
    unplaced,
  };
}

/** A list that failed validation: skipped with its reason, the others go on. */
export function skippedList(list: PlannedList, error: ConverterError): ConversionResult {
  return {
    fileName: list.fileName,
    path: list.path,
    name: list.name ?? listNameFromPath(list.path),
    outputName: list.outputName,
    stats: statsFor([]),
    places: [],
    files: [],
    skippedReason: error.message || MESSAGES.validationFailed,
    ...(list.origin ? { origin: list.origin } : {}),
  };
}

/**
 * A list's result: its places (with coordinates, or the reason they have none), statistics, files
 * in each format (parts of at most `maxPerFile` placemarks) and, when some place has no
 * coordinates, its failed-places CSV. A list with no place is `empty`.
 */
export function writeList(
  list: PlannedList,
  parsed: ParsedCsv,
  places: ParsedPlace[],
  options: {
    formats: readonly OutputFormat[];
    maxPerFile?: number | undefined;
    resolvedCount: number;
  },
): ConversionResult {
  const listName = list.name ?? listNameFromPath(list.path);
  const mapped = places.filter((place): place is MappedPlace => place.coordinates !== undefined);
  const failed = places.filter((place) => !place.coordinates);
  const meta = {
    name: listName,
    outputName: list.outputName,
    ...(parsed.description ? { description: parsed.description } : {}),
  };
  const result: ConversionResult = {
    fileName: list.fileName,
    path: list.path,
    name: listName,
    outputName: list.outputName,
    stats: statsFor(places),
    places,
    files:
      mapped.length > 0
        ? options.formats.flatMap((format) =>
            writeListFiles(meta, mapped, format, options.maxPerFile),
          )
        : [],
    resolvedCount: options.resolvedCount,
  };
  if (list.origin) result.origin = list.origin;
  if (places.length === 0) result.empty = true;
  if (parsed.description) result.description = parsed.description;
  if (failed.length > 0) {
    result.failedCsvContent = buildFailedCsv(failed, parsed.columns);
    result.failedCsvFileName = failedCsvFileName(list.outputName);
  }
  return result;
}

/**
 * Logs places left without coordinates with what was tried, the first
 * {@link MAX_LOGGED_UNCONVERTED} of the run one by one (`log` counts over the run).
 */
export function logUnplaced(
  places: readonly ParsedPlace[],
  logger: Logger,
  log: { logged: number; total: number },
): void {
  for (const place of places) {
    if (place.coordinates) continue;
    log.total += 1;
    if (log.logged >= MAX_LOGGED_UNCONVERTED) continue;
    log.logged += 1;
    logger.warn('Could not extract coordinates', {
      title: place.title,
      url: place.url,
      note: place.note,
      comment: place.comment,
      attempted: ['URL extraction', 'resolved-URL extraction', 'no redirect occurred'],
    });
  }
}
