import { crc32, deflateRawSync } from 'node:zlib';
import { strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZip, readZipWithZlib, type ZlibZipEntry } from '../../../test/read-formats.js';
import { joinChunks, zipFiles, zipFilesAsync, type ZipInput } from './zip.js';

const text = (bytes: Uint8Array | undefined) => strFromU8(bytes ?? new Uint8Array(0));

/**
 * A ZIP's entries as fflate's `unzipSync` reads them, checked against a second reader, Node's zlib:
 * the same names in the same order, the same bytes, and the central directory's CRCs theirs.
 */
function readBack(chunks: readonly Uint8Array[]): Record<string, Uint8Array> {
  const entries = readZip(chunks);
  const inflated = readZipWithZlib(chunks);
  expect(inflated.map((entry) => entry.name)).toEqual(Object.keys(entries));
  for (const entry of inflated) {
    expect(entry.data).toEqual(entries[entry.name]);
    expect(entry.crc).toBe(crc32(entry.data));
  }
  return entries;
}

type Zipper = (files: Iterable<ZipInput>, options?: { modified?: Date }) => Promise<Uint8Array[]>;

/**
 * Every way to a ZIP, each held to the same tests: the synchronous one, the asynchronous one with
 * Node's CompressionStream (as "Download all" runs in browsers), and without one (older browsers).
 */
const ZIPPERS: Array<[name: string, zip: Zipper]> = [
  ['zipFiles', async (files, options) => zipFiles(files, options)],
  [
    "zipFilesAsync with Node's CompressionStream",
    (files, options) => zipFilesAsync(files, { ...options, CompressionStream }),
  ],
  ['zipFilesAsync without a CompressionStream', (files, options) => zipFilesAsync(files, options)],
];

