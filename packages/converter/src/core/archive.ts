import { unzipSync, type UnzipFileInfo } from 'fflate';
import { ConverterError, MESSAGES } from './errors.js';
import { describeBytes, LIMITS, type Limits } from './limits.js';
import { listNameFromPath } from './names.js';

/** A CSV entry chosen from the archive, still compressed. */
export interface CsvEntry {
  path: string;
  /** Uncompressed size, as the ZIP directory declares it. */
  size: number;
}

/** One place list taken out of the archive, as text. */
export interface ArchiveEntry extends CsvEntry {
  name: string;
  content: string;
}

/**
 * Lists in `Saved/` that are not places (product.md): images and web pages, in either spelling.
 * Compared on the file name, lower-cased.
 */
const NOT_PLACE_LISTS = new Set([
  'favorite images.csv',
  'favourite images.csv',
  'images.csv',
  'favorite pages.csv',
  'favourite pages.csv',
]);

const utf8 = new TextDecoder('utf-8');

function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

function isDirectory(info: UnzipFileInfo): boolean {
  return info.name.endsWith('/') || info.name.endsWith('\\');
}

/** True for an entry that may hold saved places: a `.csv` file that is not one of the non-place lists. */
export function isPlaceListPath(path: string): boolean {
  const file = baseName(path).toLowerCase();
  return file.endsWith('.csv') && !NOT_PLACE_LISTS.has(file);
}

/**
 * Reads the ZIP directory only (nothing is inflated) and chooses the CSV entries per the seed: folders
 * skipped, only `.csv`, non-place lists excluded, paths containing "saved places" preferred, otherwise
 * every other CSV. Refuses archives past the limits before any inflating.
 */
export function chooseCsvEntries(bytes: Uint8Array, limits: Limits = LIMITS): CsvEntry[] {
  if (bytes.length > limits.maxArchiveBytes) {
    throw new ConverterError(
      'archive-too-large',
      `This ZIP file is larger than ${describeBytes(limits.maxArchiveBytes)}. Export only "Saved" from Google Takeout and try again.`,
    );
  }
  const candidates: CsvEntry[] = [];
  let entries = 0;
  let csvBytes = 0;
  unzipSync(bytes, {
    filter(info) {
      entries += 1;
      if (entries > limits.maxEntries) {
        throw new ConverterError(
          'too-many-entries',
          `This ZIP file holds more than ${limits.maxEntries.toLocaleString('en-US')} files. Export only "Saved" from Google Takeout and try again.`,
        );
      }
      if (!isDirectory(info) && isPlaceListPath(info.name)) {
        candidates.push({ path: info.name, size: info.originalSize });
      }
      return false;
    },
  });
  const preferred = candidates.filter((entry) => entry.path.toLowerCase().includes('saved places'));
  const chosen = preferred.length > 0 ? preferred : candidates;
  if (chosen.length > limits.maxLists) {
    throw new ConverterError(
      'too-many-entries',
      `This ZIP file holds more than ${limits.maxLists.toLocaleString('en-US')} lists. Export only "Saved" from Google Takeout and try again.`,
    );
  }
  for (const entry of chosen) csvBytes += entry.size;
  if (csvBytes > limits.maxCsvBytes) {
    throw new ConverterError(
      'archive-too-large',
      `The lists in this ZIP file add up to more than ${describeBytes(limits.maxCsvBytes)} once unpacked. Export only "Saved" from Google Takeout and try again.`,
    );
  }
  return chosen;
}

function inflate(bytes: Uint8Array, paths: ReadonlySet<string>): Record<string, Uint8Array> {
  return unzipSync(bytes, { filter: (info) => paths.has(info.name) && !isDirectory(info) });
}

/**
 * Takes the chosen CSV lists out of the archive as text (UTF-8, BOM removed). Only those entries are
 * inflated. An entry that fails to inflate is logged and skipped, as the seed says; if every one fails,
 * the archive is refused.
 */
export function extractCsvEntries(
  bytes: Uint8Array,
  limits: Limits = LIMITS,
  warn: (message: string) => void = () => {},
): ArchiveEntry[] {
  let chosen: CsvEntry[];
  try {
    chosen = chooseCsvEntries(bytes, limits);
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    throw new ConverterError('extract-failed', extractMessage(error));
  }
  if (chosen.length === 0) throw new ConverterError('no-csv', MESSAGES.noCsv);

  let inflated: Record<string, Uint8Array>;
  try {
    inflated = inflate(bytes, new Set(chosen.map((entry) => entry.path)));
  } catch {
    // One bad entry spoils the batch: take the entries one by one and skip the ones that fail.
    inflated = {};
    for (const entry of chosen) {
      try {
        Object.assign(inflated, inflate(bytes, new Set([entry.path])));
      } catch (error) {
        warn(`Skipped ${entry.path}: ${extractMessage(error)}`);
      }
    }
  }
  const lists: ArchiveEntry[] = [];
  for (const entry of chosen) {
    const data = inflated[entry.path];
    if (!data) continue;
    lists.push({
      ...entry,
      size: data.length,
      name: listNameFromPath(entry.path),
      content: utf8.decode(data),
    });
  }
  if (lists.length === 0) throw new ConverterError('extract-failed', MESSAGES.extractFailed);
  return lists;
}

function extractMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : MESSAGES.extractFailed;
}
