import { strToU8, unzipSync, zipSync } from 'fflate';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  fflateInflate,
  readZipDirectory,
  readZipEntry,
  zipDirectoryExtent,
  type Inflate,
} from './zip-directory.js';

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

  it('reads the sizes and offset of a ZIP64 extra field', () => {
    const data = text(20);
    const plain = zipSync({ 'Saved/A.csv': data }, { level: 0 });
    const view = new DataView(plain.buffer);
    const end = plain.length - 22;
    const cd = view.getUint32(end + 16, true);
    const nameLength = view.getUint16(cd + 28, true);
    // The same entry with its sizes and offset moved into a ZIP64 extra field (id 1).
    const header = plain.slice(cd, cd + 46 + nameLength);
    const headerView = new DataView(header.buffer);
    for (const at of [20, 24, 42]) headerView.setUint32(at, 0xffffffff, true);
    headerView.setUint16(30, 28, true);
    const extra = new DataView(new ArrayBuffer(28));
    extra.setUint16(0, 1, true);
    extra.setUint16(2, 24, true);
    extra.setBigUint64(4, BigInt(data.length), true); // original size
    extra.setBigUint64(12, BigInt(data.length), true); // compressed size (stored)
    extra.setBigUint64(20, 0n, true); // local header offset
    const eocd = plain.slice(end);
    new DataView(eocd.buffer).setUint32(12, header.length + 28, true);
    const zip64 = new Uint8Array([
      ...plain.subarray(0, cd),
      ...header,
      ...new Uint8Array(extra.buffer),
      ...eocd,
    ]);
    const [entry] = readZipDirectory(zip64);
    expect(entry).toMatchObject({ name: 'Saved/A.csv', size: data.length, localOffset: 0 });
    expect(readZipEntry(zip64, entry!, fflateInflate)).toEqual(data);
  });

  it('reads the directory from the end of a file only, given where that end starts', () => {
    const zip = zipSync({ 'Saved/A.csv': text(20), 'Saved/B.csv': text(30) });
    const cdStart = new DataView(zip.buffer).getUint32(zip.length - 22 + 16, true);
    // From the last bytes: where the directory starts, to read from there, and its entries.
    const tailBase = zip.length - 30;
    expect(zipDirectoryExtent(zip.subarray(tailBase), tailBase)).toEqual({
      start: cdStart,
      count: 2,
    });
    for (const base of [cdStart, cdStart - 7]) {
      expect(readZipDirectory(zip.subarray(base), base)).toEqual(readZipDirectory(zip));
    }
    expect(() => readZipDirectory(zip.subarray(cdStart + 1), cdStart + 1)).toThrow(RangeError);
  });

  it('reads names without the UTF-8 flag as UTF-8 when they are, else as code page 437', () => {
    /** A ZIP of entries named by the raw bytes `names`, its directory saying none is UTF-8. */
    const flagless = (names: readonly Uint8Array[]) => {
      // ASCII stand-ins of the same byte lengths, replaced in the central directory below.
      const standIns = names.map((name, i) => String(i).padEnd(name.length, 'x'));
      const out = zipSync(Object.fromEntries(standIns.map((name) => [name, strToU8(name)])));
      const view = new DataView(out.buffer);
      let at = view.getUint32(out.length - 22 + 16, true);
      for (const name of names) {
        view.setUint16(at + 8, view.getUint16(at + 8, true) & ~0x800, true);
        out.set(name, at + 46);
        at += 46 + name.length + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      }
      return readZipDirectory(out).map((entry) => entry.name);
    };
    const utf8Name = strToU8('Saved/東京 🍜.csv');
    // "CaféÑ" as Windows' code page 437 writes it (0x82 é, 0xA5 Ñ): not valid UTF-8.
    const cp437Name = new Uint8Array([...strToU8('Saved/Caf'), 0x82, 0xa5, ...strToU8('.csv')]);
    const read = flagless([utf8Name, cp437Name]);
    expect(read).toEqual(['Saved/東京 🍜.csv', 'Saved/CaféÑ.csv']);
    // Never a C1 control character (what reading UTF-8 bytes as Latin-1 gave).
    expect(read.join('')).not.toMatch(/[\u0080-\u009f]/);
  });

  it('throws when the directory is missing or cut', () => {
    const bytes = zipSync(FILES);
    for (const cut of [0, 10, bytes.length - 30, bytes.length - 1]) {
      expect(() => readZipDirectory(bytes.subarray(0, cut))).toThrow();
    }
    expect(() => readZipDirectory(strToU8('not a zip file, only text'))).toThrow();
  });

  it('throws at once, never scans, for bytes without a length (an ArrayBuffer passed as bytes)', () => {
    // Counts what the scan reads, and stops a scan that would never end.
    let reads = 0;
    const buffer = new Proxy(zipSync(FILES).buffer, {
      get(target, key) {
        reads += 1;
        if (reads > 100_000) throw new Error('the scan did not stop');
        return Reflect.get(target, key, target) as unknown;
      },
    }) as unknown as Uint8Array;
    expect(() => readZipDirectory(buffer)).toThrow(RangeError);
    expect(reads).toBeLessThan(10);
  });
});
