/**
 * An export already unzipped, given as its folder: Safari unzips a download by itself (and removes
 * the .zip), and people unzip an export to look inside. The folder is read as the ZIP it came from
 * (the converter's `Repack`, read by `inspectZipContents`): each file's path is taken from the folder's own name down
 * (`Takeout/Saved/Want to go.csv` when the `Takeout` folder is given), so lists are found and named
 * as in that ZIP. Symbolic links are never followed (a link to `/` must not make a run read the
 * disk), and every entry counts against `maxEntries` ({@link FOLDER_LIMITS}), so a home folder
 * given by mistake is refused after that many, not read through. Names are taken as the file
 * system's bytes (a photo folder named in Latin-1 is still opened), and a folder or file inside
 * that cannot be read is skipped with a warning, as a list that cannot be unpacked from a ZIP is.
 */
import type { Dirent } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConverterError, LIMITS, type Limits } from '@placeport/converter';
import {
  entryInterest,
  MAX_PART_ENTRIES,
  Repack,
  STARRED_SNIFF_BYTES,
  type ZipContents,
} from '@placeport/converter/internal';

/**
 * What a folder may hold: as many entries as a part of a whole-account export (an export of
 * everything, unzipped, holds a file per photo and one per photo's metadata: tens of thousands,
 * where a ZIP read whole may hold 50,000), and the lists' own limit of bytes. Only folders are
 * listed and only the files the lists could be are read, so walking them takes seconds at most.
 */
export const FOLDER_LIMITS: Pick<Limits, 'maxEntries' | 'maxCsvBytes'> = {
  maxEntries: MAX_PART_ENTRIES,
  maxCsvBytes: LIMITS.maxCsvBytes,
};

/** Options of {@link readFolderLists}; tests pass smaller limits. */
export interface FolderOptions {
  limits?: Pick<Limits, 'maxEntries' | 'maxCsvBytes'>;
  /**
   * A folder inside that is not read: the run's `--out`, whose failed-places CSVs of an earlier run
   * would otherwise be read as lists of the export.
   */
  skip?: string;
  /** Told each folder or file inside that could not be read, and skipped: `Skipped …: why.` */
  warn?: (text: string) => void;
}

/**
 * Reads the folder's lists and starred places (breadth first, names in order) and returns them
 * for `inspectZipContents`. Throws ConverterError: `no-csv` when the folder
 * holds neither; `too-many-entries`, `archive-too-large` past the limits (`Repack`);
 * `extract-failed` when the folder itself cannot be read.
 */
export async function readFolderLists(
  folder: string,
  options: FolderOptions = {},
): Promise<ZipContents> {
  const repack = new Repack('folder', options.limits ?? FOLDER_LIMITS);
  const root = path.resolve(folder);
  const skip = options.skip === undefined ? undefined : Buffer.from(path.resolve(options.skip));
  const skipped = (inside: string, error: unknown) =>
    options.warn?.(`Skipped ${inside}: ${errnoText(error)}.`);
  const queue = [{ full: Buffer.from(root), inside: path.basename(root) }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    let entries: Dirent<Buffer>[];
    try {
      entries = await readdir(next.full, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (next.full.toString() !== root) {
        skipped(next.inside, error);
        continue;
      }
      throw new ConverterError(
        'extract-failed',
        `Could not read the folder ${folder}: ${errnoText(error)}.`,
      );
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    for (const entry of entries) {
      repack.count();
      const full = Buffer.concat([next.full, SEPARATOR, entry.name]);
      const inside = `${next.inside}/${entry.name.toString()}`;
      if (entry.isDirectory() && !skip?.equals(full)) queue.push({ full, inside });
      // Only a file the lists could be in is measured (not each photo).
      if (!entry.isFile() || entryInterest(inside) === undefined) continue;
      let bytes: Uint8Array | undefined;
      try {
        bytes = await readWanted(full, inside, repack);
      } catch (error) {
        if (error instanceof ConverterError) throw error;
        skipped(inside, error);
        continue;
      }
      if (bytes !== undefined) repack.keep(inside, bytes);
    }
  }
  if (repack.size === 0) {
    throw new ConverterError(
      'no-csv',
      `${folder} holds no saved place lists. Give the folder of an unzipped Google Takeout export (the one holding "Takeout"), or the ZIP file you downloaded.`,
    );
  }
  return repack.contents();
}

const SEPARATOR = Buffer.from(path.sep);

/** What keeps a file or folder from being read, in words (`permission denied`). */
export function errnoText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'it is gone';
  if (code === 'ELOOP') return 'its symbolic links lead round in a loop (ELOOP)';
  return code ? `it could not be read (${code})` : 'it could not be read';
}

/**
 * The file's bytes when the repack wants it (judged by its start), else undefined; throws what
 * reading it throws, and the repack's refusals.
 */
async function readWanted(
  full: Buffer,
  inside: string,
  repack: Repack,
): Promise<Uint8Array | undefined> {
  const wanted = repack.wanted(inside, (await stat(full)).size, true);
  // A CSV is read once, whole; a JSON's start is read first, to judge it.
  if (wanted === undefined || (wanted !== 'whole' && !wanted(await head(full)))) return undefined;
  return readFile(full);
}

/** The first {@link STARRED_SNIFF_BYTES} bytes of a file (all of it, if shorter). */
async function head(file: Buffer): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const bytes = new Uint8Array(STARRED_SNIFF_BYTES);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