describe.each(ZIPPERS)('%s', (_name, zip) => {
  it('gives back every file as it was: text as UTF-8, bytes as they are', async () => {
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
    const entries = readBack(await zip(files));
    expect(Object.keys(entries)).toEqual(files.map((file) => file.fileName));
    expect(text(entries['Want to go (part 1 of 2).kml'])).toBe('<kml/>');
    expect(text(entries['東京 🍜.gpx'])).toBe(long);
    expect(text(entries['empty.csv'])).toBe('');
    expect(entries['Food.kmz']).toEqual(bytes);
    expect(entries['nothing.bin']).toEqual(new Uint8Array(0));
  });

  it('takes text in pieces, pulled as they are zipped, and writes the same entry as the whole text', async () => {
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
    const entries = readBack(
      await zip([
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

  it('numbers repeated names before the extension, ignoring case', async () => {
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
    const entries = readBack(await zip(names.map((fileName) => ({ fileName, data: fileName }))));
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

  it('pulls one file at a time, compressing each before asking for the next', async () => {
    // The generator reuses one buffer and refills it on every pull, as a writer that lets each file
    // go would: if the ZIP held on to a file (or read the whole iterable first), the archive would
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
    const entries = readBack(await zip(files()));
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

  it('is deterministic, dated 1 January 1980 by default, and refuses dates a ZIP cannot hold', async () => {
    const files = [{ fileName: 'a.txt', data: 'hello' }];
    const first = joinChunks(await zip(files));
    expect(joinChunks(await zip(files))).toEqual(first);
    expect(Array.from(first.subarray(10, 14))).toEqual([0, 0, 0x21, 0]);
    const dated = joinChunks(await zip(files, { modified: new Date(2026, 0, 2, 3, 4, 6) }));
    // 03:04:06 → (3 << 11) | (4 << 5) | 3; 2026-01-02 → (46 << 9) | (1 << 5) | 2.
    const time = (3 << 11) | (4 << 5) | 3;
    const date = (46 << 9) | (1 << 5) | 2;
    expect(Array.from(dated.subarray(10, 14))).toEqual([
      time & 0xff,
      time >> 8,
      date & 0xff,
      date >> 8,
    ]);
    await expect(zip(files, { modified: new Date(1979, 11, 31) })).rejects.toThrow(RangeError);
    await expect(zip(files, { modified: new Date(Number.NaN) })).rejects.toThrow(RangeError);
  });

  it('copies data marked stored as it is (DEFLATE stored blocks), and deflates the rest', async () => {
    // Bytes that DEFLATE cannot shrink (a KMZ is such bytes), big enough for several slices.
    let seed = 1;
    const noise = Uint8Array.from({ length: 150_000 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed >>> 24;
    });
    const kml = '<kml>東京 🍜</kml>'.repeat(5_000);
    const files: ZipInput[] = [
      { fileName: 'Want to go.kmz', data: noise, stored: true },
      { fileName: 'Want to go - failed-places.csv', data: kml },
      { fileName: 'empty.kmz', data: new Uint8Array(0), stored: true },
    ];
    const bytes = await zip(files);
    const entries = readBack(bytes);
    expect(entries['Want to go.kmz']).toEqual(noise);
    expect(text(entries['Want to go - failed-places.csv'])).toBe(kml);
    expect(entries['empty.kmz']).toEqual(new Uint8Array(0));
    // Every entry's sizes follow its data (fflate streams them so): a reader going through the ZIP
    // from its start (Java's and Android's ZipInputStream) takes that of DEFLATE entries only, so
    // stored data is DEFLATE's stored blocks, not a stored entry (interop audit: Java refused a
    // "Download all" of KMZ files, "only DEFLATED entries can have EXT descriptor").
    const read = readZipWithZlib(bytes);
    expect(read.map((entry) => entry.compression)).toEqual([8, 8, 8]);
    expect(read.every((entry) => (entry.flags & 0x08) === 0x08)).toBe(true);
    // Stored: the archive holds the bytes once, with nothing but stored blocks' headers around them.
    const kmlDeflated = joinChunks(await zip([files[1]!])).length;
    expect(joinChunks(bytes).length).toBeLessThan(noise.length + kmlDeflated + 400);
  });

  it('writes a valid empty archive for no files', async () => {
    expect(readBack(await zip([]))).toEqual({});
  });

  it('marks non-ASCII names as UTF-8 and made on Unix, so every unzip tool reads them', async () => {
    const bytes = joinChunks(await zip([{ fileName: 'Café.kml', data: strToU8('x') }]));
    // General purpose flag bit 11 (language encoding) in the local header.
    expect(bytes[7]! & 0x08).toBe(0x08);
    // The central directory entry: "version made by" names Unix (3), not MS-DOS (0), whose names
    // Info-ZIP's unzip (Linux's unzip) turns through a DOS code page despite the UTF-8 flag
    // ("Café" came out as "Caf+�"); the file is a plain rw-r--r-- file.
    const central = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 6, true);
    const view = new DataView(bytes.buffer, bytes.byteOffset + central);
    expect(view.getUint32(0, true)).toBe(0x02014b50);
    expect(view.getUint8(5)).toBe(3);
    expect(view.getUint32(38, true) >>> 16).toBe(0o100644);
  });
});

/** A KML's text in pieces, as a list's writer makes it: long enough for several slices. */
function* placemarks(count: number): Generator<string> {
  yield '<kml><Document>';
  for (let i = 0; i < count; i += 1) yield `<Placemark><name>東京 ${i} 🍜</name></Placemark>`;
  yield '</Document></kml>';
}

type Bytes = Uint8Array<ArrayBuffer>;

describe('zipFilesAsync', () => {
  const files = (): ZipInput[] => [
    { fileName: 'Want to go.kml', data: placemarks(3_000) },
    { fileName: 'Want to go.kml', data: 'x' },
    { fileName: 'empty.csv', data: '' },
    { fileName: 'Café.kmz', data: Uint8Array.from({ length: 70_000 }, (_, i) => i % 251) },
  ];
  /**
   * The compression option of the general purpose flag (bits 1 and 2) and the compressed size (two
   * compressors): the fields that differ.
   */
  const withoutOption = ({ flags, compressedSize: _size, ...entry }: ZlibZipEntry) => ({
    ...entry,
    flags: flags & ~6,
  });

  it("writes zipFiles' entries, those of 64 KB and more compressed by the platform and flagged as its normal level", async () => {
    const modified = new Date(2026, 10, 26, 14, 30, 10);
    const native = readZipWithZlib(await zipFilesAsync(files(), { modified, CompressionStream }));
    const fflate = readZipWithZlib(zipFiles(files(), { modified }));
    expect(native.map(withoutOption)).toEqual(fflate.map(withoutOption));
    // 0, "normal", for zlib's default level 6; 3, "super fast", for fflate's level 1, which takes
    // the files under 64 KB ('x' and '') in the platform's ZIP too.
    expect(native.map((entry) => (entry.flags >> 1) & 3)).toEqual([0, 3, 3, 0]);
    expect(fflate.map((entry) => (entry.flags >> 1) & 3)).toEqual([3, 3, 3, 3]);
  });

  it("is zipFiles byte for byte without a CompressionStream, or with one that refuses 'deflate-raw'", async () => {
    class OldCompressionStream extends TransformStream<Bytes, Bytes> {
      constructor(format: string) {
        // Chrome 80 to 102 made 'deflate' and 'gzip' only.
        if (format === 'deflate-raw') throw new TypeError(`Unsupported format '${format}'`);
        super();
      }
    }
    const expected = joinChunks(zipFiles(files()));
    expect(joinChunks(await zipFilesAsync(files()))).toEqual(expected);
    expect(
      joinChunks(await zipFilesAsync(files(), { CompressionStream: OldCompressionStream })),
    ).toEqual(expected);
  });

  it.each(['transform', 'flush'] as const)(
    'rejects with the error of a compressor that fails in %s, and pulls no more files',
    async (where) => {
      class FailingCompressionStream extends TransformStream<Bytes, Bytes> {
        constructor() {
          super({
            [where]: () => {
              throw new Error(`DEFLATE failed in ${where}`);
            },
          });
        }
      }
      let pulled = 0;
      function* twoFiles(): Generator<ZipInput> {
        for (const fileName of ['a.kml', 'b.kml']) {
          pulled += 1;
          yield { fileName, data: placemarks(3_000) };
        }
      }
      await expect(
        zipFilesAsync(twoFiles(), { CompressionStream: FailingCompressionStream }),
      ).rejects.toThrow(`DEFLATE failed in ${where}`);
      expect(pulled).toBe(1);
    },
  );

  it('makes the next slice of a file only once the compressor has taken the one before', async () => {
    let made = 0;
    let taken = 0;
    let mostAhead = 0;
    function* pieces() {
      for (let i = 0; i < 8; i += 1) {
        made += 1;
        yield 'x'.repeat(64 * 1024);
      }
    }
    /** Takes each slice a turn of the event loop later, as a busy compressor would. */
    class SlowCompressionStream extends TransformStream<Bytes, Bytes> {
      constructor() {
        const slices: Uint8Array[] = [];
        super({
          async transform(slice) {
            taken += 1;
            mostAhead = Math.max(mostAhead, made - taken);
            await new Promise((resolve) => setImmediate(resolve));
            slices.push(slice);
          },
          flush(controller) {
            controller.enqueue(new Uint8Array(deflateRawSync(Buffer.concat(slices))));
          },
        });
      }
    }
    const entries = readBack(
      await zipFilesAsync([{ fileName: 'big.kml', data: pieces() }], {
        CompressionStream: SlowCompressionStream,
      }),
    );
    expect(text(entries['big.kml'])).toBe('x'.repeat(8 * 64 * 1024));
    // Pushed without waiting, all 8 slices would be made before the compressor took the first.
    expect(mostAhead).toBeLessThanOrEqual(1);
  });
});
