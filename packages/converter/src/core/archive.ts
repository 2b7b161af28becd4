import {
  compressionName,
  ConverterError,
  MESSAGES,
  unsupportedCompressionMessage,
} from './errors.js';
import { asText, hasListHeader } from './csv.js';
import { describeBytes, type Limits } from './limits.js';
import { fileNameFromPath, folderNamesOf, listNameFromPath } from './names.js';
import {
  isSavedPlacesJsonPath,
  looksLikeSavedPlacesJson,
  STARRED_SNIFF_BYTES,
} from './saved-places-json.js';
import type { ListKind } from './types.js';
import {
  canUnpack,
  fflateInflate,
  unpackZipData,
  zipContentsOf,
  type Crc32,
  type Inflate,
  type ZipContents,
  type ZipEntry,
} from './zip-directory.js';

export type { Crc32, Inflate } from './zip-directory.js';

/** A list entry chosen from the archive, still compressed. */
export interface CsvEntry {
  path: string;
  /** Uncompressed size, as the ZIP directory declares it. */
  size: number;
  kind: ListKind;
}

/** A place list of the archive as a caller choosing among them sees it, before any is unpacked. */
export interface ListEntry {
  /** Its path in the archive: a list's identity (names repeat across folders). */
  path: string;
  /** Its name, as the run names it (`Want to go`). */
  name: string;
  kind: ListKind;
}

/**
 * Chooses which of the archive's place lists are read (their paths), from all of them: the others
 * are neither unpacked nor parsed, nor counted against `Limits.maxPlaces`.
 */
export type PickLists = (lists: readonly ListEntry[]) => readonly string[];

