import { crc32 as zlibCrc32, createInflateRaw } from 'node:zlib';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZipDirectory } from '../../test/zip-directory.js';
import {
  makeZipBomb,
  MAX_ZIP_BOMB_BYTES,
  MIN_ZIP_BOMB_BYTES,
  ZIP_BOMB_CHUNK_BYTES,
  ZIP_BOMB_PATH,
} from './zip-bomb.js';

// Three whole chunks and a part: the directory's honesty across chunk edges does not depend on the
// size, so the 300 MB bombs the converter's tests refuse are the same bytes, repeated more often.
const BOMB_BYTES = 3 * ZIP_BOMB_CHUNK_BYTES + 12_345;
const LOCAL_HEADER_BYTES = 30;

/** Inflates the single entry with zlib in a stream, counting bytes and their CRC, holding none. */
async function inflateEntry(zip: Uint8Array): Promise<{ bytes: number; crc: number }> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  const [entry] = readZipDirectory(zip);
  const start = LOCAL_HEADER_BYTES + nameLength + extraLength;
  const data = zip.subarray(start, start + (entry?.compressedSize ?? 0));
  const inflate = createInflateRaw();
  let bytes = 0;
  let crc = 0;
  inflate.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    crc = zlibCrc32(chunk, crc);
  });
  const done = new Promise<void>((resolve, reject) => {
    inflate.on('end', resolve);
    inflate.on('error', reject);
  });
  inflate.end(data);
  await done;
  return { bytes, crc };
}

describe('makeZipBomb', () => {
  it('makes a small archive whose directory claims the full size, honestly', async () => {
    const zip = makeZipBomb(BOMB_BYTES);
    expect(zip.length).toBeLessThan(BOMB_BYTES / 200);
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
      [ZIP_BOMB_PATH, 8, BOMB_BYTES],
    ]);
    const inflated = await inflateEntry(zip);
    expect(inflated).toEqual({ bytes: BOMB_BYTES, crc: entries[0]?.crc });
  });

  it('is a CSV of whole rows and blank lines, exact to the byte, across a chunk edge', () => {
    const size = ZIP_BOMB_CHUNK_BYTES + 5000;
    const files = unzipSync(makeZipBomb(size));
    const text = new TextDecoder().decode(files[ZIP_BOMB_PATH]);
    expect(text.length).toBe(size);
    const lines = new Set(text.split('\n'));
    expect(lines).toEqual(
      new Set([
        'Title,Note,URL,Comment',
        'Dropped pin,,https://www.google.com/maps/search/48.858370,2.294481,',
        '',
      ]),
    );
  });

  it('is deterministic', () => {
    expect(makeZipBomb(10_000)).toEqual(makeZipBomb(10_000));
  });

  it('accepts the smallest size, the header alone', () => {
    const files = unzipSync(makeZipBomb(MIN_ZIP_BOMB_BYTES));
    expect(new TextDecoder().decode(files[ZIP_BOMB_PATH])).toBe('Title,Note,URL,Comment\n');
  });

  it('accepts the largest size a ZIP without ZIP64 can state', () => {
    const zip = makeZipBomb(MAX_ZIP_BOMB_BYTES);
    expect(readZipDirectory(zip).map((e) => e.uncompressedSize)).toEqual([MAX_ZIP_BOMB_BYTES]);
    expect(zip.length).toBeLessThan(MAX_ZIP_BOMB_BYTES / 200);
  });

  it('refuses sizes past its limits', () => {
    expect(() => makeZipBomb(MIN_ZIP_BOMB_BYTES - 1)).toThrow(RangeError);
    expect(() => makeZipBomb(MAX_ZIP_BOMB_BYTES + 1)).toThrow(RangeError);
    expect(() => makeZipBomb(1.5e6 + 0.5)).toThrow(RangeError);
    expect(MAX_ZIP_BOMB_BYTES).toBe(0xffff_fffe);
  });
});
