import { extractCsvEntries } from './core/archive.js';
import { ConverterError } from './core/errors.js';
import { LIMITS, type Limits } from './core/limits.js';
import { countNonBlankRows, type ParsedCsv } from './core/csv.js';
import type { UploadedList } from './core/types.js';
import { parseList, type Logger } from './pipeline.js';

/** A list from the archive with its parse, kept so the CSV is read once. */
export interface InspectedList extends UploadedList {
  parsed: ParsedCsv | ConverterError;
}

/**
 * Opens a Takeout archive: chooses and inflates the place lists, parses each once, and counts its
 * non-blank data rows (rowCount). Throws ConverterError with the seed's messages.
 */
export function readArchive(
  bytes: Uint8Array,
  options: { limits?: Limits; logger?: Logger } = {},
): InspectedList[] {
  const warn = (message: string) => options.logger?.warn(message);
  return extractCsvEntries(bytes, options.limits ?? LIMITS, warn).map((entry) => {
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
    };
  });
}
