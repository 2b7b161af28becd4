/**
 * Independent readers for the output formats, so the writers' tests read files back the way other
 * software does: GPX with a real XML parser and togeojson's `gpx()`, GeoJSON with `JSON.parse` and
 * @placemarkio/check-geojson, CSV with papaparse, KMZ and ZIP with fflate's `unzipSync`. Also the
 * hostile text the property tests feed every writer.
 */
import { check } from '@placemarkio/check-geojson';
import { parseKml, parseXml } from '@placeport/testkit';
import { gpx as gpxToGeoJson } from '@tmcw/togeojson';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
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
