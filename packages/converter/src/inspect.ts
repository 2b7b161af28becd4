import { extractCsvEntries } from './core/archive.js';
import { ConverterError } from './core/errors.js';
import { LIMITS, type Limits } from './core/limits.js';
import { countNonBlankRows, type ParsedCsv } from './core/csv.js';
import { listOutputNames } from './core/names.js';
import type { UploadedList } from './core/types.js';
import { parseList, type Logger } from './pipeline.js';

/** A list from the archive with its parse, kept so the CSV is read once. */
export interface InspectedList extends UploadedList {
  parsed: ParsedCsv | ConverterError;
  /**
   * The name its files are written under: the list's name, told apart by folder from same-named
   * lists of the archive (`listOutputNames`), so it does not change with the lists chosen.
   */
  outputName: string;
}

/**
 * Opens a Takeout archive: chooses and inflates the place lists, parses each once, and counts its
 * places (rowCount, what the price is computed from): rows with a Title or a URL. A list that fails
 * validation counts its non-blank rows after the header. Throws ConverterError with the seed's
 * messages and product.md's (`no-place-lists`, `incomplete-zip`).
 */
export function readArchive(
  bytes: Uint8Array,
  options: { limits?: Limits; logger?: Logger } = {},
): InspectedList[] {
  const warn = (message: string) => options.logger?.warn(message);
  const entries = extractCsvEntries(bytes, options.limits ?? LIMITS, warn);
  const outputNames = listOutputNames(entries.map((entry) => entry.path));
  return entries.map((entry, index) => {
    const parsed = parseList(entry.content);
    const rowCount =
      parsed instanceof ConverterError
        ? Math.max(0, countNonBlankRows(entry.content) - 1)
        : parsed.places.length;
    return {
      path: entry.path,
      name: entry.name,
      content: entry.content,
      size: entry.size,
      rowCount,
      parsed,
      outputName: outputNames[index]!,
    };
  });
}
