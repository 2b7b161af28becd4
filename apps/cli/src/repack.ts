/**
 * What the CLI keeps of an export that is not a ZIP (a `.tgz`, `src/tar-archive.ts`; a folder, an
 * export unzipped, `src/folder-archive.ts`) for the converter to read it as a Takeout ZIP: the
 * entries its list rules look at (`entryInterest`: the CSVs whole, a `.json` only when its start
 * looks like the starred places), repacked, stored, as a ZIP in memory for `inspectArchive`. So
 * which files are lists, the starred places, the limits and the messages are the ZIP's. What is
 * kept and how many entries are seen are bounded by the converter's `maxCsvBytes` and `maxEntries`.
 */
import { ConverterError, zipFiles, type Limits } from '@placeport/converter';
import { describeBytes, entryInterest, looksLikeStarredStart } from '@placeport/converter/internal';

/** What a person is told to narrow their export to, as the ZIP's limits say it. */
export const EXPORT_LESS =
  'Export only "Saved" and "Maps (your places)" from Google Takeout and try again.';

/** The entries kept so far, and the checks on what is seen. */
export class Repack {
  private readonly kept: Array<{ path: string; bytes: Uint8Array }> = [];
  private keptBytes = 0;
  private seen = 0;

  /** `noun` names the export in messages: "archive" (a tar) or "folder". */
  constructor(
    private readonly noun: 'archive' | 'folder',
    private readonly limits: Pick<Limits, 'maxEntries' | 'maxCsvBytes'>,
  ) {}

  /** Counts one more entry (file or folder); past `maxEntries`, refuses the export. */
  count(): void {
    this.seen += 1;
    if (this.seen > this.limits.maxEntries) {
      throw new ConverterError(
        'too-many-entries',
        `This ${this.noun} holds more than ${this.limits.maxEntries.toLocaleString('en-US')} files. ${EXPORT_LESS}`,
      );
    }
  }

  /**
   * Whether a file at `path` of `size` bytes is wanted, judged by its start (see
   * `looksLikeStarredStart`); undefined when it is not read at all. A CSV is wanted whole, and
   * past what may still be kept it refuses the export (it may be a list); another JSON only when
   * its start says it is the starred places and it is no larger than a list may be.
   */
  wanted(path: string, size: number, isFile: boolean): ((head: Uint8Array) => boolean) | undefined {
    const interest = isFile ? entryInterest(path) : undefined;
    if (interest === 'whole') {
      if (size > this.limits.maxCsvBytes - this.keptBytes) throw this.tooLarge();
      return () => true;
    }
    return interest === 'start' && size <= this.limits.maxCsvBytes
      ? looksLikeStarredStart
      : undefined;
  }

  /** Keeps a wanted entry's bytes; past `maxCsvBytes` in all, refuses the export. */
  keep(path: string, bytes: Uint8Array): void {
    this.keptBytes += bytes.length;
    if (this.keptBytes > this.limits.maxCsvBytes) throw this.tooLarge();
    this.kept.push({ path, bytes });
  }

  /** The entries kept, in the order they were found, as a ZIP that stores them. */
  zip(): Buffer {
    return Buffer.concat(
      zipFiles(this.kept.map(({ path, bytes }) => ({ fileName: path, data: bytes, stored: true }))),
    );
  }

  private tooLarge(): ConverterError {
    return new ConverterError(
      'archive-too-large',
      `The lists in this ${this.noun} add up to more than ${describeBytes(this.limits.maxCsvBytes)} once unpacked. ${EXPORT_LESS}`,
    );
  }
}