/** One place list taken out of the archive (CSV, or the JSON of starred places). */
export interface ArchiveEntry extends CsvEntry {
  name: string;
  /** As inflated (UTF-8): a CSV is parsed from them a piece at a time. */
  bytes: Uint8Array;
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

function isDirectory(info: { name: string }): boolean {
  return info.name.endsWith('/') || info.name.endsWith('\\');
}

/**
 * True for what macOS adds when it zips a folder again: the `__MACOSX/` tree and `._` files
 * (AppleDouble metadata, binary), which are neither lists nor places.
 */
function isMacMetadata(path: string): boolean {
  return fileNameFromPath(path).startsWith('._') || folderNamesOf(path).includes('__MACOSX');
}

function isJsonPath(path: string): boolean {
  return fileNameFromPath(path).toLowerCase().endsWith('.json');
}

const utf8 = new TextDecoder();

/**
 * True for the starred places: `Saved Places.json`, or a `.json` file under the name Takeout gives
 * it in the account's language (not a photo's metadata: {@link entryInterest}), told by its start
 * ({@link looksLikeSavedPlacesJson}). A file whose start cannot be read is not taken for them.
 */
function isStarredEntry(contents: ZipContents, zip: ZipEntry, limits: Limits): boolean {
  if (isSavedPlacesJsonPath(zip.name)) return true;
  if (entryInterest(zip.name) !== 'start' || zip.originalSize > limits.maxCsvBytes) return false;
  try {
    return looksLikeStarredStart(contents.head(zip, STARRED_SNIFF_BYTES));
  } catch (error) {
    if (error instanceof NotRead) throw error;
    return false;
  }
}

/**
 * Thrown by a {@link ZipContents} read in part (`readLargeZip`) when asked for what it did not
 * read: a rule here that reads more than the reader knew to read, which must never pass for an
 * entry that cannot be read.
 */
export class NotRead extends Error {}

/**
 * Google Photos' metadata beside each photo or video (`IMG_0001.jpg.json`,
 * `IMG_0001.jpg.supplemental-metadata.json`): never the starred places, and a part of a
 * whole-account export holds tens of thousands of them, each of which would be read to be judged.
 */
const MEDIA_SIDECAR =
  /\.(?:jpe?g|png|gif|heic|heif|webp|bmp|tiff?|dng|raw|mp4|mov|m4v|avi|3gp|mkv)(?:\.[^./]*)?\.json$/i;

/**
 * What an archive read from another container (the CLI's `.tgz` and folders, repacked as a ZIP
 * for {@link eachCsvEntry}; and a part too large to read whole, read in part) must keep of an entry for the
 * lists to be chosen as in Takeout's ZIP: `whole` for a CSV (a list, an image or page list, or
 * another product's CSV, whose start tells whether its folder holds lists) and for the starred
 * places by their English name; `start` for another `.json` (not a photo's metadata), kept only
 * when its first {@link STARRED_SNIFF_BYTES} bytes look like the starred places
 * ({@link looksLikeStarredStart}); undefined for the rest (folders, macOS metadata, photos, other
 * files), which a ZIP's reader never inflates either.
 */
export function entryInterest(path: string): 'whole' | 'start' | undefined {
  if (isDirectory({ name: path }) || isMacMetadata(path)) return undefined;
  if (isCsvPath(path) || isSavedPlacesJsonPath(path)) return 'whole';
  return isJsonPath(path) && !MEDIA_SIDECAR.test(fileNameFromPath(path)) ? 'start' : undefined;
}

/** Whether a `.json` file whose first bytes are `head` is the starred places (see {@link entryInterest}). */
export function looksLikeStarredStart(head: Uint8Array): boolean {
  return looksLikeSavedPlacesJson(utf8.decode(head.subarray(0, STARRED_SNIFF_BYTES)));
}

/** True for a `.csv` file's path (any case). */
export function isCsvPath(path: string): boolean {
  return fileNameFromPath(path).toLowerCase().endsWith('.csv');
}

/** True for an entry that may hold saved places: a `.csv` file that is not one of the non-place lists. */
export function isPlaceListPath(path: string): boolean {
  return isCsvPath(path) && !NOT_PLACE_LISTS.has(fileNameFromPath(path).toLowerCase());
}

/**
 * Takeout's "Saved" folder in the account's language, lower-cased, where real exports show it:
 * English, German, French, Japanese. Other languages are found by their lists' headers
 * ({@link choosePlaceLists}).
 */
const SAVED_FOLDER_NAMES = new Set(['saved', 'gespeichert', 'enregistré', '保存済み']);

/**
 * True for a path inside Takeout's "Saved" folder (any depth, any case, in a language it is known
 * in: {@link SAVED_FOLDER_NAMES}): where Takeout puts the lists.
 */
export function isInSavedFolder(path: string): boolean {
  return folderNamesOf(path).some((folder) =>
    SAVED_FOLDER_NAMES.has(folder.normalize('NFC').toLowerCase()),
  );
}

/** The folder an entry is in, as written (`Takeout/Gespeichert`; `''` at the top). */
function folderOf(path: string): string {
  return folderNamesOf(path).join('/');
}

/**
 * The seed's preference, applied to folders only: a list that merely has "saved places" in its own
 * name ("My saved places.csv") must not hide the others (product.md).
 */
function inSavedPlacesFolder(path: string): boolean {
  return folderNamesOf(path).join('/').toLowerCase().includes('saved places');
}

/**
 * Whether a CSV is inside the folder of a product in a Takeout export (`Takeout/Fit/…`): Takeout
 * puts each product's files in a folder of its own under `Takeout`.
 */
function inTakeoutProductFolder(path: string): boolean {
  const folders = folderNamesOf(path);
  return folders.length >= 2 && folders[0]!.toLowerCase() === 'takeout';
}

/**
 * Picks the place lists among the archive's CSVs (product.md): the CSVs inside a `Saved` folder when
 * the archive has one (one holding any CSV, image and page lists included; in the languages of
 * {@link SAVED_FOLDER_NAMES}). Otherwise the seed's rule: CSVs in a folder whose path says "saved
 * places" preferred, else every CSV; but as Takeout names its "Saved" folder in the account's
 * language, "every CSV" is narrowed to the CSVs of the folders holding one with a list's header
 * (`hasListHeader`, read from the start of each file until its folder is known) when there are
 * any: a whole export's other CSVs (Fit's daily files, YouTube's) are not lists. When no CSV has a
 * list's header, those inside a product's folder of a Takeout export ({@link inTakeoutProductFolder})
 * are still not lists: such an archive is a part of a whole-account export without "Saved", and is
 * said to hold no list rather than offer a day of Fit data as one; only the others (a ZIP made by
 * hand) are every CSV of the seed, each then told why it cannot be read. Image and page lists are
 * never place lists. (The starred places are chosen apart: they are always a list.)
 */
function choosePlaceLists<T extends CsvEntry>(
  csvs: readonly T[],
  startsWithListHeader: (entry: T) => boolean,
): T[] {
  const candidates = csvs.filter((entry) => isPlaceListPath(entry.path));
  if (csvs.some((entry) => isInSavedFolder(entry.path))) {
    return candidates.filter((entry) => isInSavedFolder(entry.path));
  }
  const preferred = candidates.filter((entry) => inSavedPlacesFolder(entry.path));
  if (preferred.length > 0) return preferred;
  const listFolders = new Set<string>();
  for (const entry of candidates) {
    const folder = folderOf(entry.path);
    if (!listFolders.has(folder) && startsWithListHeader(entry)) listFolders.add(folder);
  }
  return listFolders.size > 0
    ? candidates.filter((entry) => listFolders.has(folderOf(entry.path)))
    : candidates.filter((entry) => !inTakeoutProductFolder(entry.path));
}

/** How much of a CSV's start {@link choosePlaceLists} reads for a header. */
export const HEADER_SNIFF_BYTES = 4 * 1024;

/** Whether an entry's start has a list's header; one whose start cannot be read has none. */
function entryStartsWithListHeader(contents: ZipContents, zip: ZipEntry): boolean {
  try {
    return startsWithListHeader(contents.head(zip, HEADER_SNIFF_BYTES));
  } catch (error) {
    if (error instanceof NotRead) throw error;
    return false;
  }
}

/**
 * Whether the first {@link HEADER_SNIFF_BYTES} bytes of a CSV (`head`) hold a list's header: in
 * UTF-8, or UTF-16 after its byte-order mark (a list saved again as "Unicode" by a spreadsheet,
 * which a list reads); its cells parted by commas, or by semicolons as a spreadsheet of a comma-
 * decimal country saves it (the list is then offered with the reason it cannot be read, as it is
 * in a "Saved" folder, not taken for another product's file).
 */
export function startsWithListHeader(head: Uint8Array): boolean {
  // Read as a list is (`asText`); the sample may end inside a character, which is replaced.
  const source = asText(head);
  const decoded = typeof source === 'string' ? source : utf8.decode(source);
  // A file that fitted whole in the sample ends its last line here.
  const text = decoded + (head.length < HEADER_SNIFF_BYTES ? '\n' : '');
  return hasListHeader(text) || (text.includes(';') && hasListHeader(text.replace(/;/g, ',')));
}

/** A chosen list and where its bytes are in the archive. */
interface ChosenEntry extends CsvEntry {
  zip: ZipEntry;
}

/**
 * Refuses an archive of `size` bytes past `limits.maxArchiveBytes` (ConverterError
 * `archive-too-large`): callers holding a `File` ask before reading it, so a Takeout part of
 * several GB is refused at once, not after being read into memory (or failing to be).
 */
export function checkArchiveSize(size: number, limits: Limits): void {
  if (size > limits.maxArchiveBytes) {
    throw new ConverterError(
      'archive-too-large',
      `This ZIP file is larger than ${describeBytes(limits.maxArchiveBytes)}. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    );
  }
}

/**
 * The contents of a ZIP read whole ({@link zipContentsOf}), refused past the limits. Throws
 * ConverterError: `archive-too-large`, `too-many-entries`; `incomplete-zip` when the directory
 * cannot be read (a download cut short), `not-a-zip` when the file is not a ZIP at all (it does not
 * start as one, and has no directory).
 */
function wholeZipContents(bytes: Uint8Array, limits: Limits): ZipContents {
  checkArchiveSize(bytes.length, limits);
  let contents: ZipContents;
  try {
    contents = zipContentsOf(bytes);
  } catch {
    // The directory at the end of the file is missing or cut: a download cut short, when the file
    // starts as a ZIP does (`PK`); otherwise it is another file named .zip (a PDF, a page saved).
    if (bytes.length >= 2 && (bytes[0] !== 0x50 || bytes[1] !== 0x4b)) {
      throw new ConverterError('not-a-zip', MESSAGES.notAZipInside);
    }
    throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
  }
  if (contents.entries.length > limits.maxEntries) throw tooManyFiles(limits.maxEntries);
  return contents;
}

/** A ZIP holding more than `limit` files, refused before anything is read of them. */
export function tooManyFiles(limit: number): ConverterError {
  return new ConverterError(
    'too-many-entries',
    `This ZIP file holds more than ${limit.toLocaleString('en-US')} files. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
  );
}

/**
 * Reads the ZIP directory (and the first few KB of `.json` files, and of `.csv` files when no
 * Saved folder is known) and chooses the place lists (see
 * {@link isInSavedFolder}, {@link isPlaceListPath}; folders and macOS metadata skipped): the saved
 * lists (`.csv`), then the starred places (`Saved Places.json` or its localized name, product.md:
 * {@link isStarredEntry}) wherever they are. Refuses archives past the
 * limits before any inflating. Throws ConverterError: `no-csv` when the archive holds neither a CSV nor starred places,
 * `no-place-lists` when it holds only lists that are not places, `unsupported-compression` when a
 * chosen list is compressed otherwise than stored or DEFLATE (the archive was made again by another
 * tool: none of its lists is left out unsaid).
 */
function chooseEntries(contents: ZipContents, limits: Limits): ChosenEntry[] {
  const csvs: ChosenEntry[] = [];
  const starred: ChosenEntry[] = [];
  for (const zip of contents.entries) {
    if (isDirectory(zip) || isMacMetadata(zip.name)) continue;
    if (isCsvPath(zip.name)) {
      csvs.push({ path: zip.name, size: zip.originalSize, kind: 'csv', zip });
    } else if (isStarredEntry(contents, zip, limits)) {
      starred.push({ path: zip.name, size: zip.originalSize, kind: 'starred', zip });
    }
  }
  if (csvs.length === 0 && starred.length === 0) {
    throw new ConverterError('no-csv', MESSAGES.noCsv);
  }
  const chosen = [
    ...choosePlaceLists(csvs, (entry) => entryStartsWithListHeader(contents, entry.zip)),
    ...starred,
  ];
  if (chosen.length === 0) throw new ConverterError('no-place-lists', MESSAGES.noPlaceLists);
  const packed = chosen.find((entry) => !canUnpack(entry.zip));
  if (packed) {
    throw new ConverterError(
      'unsupported-compression',
      packed.zip.encrypted || packed.zip.compression === AES_METHOD
        ? MESSAGES.passwordProtected
        : unsupportedCompressionMessage(compressionName(packed.zip.compression)),
    );
  }
  if (chosen.length > limits.maxLists) {
    throw new ConverterError(
      'too-many-entries',
      `This ZIP file holds more than ${limits.maxLists.toLocaleString('en-US')} lists. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    );
  }
  let csvBytes = 0;
  for (const entry of chosen) csvBytes += entry.size;
  if (csvBytes > limits.maxCsvBytes) {
    throw new ConverterError(
      'archive-too-large',
      `The lists in this ZIP file add up to more than ${describeBytes(limits.maxCsvBytes)} once unpacked. Export only "Saved" and "Maps (your places)" from Google Takeout and try again.`,
    );
  }
  return chosen;
}

/**
 * Takes the chosen lists out of the archive (its bytes, read whole, or the {@link ZipContents} of a
 * ZIP read in part), one at a time as they are pulled, so a caller that
 * parses each before pulling the next never holds every list at once. Only those entries are
 * inflated, by `inflate` (fflate's by default; Node callers may pass zlib's). An entry that fails
 * to inflate is logged and skipped, as the seed says; if every one fails, the archive is refused as
 * incomplete (product.md), once the last is pulled. `pick`, when given, chooses among the lists
 * before any is unpacked ({@link PickLists}); `paths` are every list's, picked or not. Throws
 * ConverterError (see {@link wholeZipContents} and {@link chooseEntries}, and what `pick` throws)
 * before the first entry.
 */
export function eachCsvEntry(
  archive: Uint8Array | ZipContents,
  limits: Limits,
  warn: (message: string) => void,
  inflate: Inflate = fflateInflate,
  pick?: PickLists,
  check?: Crc32,
): { paths: string[]; entries: Generator<ArchiveEntry> } {
  const contents = archive instanceof Uint8Array ? wholeZipContents(archive, limits) : archive;
  const chosen = chooseEntries(contents, limits);
  // Every place list's path, picked or not: what the lists' output names are made from.
  const paths = chosen.map((entry) => entry.path);
  if (!pick) return { paths, entries: entriesOf(contents, chosen, warn, inflate, check) };
  const picked = new Set(
    pick(chosen.map(({ path, kind }) => ({ path, kind, name: listNameFromPath(path) }))),
  );
  const kept = chosen.filter((entry) => picked.has(entry.path));
  return { paths, entries: entriesOf(contents, kept, warn, inflate, check) };
}

/**
 * The entries of `contents` its place lists are read from, as {@link eachCsvEntry} chooses them:
 * what a ZIP read in part must read whole. Throws as {@link chooseEntries} does.
 */
export function chosenZipEntries(contents: ZipContents, limits: Limits): ZipEntry[] {
  return chooseEntries(contents, limits).map((entry) => entry.zip);
}

/** WinZip's AES encryption, written as a compression method (APPNOTE 4.4.5). */
const AES_METHOD = 99;

function* entriesOf(
  contents: ZipContents,
  chosen: readonly ChosenEntry[],
  warn: (message: string) => void,
  inflate: Inflate,
  check: Crc32 | undefined,
): Generator<ArchiveEntry> {
  let read = 0;
  for (const { zip, ...entry } of chosen) {
    let data: Uint8Array;
    try {
      data = unpackZipData(contents.data(zip), zip, inflate, check);
    } catch (error) {
      if (error instanceof NotRead) throw error;
      warn(`Skipped ${entry.path}: ${extractMessage(error)}`);
      continue;
    }
    read += 1;
    yield {
      ...entry,
      size: data.length,
      name: listNameFromPath(entry.path),
      bytes: data,
    };
  }
  if (read === 0) throw new ConverterError('incomplete-zip', MESSAGES.incompleteZip);
}

/**
 * Why a list was skipped: a ConverterError's own sentence (a compression PlacePort does not read),
 * else that its bytes are damaged, with what the unpacking said (`invalid code lengths set`).
 */
function extractMessage(error: unknown): string {
  if (error instanceof ConverterError) return error.message;
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return `it is damaged and could not be unpacked${detail}.`;
}
