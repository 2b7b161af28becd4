import { strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../../test/read-formats.js';
import { joinChunks, zipFiles, type ZipInput } from './zip.js';

const text = (bytes: Uint8Array | undefined) => strFromU8(bytes ?? new Uint8Array(0));

describe('zipFiles', () => {
  it('gives back every file as it was: text as UTF-8, bytes as they are', () => {
    // Long enough for several slices, with a surrogate pair across the first slice boundary.
    const long = `${'a'.repeat(64 * 1024 - 1)}😀${'東京 & <kml>\n'.repeat(20_000)}`;
    const bytes = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 7919) % 251);
    const files: ZipInput[] = [
      { fileName: 'Want to go (part 1 of 2).kml', data: '<kml/>' },
      { fileName: '東京 🍜.gpx', data: long },
      { fileName: 'empty.csv', data: '' },
      { fileName: 'Food.kmz', data: bytes },
      { fileName: 'nothing.bin', data: new Uint8Array(0) },
    ];
    const entries = readZip(zipFiles(files));
    expect(Object.keys(entries)).toEqual(files.map((file) => file.fileName));
    expect(text(entries['Want to go (part 1 of 2).kml'])).toBe('<kml/>');
    expect(text(entries['東京 🍜.gpx'])).toBe(long);
    expect(text(entries['empty.csv'])).toBe('');
    expect(entries['Food.kmz']).toEqual(bytes);
    expect(entries['nothing.bin']).toEqual(new Uint8Array(0));
  });

  it('takes text in pieces, pulled as they are zipped, and writes the same entry as the whole text', () => {
    // Pieces of every size: many small ones, one past a slice, and a surrogate pair cut between two
    // pieces exactly at a slice's end.
    const pieces = [
      '<kml>',
      ...Array.from(
        { length: 5_000 },
        (_, i) => `<Placemark><name>東京 ${i} 🍜</name></Placemark>`,
      ),
      `${'b'.repeat(64 * 1024 + 5)}`,
      `${'c'.repeat(64 * 1024 - 1)}\uD83D`,
      '\uDE00 & more</kml>',
    ];
    let pulled = 0;
    function* lazily() {
      for (const piece of pieces) {
        pulled += 1;
        yield piece;
      }
    }
    const whole = pieces.join('');
    const entries = readZip(
      zipFiles([
        { fileName: 'pieces.kml', data: lazily() },
        { fileName: 'whole.kml', data: whole },
        { fileName: 'none.kml', data: [] },
      ]),
    );
    expect(pulled).toBe(pieces.length);
    expect(text(entries['pieces.kml'])).toBe(whole);
    expect(entries['pieces.kml']).toEqual(entries['whole.kml']);
    expect(text(entries['pieces.kml'])).toContain('c😀 & more');
    expect(text(entries['none.kml'])).toBe('');
  });

  it('numbers repeated names before the extension, ignoring case', () => {
    const names = [
      'a.kml',
      'a.kml',
      'A.KML',
      'a (2).kml',
      'failed',
      'failed',
      '.hidden',
      '.hidden',
    ];
    const entries = readZip(zipFiles(names.map((fileName) => ({ fileName, data: fileName }))));
    expect(Object.keys(entries)).toEqual([
      'a.kml',
      'a (2).kml',
      'A (3).KML',
      'a (2) (2).kml',
      'failed',
      'failed (2)',
      '.hidden',
      '.hidden (2)',
    ]);
    expect(text(entries['A (3).KML'])).toBe('A.KML');
  });

  it('pulls one file at a time, compressing each before asking for the next', () => {
    // The generator reuses one buffer and refills it on every pull, as a writer that lets each file
    // go would: if zipFiles held on to a file (or read the whole iterable first), the archive would
    // carry the wrong bytes.
    const log: string[] = [];
    const buffer = new Uint8Array(50_000);
    const content = (i: number) =>
      Uint8Array.from({ length: buffer.length }, (_, j) => (i * 31 + j * 7919) % 251);
    function* files(): Generator<ZipInput> {
      for (let i = 0; i < 4; i += 1) {
        log.push(`pull ${i}`);
        buffer.set(content(i));
        yield {
          fileName: `file ${i}.bin`,
          get data() {
            log.push(`read ${i}`);
            return buffer;
          },
        };
      }
      log.push('done');
    }
    const entries = readZip(zipFiles(files()));
    expect(log).toEqual([
      'pull 0',
      'read 0',
      'pull 1',
      'read 1',
      'pull 2',
      'read 2',
      'pull 3',
      'read 3',
      'done',
    ]);
    for (let i = 0; i < 4; i += 1) expect(entries[`file ${i}.bin`]).toEqual(content(i));
  });

  it('is deterministic, dated 1 January 1980 by default, and refuses dates a ZIP cannot hold', () => {
    const files = [{ fileName: 'a.txt', data: 'hello' }];
    const first = joinChunks(zipFiles(files));
    expect(joinChunks(zipFiles(files))).toEqual(first);
    expect(Array.from(first.subarray(10, 14))).toEqual([0, 0, 0x21, 0]);
    const dated = joinChunks(zipFiles(files, { modified: new Date(2026, 0, 2, 3, 4, 6) }));
    // 03:04:06 → (3 << 11) | (4 << 5) | 3; 2026-01-02 → (46 << 9) | (1 << 5) | 2.
    const time = (3 << 11) | (4 << 5) | 3;
    const date = (46 << 9) | (1 << 5) | 2;
    expect(Array.from(dated.subarray(10, 14))).toEqual([
      time & 0xff,
      time >> 8,
      date & 0xff,
      date >> 8,
    ]);
    expect(() => zipFiles(files, { modified: new Date(1979, 11, 31) })).toThrow(RangeError);
    expect(() => zipFiles(files, { modified: new Date(Number.NaN) })).toThrow(RangeError);
  });

  it('writes a valid empty archive for no files', () => {
    expect(readZip(zipFiles([]))).toEqual({});
  });

  it('marks non-ASCII names as UTF-8 and made on Unix, so every unzip tool reads them', () => {
    const zip = joinChunks(zipFiles([{ fileName: 'Café.kml', data: strToU8('x') }]));
    // General purpose flag bit 11 (language encoding) in the local header.
    expect(zip[7]! & 0x08).toBe(0x08);
    // The central directory entry: "version made by" names Unix (3), not MS-DOS (0), whose names
    // Info-ZIP's unzip (Linux's unzip) turns through a DOS code page despite the UTF-8 flag
    // ("Café" came out as "Caf+�"); the file is a plain rw-r--r-- file.
    const central = new DataView(zip.buffer, zip.byteOffset).getUint32(zip.length - 6, true);
    const view = new DataView(zip.buffer, zip.byteOffset + central);
    expect(view.getUint32(0, true)).toBe(0x02014b50);
    expect(view.getUint8(5)).toBe(3);
    expect(view.getUint32(38, true) >>> 16).toBe(0o100644);
  });
});
