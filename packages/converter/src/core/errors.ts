/** Stable error codes: programs switch on these, people read the message. */
export type ConverterErrorCode =
  | 'not-a-zip'
  | 'no-csv'
  | 'no-place-lists'
  | 'incomplete-zip'
  | 'extract-failed'
  | 'archive-too-large'
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
  | 'no-archive';

/** The seed's exact messages, and ours where the seed names none. */
export const MESSAGES = {
  notAZip: 'Please upload a ZIP file from Google Takeout with your saved places.',
  noCsv: 'No CSV files found in the zip file.',
  /** product.md: every CSV of the archive is an image or page list, none holds places. */
  noPlaceLists:
    'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
  /** product.md: the ZIP cannot be read, most often a download cut short. */
  incompleteZip: 'This file is not a complete ZIP archive. Download it again from Google Takeout.',
  extractFailed: 'Failed to extract zip file.',
  csvEmpty: 'CSV file is empty or contains no valid data rows.',
  /** product.md "Starred places": a `Saved Places.json` that is not JSON or not a FeatureCollection. */
  jsonParse: 'Saved Places.json could not be read: it is not a Google Maps saved-places file.',
  /** A `Saved Places.json` without a single place. */
  jsonEmpty: 'Saved Places.json holds no starred places.',
  noListsChosen: 'Please select at least one file to convert.',
  validationFailed: 'Validation failed',
  noArchive: 'Please choose a ZIP file first.',
} as const;

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

/** The seed's column error, naming the columns that were found. */
export function columnsMessage(found: readonly string[]): string {
  return `CSV file must contain "Title" and "URL" columns. Found columns: ${found.join(', ')}`;
}

/**
 * An archive (or a CSV given to the CLI) with more places than the converter takes at once
 * (`MAX_PLACES`, or the caller's `Limits.maxPlaces`): names the cap and what to do.
 */
export function tooManyPlacesMessage(max: number): string {
  return `This file holds more than ${max.toLocaleString('en-US')} places, the most PlacePort converts at once. Put some of its lists in a ZIP file of their own and convert the parts one after the other.`;
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
