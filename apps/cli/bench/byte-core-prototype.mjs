/**
 * A measurement, not product code: what issue 19's "byte-level core" (decision 1) would cost,
 * measured on the bench's own archive. `node bench/byte-core-prototype.mjs <takeout.zip> <out>`
 * reads the ZIP's saved lists and writes their KML files as `placeport convert --offline` does,
 * bytes in and bytes out: each list is inflated by zlib, its CSV scanned as bytes, and every
 * placemark copied from the cells' bytes (escaped on the way) into one growing buffer. No cell, no
 * place and no placemark ever becomes a string.
 *
 * It handles the bench's archive only (`gdal.bench.ts` checks that its files equal placeport's,
 * byte for byte, and prints the figures side by side): places whose link holds a pin (`!3d…!4d…`)
 * or a `/maps/search/<lat>,<lng>` pair on https://www.google.com/, a header starting `Title,`,
 * tags without `;`. Other links, an unterminated quote and such tags stop it with an error; what
 * it would still write differently (a title edged by a non-ASCII space, which the string path's
 * `trim` removes) the bench's byte-for-byte check catches. A product core would also read every
 * other link form, tell plain records from those the string path must handle, count places
 * against the cap, and write the failed-places CSV; so its figures are a lower bound of what such
 * a core would take.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writevSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytes = (text) => encoder.encode(text);

const HEAD = bytes(
  '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>My Saved Places</name><description>Converted from Google Maps saved places</description><Style id="red-pushpin"><IconStyle><scale>1.1</scale><Icon><href>https://maps.google.com/mapfiles/kml/pushpin/red-pushpin.png</href></Icon><hotSpot x="20" y="2" xunits="pixels" yunits="pixels"/></IconStyle></Style>',
);
const TAIL = bytes('</Document></kml>\n');
const FOLDER_TAIL = bytes('</Folder></Document></kml>\n');
const NAME = bytes('<Placemark><name>');
const NAME_END = bytes('</name><description><![CDATA[');
const NOTE = bytes('Note: ');
const COMMENT = bytes('Comment: ');
const TAGS = bytes('Tags: ');
const BREAK = bytes('<br><br>');
const LINK = bytes('<a href="');
const LINK_END = bytes(
  '">View on Google Maps</a>]]></description><styleUrl>#red-pushpin</styleUrl>',
);
const DATA = bytes('<ExtendedData><Data name="tags"><value>');
const DATA_END = bytes('</value></Data></ExtendedData>');
const POINT = bytes('<Point><coordinates>');
const POINT_END = bytes(',0</coordinates></Point></Placemark>');
const DROPPED_PIN = bytes('Dropped pin');
const GOOGLE = bytes('https://www.google.com/');
const SEARCH = bytes('maps/search/');
const LINE_BREAK = bytes('<br>');
/** The entity of each character XML text escapes, by its code. */
const ENTITIES = [];
for (const [code, entity] of [
  [38, '&amp;'],
  [60, '&lt;'],
  [62, '&gt;'],
  [34, '&quot;'],
  [39, '&apos;'],
]) {
  ENTITIES[code] = bytes(entity);
}
const NEL = bytes('&#133;');
const LINE_SEPARATOR = bytes('&#8232;');
const PARAGRAPH_SEPARATOR = bytes('&#8233;');
const PER_FILE = 2000;

let out = new Uint8Array(1 << 20);
let at = 0;

function room(length) {
  if (at + length <= out.length) return;
  const bigger = new Uint8Array(Math.max(out.length * 2, at + length));
  bigger.set(out.subarray(0, at));
  out = bigger;
}

function put(part) {
  room(part.length);
  out.set(part, at);
  at += part.length;
}

function copy(source, start, end) {
  if (end - start > 24) {
    out.set(source.subarray(start, end), at);
    at += end - start;
  } else for (let i = start; i < end; i += 1) out[at++] = source[i];
}

/**
 * A cell's bytes as XML text (`quoted`: a quoted cell's `""` is one quote): the five entities, NEL
 * and U+2028/U+2029 as references, characters XML forbids dropped; `html` writes line feeds `<br>`.
 */
