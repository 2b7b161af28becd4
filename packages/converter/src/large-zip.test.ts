import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ConverterError } from './core/errors.js';
import { LIMITS } from './core/limits.js';
import { inspectArchive } from './library.js';
import { MAX_PART_ENTRIES, readLargeZip, type RangeSource } from './large-zip.js';

/** A ZIP's bytes read by ranges, counting the reads. */
function sourceOf(zip: Uint8Array): RangeSource & { reads: number } {
  const source = {
    size: zip.length,
    reads: 0,
    read: (at: number, length: number) => {
      source.reads += 1;
      return Promise.resolve(zip.slice(at, at + length));
    },
  };
  return source;
}

const LIST =
  'Title,Note,URL,Comment\nColosseum,,"https://www.google.com/maps/search/41.8902,12.4922",\n';

describe('a part of a whole-account export, read by ranges', () => {
  it('takes more entries than an archive read whole, and reads no photo or its metadata', async () => {
    expect(MAX_PART_ENTRIES).toBe(1_000_000);
    const files: Record<string, Uint8Array> = { 'Takeout/Saved/Want to go.csv': strToU8(LIST) };
    for (let i = 0; i < LIMITS.maxEntries / 2; i += 1) {
      files[`Takeout/Google Photos/Trip/IMG_${i}.jpg`] = new Uint8Array(1);
      files[`Takeout/Google Photos/Trip/IMG_${i}.jpg.json`] = strToU8('{"title":"x"}');
    }
    const zip = zipSync(files, { level: 0 });
    expect(Object.keys(files).length).toBeGreaterThan(LIMITS.maxEntries);
    // Read whole, the archive is past its entries limit.
    expect(() => inspectArchive(zip)).toThrow(ConverterError);
    const source = sourceOf(zip);
    const lists = inspectArchive(await readLargeZip(source)).lists;
    expect(lists.map((list) => [list.path, list.rowCount])).toEqual([
      ['Takeout/Saved/Want to go.csv', 1],
    ]);
    // Its end, its list's header and its data: no photo, no metadata file read.
    expect(source.reads).toBeLessThanOrEqual(4);
  });
});
