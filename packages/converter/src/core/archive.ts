import { unzipSync, type UnzipFileInfo } from 'fflate';
import { ConverterError, MESSAGES } from './errors.js';
import { describeBytes, LIMITS, type Limits } from './limits.js';
import { listNameFromPath } from './names.js';
import { isSavedPlacesJsonPath } from './saved-places-json.js';
import type { ListKind } from './types.js';

/** A list entry chosen from the archive, still compressed. */
export interface CsvEntry {
  path: string;
  /** Uncompressed size, as the ZIP directory declares it. */
  size: number;
  kind: ListKind;
}

/** One place list taken out of the archive, as text (CSV, or the JSON of starred places). */
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

function pathParts(path: string): string[] {
  return path.split(/[\\/]/);
}

function baseName(path: string): string {
  const parts = pathParts(path);
  return parts[parts.length - 1] ?? path;
}

/** The folders of a path, outermost first (the file name left out). */
function folderNames(path: string): string[] {
  return pathParts(path).slice(0, -1);
}

function isDirectory(info: UnzipFileInfo): boolean {
  return info.name.endsWith('/') || info.name.endsWith('\\');
}

function isCsvPath(path: string): boolean {
  return baseName(path).toLowerCase().endsWith('.csv');
}

/** True for an entry that may hold saved places: a `.csv` file that is not one of the non-place lists. */
export function isPlaceListPath(path: string): boolean {
  return isCsvPath(path) && !NOT_PLACE_LISTS.has(baseName(path).toLowerCase());
}

/** True for a path inside a folder named `Saved` (any depth, any case): where Takeout puts the lists. */
export function isInSavedFolder(path: string): boolean {
  return folderNames(path).some((folder) => folder.toLowerCase() === 'saved');
}

/**
 * The seed's preference, applied to folders only: a list that merely has "saved places" in its own
 * name ("My saved places.csv") must not hide the others (product.md).
 */
function inSavedPlacesFolder(path: string): boolean {
  return folderNames(path).join('/').toLowerCase().includes('saved places');
}

/**
 * Picks the place lists among the archive's CSVs (product.md): the CSVs inside a `Saved` folder when
 * the archive has one (one holding any CSV, image and page lists included); otherwise the seed's
 * rule, CSVs in a folder whose path says "saved places" preferred, else every CSV. Image and page
 * lists are never place lists. (`Saved Places.json` is chosen apart: it is always a list.)
 */
function choosePlaceLists(csvs: readonly CsvEntry[]): CsvEntry[] {
  const candidates = csvs.filter((entry) => isPlaceListPath(entry.path));
  if (csvs.some((entry) => isInSavedFolder(entry.path))) {
    return candidates.filter((entry) => isInSavedFolder(entry.path));
  }
  const preferred = candidates.filter((entry) => inSavedPlacesFolder(entry.path));
  return preferred.length > 0 ? preferred : candidates;
}

/**
 * Reads the ZIP directory only (nothing is inflated) and chooses the place lists (see
 * {@link isInSavedFolder}, {@link isPlaceListPath}; folders skipped): the saved lists (`.csv`), then
 * the starred places (`Saved Places.json`, product.md) wherever they are. Refuses archives past the
 * limits before any inflating. Throws ConverterError: `incomplete-zip` when the directory cannot be
 * read (a download cut short), `no-csv` when the archive holds neither a CSV nor starred places,
 * `no-place-lists` when it holds only lists that are not places.
 */
export function chooseCsvEntries(bytes: Uint8Array, limits: Limits = LIMITS): CsvEntry[] {
  if (bytes.length > limits.maxArchiveBytes) {
    throw new ConverterError(
      'archive-too-large',
      `This ZIP file is larger than ${describeBytes(limits.maxArchiveBytes)}. Export only "Saved" from Google Takeout and try again.`,
    );
  }
  const csvs: CsvEntry[] = [];
  const starred: CsvEntry[] = [];
  let entries = 0;
  let csvBytes = 0;
  try {
    unzipSync(bytes, {
      filter(info) {
        entries += 1;
        if (entries > limits.maxEntries) {
          throw new ConverterError(
            'too-many-entries',
            `This ZIP file holds more than ${limits.maxEntries.toLocaleString('en-US')} files. Export only "Saved" from Google Takeout and try again.`,
          );
        }
        if (!isDirectory(info) && isCsvPath(info.name)) {
          csvs.push({ path: info.name, size: info.originalSize, kind: 'csv' });
        } else if (!isDirectory(info) && isSavedPlacesJsonPath(info.name)) {
          starred.push({ path: info.name, size: info.originalSize, kind: 'starred' });
        }
        return false;
      },
    });
  } catch (error) {
    if (error instanceof ConverterError) throw error;
    // fflate's "invalid zip data" and the like: the directory at the end of the file is missing.
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
  if (csvs.length === 0 && starred.length === 0) {
    throw new ConverterError('no-csv', MESSAGES.noCsv);
  }
  const chosen = [...choosePlaceLists(csvs), ...starred];
  if (chosen.length === 0) throw new ConverterError('no-place-lists', MESSAGES.noPlaceLists);
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
 * the archive is refused as incomplete (product.md). Throws ConverterError (see {@link chooseCsvEntries}).
 */
export function extractCsvEntries(
  bytes: Uint8Array,
  limits: Limits = LIMITS,
  warn: (message: string) => void = () => {},
): ArchiveEntry[] {
  const chosen = chooseCsvEntries(bytes, limits);

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
  if (lists.length === 0) throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  return lists;
}

function extractMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : MESSAGES.extractFailed;
}
