import { formatCount } from '@placeport/contract';

/** Units of the file-size display, base 1024 (seed section 2, "Upload zone"). */
const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** One step between units. */
const SIZE_BASE = 1024;

/**
 * Formats a byte count the way the seed asks: base 1024, at most one decimal, units Bytes, KB,
 * MB, GB (larger sizes stay in GB). `0` is `0 Bytes`; `1536` is `1.5 KB`; `1024` is `1 KB`.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  let exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(SIZE_BASE)), SIZE_UNITS.length - 1);
  let rounded = Math.round((bytes / SIZE_BASE ** exponent) * 10) / 10;
  if (rounded >= SIZE_BASE && exponent < SIZE_UNITS.length - 1) {
    exponent += 1;
    rounded = Math.round((bytes / SIZE_BASE ** exponent) * 10) / 10;
  }
  return `${rounded} ${SIZE_UNITS[exponent]}`;
}

/** A list's display name: its file name with the `.csv` extension removed, whatever its case. */
export function listDisplayName(fileName: string): string {
  return fileName.replace(/\.csv$/i, '');
}

export { formatCount };

/** `1 place`, `2 places`: counts read naturally in rows and summaries. */
export function formatPlaces(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'place' : 'places'}`;
}

/**
 * The error panel's heading, by the seed's rule: payment first, then file/csv/zip, else Error. An
 * archive is the uploaded file too, so product.md's "No saved place lists found in this archive…"
 * is headed Invalid File, as the seed heads "No CSV files found in the zip file.".
 */
export function errorHeading(message: string): 'Payment Issue' | 'Invalid File' | 'Error' {
  const lower = message.toLowerCase();
  if (lower.includes('payment')) return 'Payment Issue';
  const aboutTheFile = ['file', 'csv', 'zip', 'archive'].some((word) => lower.includes(word));
  return aboutTheFile ? 'Invalid File' : 'Error';
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * A moment in the visitor's time zone as `January 15, 2026, 2:05 PM`, the way
 * `toLocaleString('en-US')` would write it, without Intl (see {@link formatCount}).
 */
export function formatDateTime(ms: number): string {
  const date = new Date(ms);
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const clock = `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}, ${clock}`;
}