function putText(source, start, end, quoted, html) {
  room((end - start) * 7 + 16);
  let run = start;
  let i = start;
  while (i < end) {
    const code = source[i];
    // Plain: everything from '(' up, except '<' and '>', below 0xC2 (no character to rewrite).
    if (code >= 63 ? code < 0xc2 : code > 39 && code !== 60 && code !== 62) {
      i += 1;
      continue;
    }
    copy(source, run, i);
    let skip = 1;
    if (code >= 0xc2) {
      const next = source[i + 1];
      const third = source[i + 2];
      if (code === 0xc2 && next === 0x85) {
        put(NEL);
        skip = 2;
      } else if (code === 0xe2 && next === 0x80 && (third === 0xa8 || third === 0xa9)) {
        put(third === 0xa8 ? LINE_SEPARATOR : PARAGRAPH_SEPARATOR);
        skip = 3;
      } else if (code === 0xef && next === 0xbf && (third === 0xbe || third === 0xbf)) {
        skip = 3;
      } else out[at++] = code;
    } else {
      if (code === 34 && quoted) skip = 2;
      const entity = ENTITIES[code];
      if (entity) put(entity);
      else if (code === 10) {
        if (html) put(LINE_BREAK);
        else out[at++] = 10;
      } else if (code === 9 || code === 13 || code >= 32) out[at++] = code;
    }
    i += skip;
    run = i;
  }
  copy(source, run, end);
}

const isDigit = (code) => code >= 48 && code <= 57;
/** Where the last number read by {@link degrees} ended. */
let numberEnd = 0;

/** The number at `i` (sign, 1 to 3 digits, a fraction) in 1e-7 degrees, or NaN. */
function degrees(source, start) {
  let i = start;
  const negative = source[i] === 45;
  if (negative || source[i] === 43) i += 1;
  const first = i;
  let value = 0;
  while (i < first + 3 && isDigit(source[i])) value = value * 10 + source[i++] - 48;
  if (i === first) return NaN;
  let places = 0;
  if (source[i] === 46 && isDigit(source[i + 1])) {
    i += 1;
    while (isDigit(source[i])) {
      if (places === 7) throw new Error('more than 7 decimals: not handled by the prototype');
      value = value * 10 + source[i++] - 48;
      places += 1;
    }
  }
  for (; places < 7; places += 1) value *= 10;
  numberEnd = i;
  return negative ? -value : value;
}

function putDegrees(value) {
  room(16);
  let rest = value;
  if (rest < 0) {
    out[at++] = 45;
    rest = -rest;
  }
  const whole = Math.floor(rest / 1e7);
  let fraction = rest - whole * 1e7;
  const wholeText = String(whole);
  for (let i = 0; i < wholeText.length; i += 1) out[at++] = wholeText.charCodeAt(i);
  if (fraction === 0) return;
  out[at++] = 46;
  let places = 7;
  while (fraction % 10 === 0) {
    fraction /= 10;
    places -= 1;
  }
  const digits = String(fraction);
  for (let i = digits.length; i < places; i += 1) out[at++] = 48;
  for (let i = 0; i < digits.length; i += 1) out[at++] = digits.charCodeAt(i);
}

const valid = (lat, lng) =>
  Math.abs(lat) <= 90e7 && Math.abs(lng) <= 180e7 && !(lat === 0 && lng === 0);

let lat = 0;
let lng = 0;

/** Reads the link's last valid pin, else its `/maps/search/` pair, into lat and lng. */
function readCoordinates(source, start, end) {
  for (let i = end - 3; i >= start; i -= 1) {
    if (source[i] !== 33 || source[i + 1] !== 51 || source[i + 2] !== 100) continue;
    const pinLat = degrees(source, i + 3);
    if (Number.isNaN(pinLat) || source[numberEnd] !== 33 || source[numberEnd + 1] !== 52) continue;
    if (source[numberEnd + 2] !== 100) continue;
    const pinLng = degrees(source, numberEnd + 3);
    if (!Number.isNaN(pinLng) && valid(pinLat, pinLng)) {
      lat = pinLat;
      lng = pinLng;
      return true;
    }
  }
  const found = source.subarray(start, end).indexOf(SEARCH[0]);
  for (let i = found < 0 ? end : start + found; i + SEARCH.length < end; i += 1) {
    let matches = true;
    for (let k = 0; k < SEARCH.length && matches; k += 1) matches = source[i + k] === SEARCH[k];
    if (!matches) continue;
    const pairLat = degrees(source, i + SEARCH.length);
    if (Number.isNaN(pairLat) || source[numberEnd] !== 44) return false;
    let next = numberEnd + 1;
    while (source[next] === 43 || source[next] === 32) next += 1;
    const pairLng = degrees(source, next);
    if (Number.isNaN(pairLng) || !valid(pairLat, pairLng)) return false;
    lat = pairLat;
    lng = pairLng;
    return true;
  }
  return false;
}

