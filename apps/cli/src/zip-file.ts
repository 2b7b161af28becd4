/**
 * A Takeout ZIP too large to read whole (past the converter's `WHOLE_READ_BYTES`, 16 MB): most often
 * a part of an export of the whole account. The converter's `readLargeZip` reads it by random access
 * (its directory from its end, then only what the list rules read: the start of a few files, the
 * lists and starred places as compressed); here its ranges are read from the file.
 * `inspectZipContents` then chooses and inflates the lists, by Node's zlib, as `inspectArchive`
 * does a ZIP read whole.
 */
import { open } from 'node:fs/promises';
import type { Limits } from '@placeport/converter';
import { readLargeZip, type ZipContents } from '@placeport/converter/internal';

/** Options of {@link readLargeZipFile}; tests pass smaller limits. */
export interface LargeZipFileOptions {
  limits?: Limits;
}

/** What the list rules read of the ZIP at `file` (`size` bytes), for `inspectZipContents`. */
export async function readLargeZipFile(
  file: string,
  size: number,
  options: LargeZipFileOptions = {},
): Promise<ZipContents> {
  const handle = await open(file, 'r');
  try {
    const read = async (at: number, length: number) => {
      const bytes = new Uint8Array(Math.max(0, Math.min(length, size - at)));
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, at + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return bytes.subarray(0, filled);
    };
    return await readLargeZip({ size, read }, options.limits ? { limits: options.limits } : {});
  } finally {
    await handle.close();
  }
}
