/**
 * Independent readers for the output formats, so the writers' tests read files back the way other
 * software does: GPX with a real XML parser and togeojson's `gpx()`, GeoJSON with `JSON.parse` and
 * @placemarkio/check-geojson, CSV with papaparse, KMZ and ZIP with fflate's `unzipSync`, and ZIP again
 * with Node's zlib. Also the hostile text the property tests feed every writer.
 */
import { check } from '@placemarkio/check-geojson';
import { parseKml, parseXml } from '@placeport/testkit';
import { gpx as gpxToGeoJson } from '@tmcw/togeojson';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { inflateRawSync } from 'node:zlib';
import Papa from 'papaparse';

type XmlDocument = Parameters<typeof gpxToGeoJson>[0];

/** A GPX file as a DOM and as togeojson reads it. */
export function readGpx(text: string) {
  const doc = parseXml(text);
  const geojson = gpxToGeoJson(doc as unknown as XmlDocument) as {
    features: Array<{
      properties: Record<string, unknown> | null;
      geometry: { type: string; coordinates: number[] } | null;
    }>;
  };
  return { doc, geojson };
}

/** The element children's names of a DOM node, in order. */
export function childElementNames(node: {
  childNodes: ArrayLike<{ nodeType: number; nodeName: string }>;
}): string[] {
  return Array.from(node.childNodes)
    .filter((child) => child.nodeType === 1)
    .map((child) => child.nodeName);
}

/** A GeoJSON text checked by @placemarkio/check-geojson (throws on any issue) and parsed. */
export function readGeoJson(text: string) {
  check(text);
  return JSON.parse(text) as {
    type: string;
    name?: string;
    description?: string;
    features: Array<{
      type: string;
      geometry: { type: string; coordinates: number[] };
      properties: { name: string; note: string; comment: string; tags: string[]; url: string };
    }>;
  };
}

/** A CSV as rows of cells, after checking and removing its UTF-8 BOM. */
export function readCsv(text: string): string[][] {
  if (!text.startsWith('\uFEFF')) throw new Error('the CSV does not start with a UTF-8 BOM');
  const parsed = Papa.parse<string[]>(text.slice(1), {
    delimiter: ',',
    newline: '\r\n',
    skipEmptyLines: true,
  });
  if (parsed.errors.length > 0) throw new Error(`CSV errors: ${JSON.stringify(parsed.errors)}`);
  return parsed.data;
}

/**
 * What a text cell of the coordinates CSV holds for `text`: the text, with `'` before one that
 * starts with `=`, tab or carriage return, or with `+`, `-`, `@` and holds a call, DDE or a
 * reference to another sheet (read back as written: undoing it would also take off an apostrophe
 * the text itself starts with).
 */
export function coordinatesCsvCell(text: string): string {
  return /^[=\t\r]/.test(text) || (/^[+\-@]/.test(text) && /[(|!]/.test(text)) ? `'${text}` : text;
}

/** The entries of a ZIP, by name. */
export function readZip(bytes: Uint8Array | readonly Uint8Array[]): Record<string, Uint8Array> {
  const whole = bytes instanceof Uint8Array ? bytes : join(bytes);
  return unzipSync(whole);
}

/** One entry of a ZIP as its central directory describes it, its data inflated by Node's zlib. */
export interface ZlibZipEntry {
  name: string;
  /** General purpose flags: bit 11 for a UTF-8 name, bits 1 and 2 for how hard it was compressed. */
  flags: number;
  /** 0 stored, 8 DEFLATE. */
  compression: number;
  /** The host of "version made by": 3 is Unix. */
  madeBy: number;
  externalAttributes: number;
  dosTime: number;
  dosDate: number;
  /** The CRC-32 the central directory declares. */
  crc: number;
  /** The entry's size in the ZIP, after compression. */
  compressedSize: number;
  data: Uint8Array;
}

/**
 * A ZIP's entries read by another reader than fflate, which wrote them: the central directory walked
 * from its end record (no comment, no ZIP64: the tests' archives are small), each entry's data found
 * past its local header and inflated by Node's zlib (`inflateRawSync`, which throws on data cut short
 * or running on), and checked to unpack to the size the directory declares.
 */
export function readZipWithZlib(bytes: Uint8Array | readonly Uint8Array[]): ZlibZipEntry[] {
  const zip = bytes instanceof Uint8Array ? bytes : join(bytes);
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error('no end of central directory');
  const entries: ZlibZipEntry[] = [];
  for (let i = 0, at = view.getUint32(end + 16, true); i < view.getUint16(end + 10, true); i += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`no central entry at ${at}`);
    const nameEnd = at + 46 + view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const compression = view.getUint16(at + 10, true);
    const stored = zip.subarray(start, start + view.getUint32(at + 20, true));
    const data = new Uint8Array(compression === 8 ? inflateRawSync(stored) : stored);
    if (data.length !== view.getUint32(at + 24, true)) throw new Error('size is not as declared');
    entries.push({
      name: new TextDecoder().decode(zip.subarray(at + 46, nameEnd)),
      flags: view.getUint16(at + 8, true),
      compression,
      madeBy: view.getUint8(at + 5),
      externalAttributes: view.getUint32(at + 38, true),
      dosTime: view.getUint16(at + 12, true),
      dosDate: view.getUint16(at + 14, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      data,
    });
    at = nameEnd + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

function join(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A KMZ's single `doc.kml`, read as KML. */
export function readKmz(bytes: Uint8Array) {
  const entries = readZip(bytes);
  const names = Object.keys(entries);
  if (names.length !== 1 || names[0] !== 'doc.kml') {
    throw new Error(`a KMZ holds one doc.kml, found ${names.join(', ')}`);
  }
  return parseKml(strFromU8(entries['doc.kml']!));
}

/**
 * A KML description (escaped HTML, line breaks as `<br>`) as the text a person reads in its
 * balloon.
 */
export function htmlAsText(html: string): string {
  const entities: Record<string, string> = {
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    '#133': '\u0085',
    '#8232': '\u2028',
    '#8233': '\u2029',
  };
  return html
    .replace(/<br>/g, '\n')
    .replace(/&(lt|gt|quot|apos|#133|#8232|#8233);/g, (_, name: string) => entities[name]!)
    .replace(/&amp;/g, '&');
}

/** XML parsers turn CRLF and lone CR into LF (XML 1.0 §2.11). */
export function xmlLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * Text meant to break writers: any code point, lone surrogates, C0 controls, U+FFFE, XML's special
 * characters and `]]>`, NEL and the Unicode line and paragraph separators, CR/LF, and the characters
 * that start a spreadsheet formula.
 */
export const hostileText = fc.string({
  unit: fc.oneof(
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 4 },
    {
      arbitrary: fc.constantFrom(
        ']]>',
        '<![CDATA[',
        '&',
        '&amp;',
        '<',
        '>',
        '"',
        "'",
        '\u0085',
        '\u2028',
        '\u2029',
        '=',
        '+',
        '-',
        '@',
        '\t',
        '\r',
        '\n',
        '\r\n',
        ' ',
        '\u0000',
        '\u001f',
        '\uFFFE',
        '\uFEFF',
        ',',
        ';',
      ),
      weight: 3,
    },
    {
      arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
      weight: 1,
    },
  ),
  maxLength: 16,
});
