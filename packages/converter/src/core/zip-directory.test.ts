import { strToU8, unzipSync, zipSync } from 'fflate';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fflateInflate, readZipDirectory, readZipEntry, type Inflate } from './zip-directory.js';

/** What a Node caller passes (the CLI's inflate): zlib, never past the declared size. */
const zlibInflate: Inflate = (data, size) => inflateRawSync(data, { maxOutputLength: size });

const text = (rows: number) =>
  strToU8(Array.from({ length: rows }, (_, i) => `Place ${i},Café ${i % 7}\n`).join(''));

const FILES = {
  'Takeout/': new Uint8Array(),
  'Takeout/Saved/Want to go.csv': text(500),
  'Takeout/Saved/Café.csv': text(3),
  'Takeout/Saved/Empty.csv': new Uint8Array(),
};

describe('readZipDirectory and readZipEntry', () => {
  for (const [name, inflate] of [
    ['fflate', fflateInflate],
    ['zlib', zlibInflate],
  ] as const) {
    it(`read every entry as fflate's unzipSync does, deflated or stored (${name})`, () => {
      for (const level of [0, 6] as const) {
        const bytes = zipSync(FILES, { level });
        const expected = unzipSync(bytes);
        const entries = readZipDirectory(bytes);
        expect(entries.map((entry) => entry.name)).toEqual(Object.keys(expected));
        for (const entry of entries) {
          const read = readZipEntry(bytes, entry, inflate);
          // zlib answers a Buffer: compare the bytes, not the class.
          expect(new Uint8Array(read.buffer, read.byteOffset, read.length)).toEqual(
            expected[entry.name],
          );
        }
      }
    });

    it(`never unpack past the size the directory declares (${name})`, () => {
      const bytes = zipSync({ 'A.csv': text(200) }, { level: 6 });
      const [entry] = readZipDirectory(bytes);
      const lied = { ...entry!, originalSize: 10 };
      const read = (() => {
        try {
          return readZipEntry(bytes, lied, inflate);
        } catch (error) {
          return error;
        }
      })();
      if (read instanceof Uint8Array) expect(read.length).toBeLessThanOrEqual(10);
      else expect(read).toBeInstanceOf(Error);
    });
  }

  it('throws when the directory is missing or cut', () => {
    const bytes = zipSync(FILES);
    for (const cut of [0, 10, bytes.length - 30, bytes.length - 1]) {
      expect(() => readZipDirectory(bytes.subarray(0, cut))).toThrow();
    }
    expect(() => readZipDirectory(strToU8('not a zip file, only text'))).toThrow();
  });
});
