/**
 * The CLI's ZIP entry compressed by Node's zlib (`src/zip-deflate.ts`), inside fflate's `Zip` as the
 * converter's `zipFiles` uses it: any size of entry reads back as written, with the CRC and sizes
 * an unzip tool checks, and a failure of zlib reaches the ZIP as an error.
 */
import { unzipSync, Zip } from 'fflate';
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFLATE_SLICE, ZipDeflate } from '../src/zip-deflate.js';

/** Bytes that compress a little, like KML: text with a counter in it. */
function kmlLike(length: number): Uint8Array {
  const text = Array.from(
    { length: Math.ceil(length / 40) },
    (_, i) => `<Placemark>${i}</Placemark>\n`,
  );
  return Buffer.from(text.join('')).subarray(0, length);
}

/** A ZIP of one entry per file, each pushed in `slice`-byte chunks, and its chunks in order. */
function zipOf(files: Record<string, Uint8Array>, level: 1 | 6, slice = 64 * 1024) {
  const chunks: Uint8Array[] = [];
  const errors: Error[] = [];
  const zip = new Zip((error, chunk) => (error ? errors.push(error) : chunks.push(chunk)));
  const entries: ZipDeflate[] = [];
  for (const [name, data] of Object.entries(files)) {
    const entry = new ZipDeflate(name, { level });
    entries.push(entry);
    zip.add(entry as never);
    if (data.length === 0) entry.push(data, true);
    for (let at = 0; at < data.length; at += slice) {
      entry.push(data.subarray(at, at + slice), at + slice >= data.length);
    }
  }
  zip.end();
  return { bytes: Buffer.concat(chunks), entries, errors };
}

describe("the CLI's ZIP entries compressed by zlib", () => {
  it('read back byte for byte at any size: empty, under one slice, and across several slices', () => {
    const files = {
      'empty.kml': new Uint8Array(0),
      'small.kml': kmlLike(1_000),
      'at the slice.kml': kmlLike(DEFLATE_SLICE),
      'past several slices.kml': kmlLike(3 * DEFLATE_SLICE + 12_345),
    };
    const { bytes, entries, errors } = zipOf(files, 1);
    expect(errors).toEqual([]);
    const read = unzipSync(bytes);
    for (const [name, data] of Object.entries(files)) {
      expect(Buffer.compare(read[name]!, data), name).toBe(0);
    }
    for (const entry of entries) {
      const data = files[entry.filename as keyof typeof files];
      expect(entry.size).toBe(data.length);
      expect(entry.crc).toBe(crc32(data));
    }
  });

  it('writes the headers an unzip tool checks: DEFLATE, the level, the CRC and both sizes', () => {
    const data = kmlLike(2 * DEFLATE_SLICE + 7);
    for (const [level, flag] of [
      [1, 3],
      [6, 0],
    ] as const) {
      const { bytes } = zipOf({ 'doc.kml': data }, level);
      const local = Buffer.from(bytes);
      expect(local.readUInt32LE(0)).toBe(0x04034b50);
      // General purpose flag: bit 3 (sizes after the data), bits 1–2 the level.
      expect(local.readUInt16LE(6)).toBe(8 | (flag << 1));
      expect(local.readUInt16LE(8)).toBe(8);
      const central = local.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      const compressedSize = local.readUInt32LE(central + 20);
      expect(local.readUInt32LE(central + 16)).toBe(crc32(data));
      expect(local.readUInt32LE(central + 24)).toBe(data.length);
      // The entry's data is one DEFLATE stream that ends where the ZIP says it does.
      const start = 30 + 'doc.kml'.length;
      const stream = local.subarray(start, start + compressedSize);
      expect(Buffer.compare(inflateRawSync(stream), data)).toBe(0);
      expect(compressedSize).toBeLessThan(data.length / 4);
    }
  });

  it('passes a failure of zlib to the ZIP as an error, and refuses bytes before it is added', () => {
    const failed: unknown[] = [];
    const entry = new ZipDeflate('doc.kml', { level: 42 as 1 });
    entry.ondata = (error) => failed.push(error);
    entry.push(kmlLike(100), true);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toBeInstanceOf(RangeError);
    expect(() => new ZipDeflate('loose.kml').push(kmlLike(10), true)).toThrow(
      /before it was added/,
    );
  });
});
