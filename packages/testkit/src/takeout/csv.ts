const NEEDS_QUOTES = /[",\r\n]/;

/** Quotes a field per RFC 4180, as Google does: only if it holds a comma, quote, CR or LF. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV record without its line ending. */
export function csvRow(fields: readonly string[]): string {
  return fields.map(csvField).join(',');
}
