/** Stable error codes: programs switch on these, people read the message. */
export type ConverterErrorCode =
  | 'not-a-zip'
  | 'no-csv'
  | 'no-place-lists'
  | 'incomplete-zip'
  | 'not-a-zip'
  | 'unsupported-compression'
  | 'extract-failed'
  | 'archive-too-large'
  | 'unreadable-file'
  | 'too-many-entries'
  | 'too-many-places'
  | 'csv-parse'
  | 'json-parse'
  | 'csv-empty'
  | 'csv-columns'
  | 'no-lists-chosen'
  | 'unknown-list'
  | 'ambiguous-list'
  | 'unknown-format'
  | 'no-archive'
  | 'superseded';

/** The seed's exact messages, and ours where the seed names none (the contract's). */
export { MESSAGES } from '@placeport/contract';

/** An expected failure with a stable code and a message fit to show to a person. */
export class ConverterError extends Error {
  override readonly name = 'ConverterError';
  constructor(
    readonly code: ConverterErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The most of a file's first row {@link columnsMessage} repeats: a file that is not a list may
 * start with a line of megabytes, which no message should carry.
 */
export const MAX_FOUND_COLUMNS_CHARS = 200;

/** The seed's column error, naming the columns that were found (the first {@link MAX_FOUND_COLUMNS_CHARS} characters of them). */
export function columnsMessage(found: readonly string[]): string {
  const columns = found.join(', ');
  const shown =
    columns.length > MAX_FOUND_COLUMNS_CHARS
      ? `${columns.slice(0, MAX_FOUND_COLUMNS_CHARS).replace(/[\uD800-\uDBFF]$/, '')}…`
      : columns;
  return `CSV file must contain "Title" and "URL" columns. Found columns: ${shown}`;
}

/**
 * An archive (or a CSV given to the CLI) with more places than the converter takes at once
 * (`MAX_PLACES`, or the caller's `Limits.maxPlaces`): names the cap and what to do.
 */
export function tooManyPlacesMessage(max: number): string {
  return `This file holds more than ${max.toLocaleString('en-US')} places, the most PlacePort converts at once. Put some of its lists in a ZIP file of their own and convert the parts one after the other.`;
}

/**
 * An archive whose lists were compressed with a method PlacePort cannot unpack (`method`, as
 * {@link compressionName} names it): Takeout writes DEFLATE, so the archive was made again by
 * another tool (7-Zip's bzip2 or LZMA, WinZip's …), and downloading it again would not help.
 */
export function unsupportedCompressionMessage(method: string): string {
  return `This ZIP file was compressed with a method PlacePort cannot read (${method}). Use the ZIP file exactly as Google Takeout gave it, or create it again as a plain ZIP file.`;
}

/** The ZIP compression methods (APPNOTE 4.4.5) other tools use that PlacePort cannot unpack. */
const COMPRESSION_NAMES: Readonly<Record<number, string>> = {
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  19: 'LZ77',
  93: 'Zstandard',
  95: 'XZ',
  96: 'JPEG',
  97: 'WavPack',
  98: 'PPMd',
};

/** A ZIP compression method's name, for a person: `bzip2`, or `method 42` when it has none. */
export function compressionName(method: number): string {
  return COMPRESSION_NAMES[method] ?? `method ${method}`;
}

/** The seed's parser error, joining the parser's messages with a comma. */
export function parseErrorMessage(messages: readonly string[]): string {
  return `CSV parsing error: ${messages.join(', ')}`;
}

/** Turns anything thrown into the `{ code, message }` shape that crosses the worker boundary. */
export function toErrorShape(error: unknown, fallback: string): { code: string; message: string } {
  if (error instanceof ConverterError) return { code: error.code, message: error.message };
  if (error instanceof Error && error.message)
    return { code: 'unexpected', message: error.message };
  return { code: 'unexpected', message: fallback };
}