/** The current record's cells: start, end, and whether a quoted cell holds `""`. */
const starts = new Int32Array(64);
const ends = new Int32Array(64);
const doubled = new Uint8Array(64);
/** Cell positions of the list's columns (63: always empty). */
const column = { title: 63, note: 63, url: 63, tags: 63, comment: 63 };

function trim(source, cell) {
  let start = starts[cell];
  let end = ends[cell];
  while (start < end && (source[start] === 32 || source[start] === 9)) start += 1;
  while (end > start && (source[end - 1] === 32 || source[end - 1] === 9)) end -= 1;
  starts[cell] = start;
  ends[cell] = end;
}

const filled = (cell) => ends[cell] > starts[cell];

/** A balloon's part (`Note: …`) when its cell is filled; returns whether none was written yet. */
function putPart(source, cell, label, first) {
  if (!filled(cell)) return first;
  if (!first) put(BREAK);
  put(label);
  putText(source, starts[cell], ends[cell], doubled[cell], true);
  return false;
}

/** The current record's placemark, or false when it is no place. */
function placemark(source) {
  const { title, note, url, tags, comment } = column;
  trim(source, title);
  trim(source, url);
  if (!filled(title) && !filled(url)) return false;
  for (let i = 0; i < GOOGLE.length; i += 1) {
    if (source[starts[url] + i] !== GOOGLE[i]) throw new Error('a link not on www.google.com');
  }
  if (!readCoordinates(source, starts[url], ends[url]))
    throw new Error('a link without coordinates');
  put(NAME);
  if (filled(title)) putText(source, starts[title], ends[title], doubled[title], false);
  else put(DROPPED_PIN);
  put(NAME_END);
  if (filled(tags) && source.subarray(starts[tags], ends[tags]).includes(59)) {
    throw new Error('tags with ";"');
  }
  let first = true;
  first = putPart(source, note, NOTE, first);
  first = putPart(source, comment, COMMENT, first);
  first = putPart(source, tags, TAGS, first);
  if (!first) put(BREAK);
  put(LINK);
  putText(source, starts[url], ends[url], doubled[url], false);
  put(LINK_END);
  if (filled(tags)) {
    put(DATA);
    putText(source, starts[tags], ends[tags], doubled[tags], false);
    put(DATA_END);
  }
  put(POINT);
  putDegrees(lng);
  room(1);
  out[at++] = 44;
  putDegrees(lat);
  put(POINT_END);
  return true;
}

/** Cells in the record {@link record} read last. */
let cellCount = 0;

/** Reads one record's cells from `from`; returns where the next record starts. */
function record(source, from) {
  let i = from;
  let count = 0;
  for (;;) {
    let start = i;
    let end;
    let hasDoubled = 0;
    if (source[i] === 34) {
      start = i + 1;
      for (i = start; ;) {
        const quote = source.indexOf(34, i);
        if (quote < 0) throw new Error('an unterminated quote');
        if (source[quote + 1] === 34) {
          hasDoubled = 1;
          i = quote + 2;
          continue;
        }
        end = quote;
        i = quote + 1;
        break;
      }
    } else {
      while (i < source.length && source[i] !== 44 && source[i] !== 10 && source[i] !== 13) i += 1;
      end = i;
    }
    if (count < 63) {
      starts[count] = start;
      ends[count] = end;
      doubled[count] = hasDoubled;
      count += 1;
    }
    if (source[i] === 44) {
      i += 1;
      continue;
    }
    if (source[i] === 13) i += 1;
    if (source[i] === 10) i += 1;
    cellCount = count;
    return i;
  }
}

/** The list's description (lines above the header) and where its header starts. */
function descriptionOf(source, from) {
  let i = from;
  const lines = [];
  while (!(source[i] === 84 && source[i + 1] === 105 && source[i + 2] === 116)) {
    const end = source.indexOf(10, i);
    if (end < 0) throw new Error('no header starting "Title,"');
    const line = decoder.decode(source.subarray(i, end)).trim();
    if (line) lines.push(line);
    i = end + 1;
  }
  const text = lines.join('\n');
  const quoted = /^"(?:[^"]|"")*"$/.test(text);
  return { text: quoted ? text.slice(1, -1).replace(/""/g, '"').trim() : text, header: i };
}

function writeFile(file, parts) {
  const fd = openSync(file, 'wx');
  try {
    writevSync(fd, parts);
  } finally {
    closeSync(fd);
  }
}

/** Converts one list: its placemarks into `out`, then its files, split evenly at 2,000. */
function convertList(list, outDir) {
  const inflated = list.method === 8 ? inflateRawSync(list.raw) : list.raw;
  const source = new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length);
  const description = descriptionOf(source, source[0] === 0xef ? 3 : 0);
  let next = record(source, description.header);
  const names = [];
  for (let cell = 0; cell < cellCount; cell += 1) {
    names.push(decoder.decode(source.subarray(starts[cell], ends[cell])).trim().toLowerCase());
  }
  for (const name of Object.keys(column))
    column[name] = names.includes(name) ? names.indexOf(name) : 63;
  at = 0;
  const placemarkEnds = [];
  while (next < source.length) {
    next = record(source, next);
    for (let cell = cellCount; cell < 64; cell += 1) starts[cell] = ends[cell] = 0;
    if (placemark(source)) placemarkEnds.push(at);
  }
  const files = Math.ceil(placemarkEnds.length / PER_FILE);
  const smaller = Math.floor(placemarkEnds.length / files);
  const bigger = placemarkEnds.length % files;
  let first = 0;
  for (let part = 0; part < files; part += 1) {
    const size = smaller + (part < bigger ? 1 : 0);
    const body = out.subarray(
      first === 0 ? 0 : placemarkEnds[first - 1],
      placemarkEnds[first + size - 1],
    );
    first += size;
    const name = files > 1 ? `${list.name} (part ${part + 1} of ${files})` : list.name;
    let head = HEAD;
    if (description.text) {
      const text = bytes(description.text);
      const saved = { out, at };
      out = new Uint8Array(text.length * 7 + 256);
      at = 0;
      put(bytes(`<Folder><name>${name}</name><description><![CDATA[`));
      putText(text, 0, text.length, 0, true);
      put(bytes(']]></description>'));
      head = [HEAD, out.subarray(0, at)];
      ({ out, at } = saved);
    }
    const tail = description.text ? FOLDER_TAIL : TAIL;
    writeFile(path.join(outDir, `${name}.kml`), [head, body, tail].flat());
  }
}

/** The ZIP's saved lists (not images or pages), still compressed, from its central directory. */
function savedLists(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end -= 1;
  const entries = view.getUint16(end + 10, true);
  let entry = view.getUint32(end + 16, true);
  const lists = [];
  for (let i = 0; i < entries; i += 1) {
    const nameLength = view.getUint16(entry + 28, true);
    const name = decoder.decode(zip.subarray(entry + 46, entry + 46 + nameLength));
    const local = view.getUint32(entry + 42, true);
    const size = view.getUint32(entry + 20, true);
    const method = view.getUint16(entry + 10, true);
    entry += 46 + nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
    if (!/\/Saved\/(?!Favou?rite (?:images|pages)|Images)[^/]+\.csv$/.test(name)) continue;
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    lists.push({ name: path.basename(name, '.csv'), raw: zip.subarray(data, data + size), method });
  }
  return lists;
}

const [zipPath, outDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
for (const list of savedLists(readFileSync(zipPath))) convertList(list, outDir);
