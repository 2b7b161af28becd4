import { extractCoordinates, type LatLng } from '@placeport/converter';
import { isValidCoordinate } from '@placeport/converter/internal';
import { isProductName } from './product-names.js';

/**
 * Page reading runs over bodies an attacker may shape, so every scan here is linear in the text
 * and bounded: tags are found with `indexOf` and fixed-length patterns, a tag without its `>` ends
 * the scan (no later tag can close), and no regular expression runs over more than a short slice.
 */

/** Characters of a page scanned at most (the read cap is the same: 3 MiB of bytes). */
export const MAX_SCAN_CHARS = 3 * 1024 * 1024;
/**
 * A `<meta>` tag longer than this is skipped unread (the captured nl page's longest is 279
 * characters): every character of the tags read may be an entity to decode.
 */
export const MAX_TAG_CHARS = 2 * 1024;
/**
 * `<meta>` tags read at most, in page order (the captured nl page has 18, all in its head): a page
 * of tens of thousands, each a static map to parse, held the event loop for over 100 ms.
 */
export const MAX_META_TAGS = 256;
/** Place-data records kept from one page: the requested one is among the first few in real pages. */
export const MAX_PLACE_DATA = 200;
/** `[null,null,` prefixes examined at most, records or not (a hostile page repeats the prefix). */
export const MAX_PLACE_DATA_PREFIXES = 20_000;

/** One `[null,null,<lat>,<lng>],"<ftid>"` record: coordinates bound to a place's feature id. */
export interface PlaceData {
  ftid: string;
  point: LatLng;
}

/** Everything a page says about where a place is, before any rule decides what to believe. */
export interface PageEvidence {
  /**
   * The page is named like Google's generic or lean page: `itemprop="name"` or `og:title` is the
   * product name in any language, or it has neither and its `<title>` is. Bound place data wins
   * over this (product.md: a page is judged by its evidence first).
   */
  productPage: boolean;
  /** Coordinates bound to feature ids (strong when the id is the one requested). */
  placeData: PlaceData[];
  /** The static map's `markers=` pin (weak). */
  staticMarker: LatLng | undefined;
  /** The static map's `center=`, the view shifted for the side panel (weaker; only without markers). */
  staticCentre: LatLng | undefined;
  /** The camera of `APP_INITIALIZATION_STATE=[[[zoom,lng,lat]` (weak). */
  camera: LatLng | undefined;
}

const META_START = /<meta\b/gi;
const TITLE_START = /<title\b/gi;
const NUMBER = String.raw`(-?\d{1,3}(?:\.\d{1,20})?(?:[eE][-+]?\d{1,3})?)`;
const CAMERA = new RegExp(String.raw`\s*=\s*\[\[\[-?[\d.eE+-]{1,30},${NUMBER},${NUMBER}\]`, 'y');
const PLACE_DATA_TAIL = new RegExp(
  String.raw`${NUMBER},${NUMBER}\],\\?"(0x[0-9a-fA-F]{1,16}:0x[0-9a-fA-F]{1,16})\\?"`,
  'y',
);

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|quot|apos|lt|gt);/gi,
    (whole, entity: string) => {
      const lower = entity.toLowerCase();
      const code = lower.startsWith('#x')
        ? parseInt(lower.slice(2), 16)
        : lower.startsWith('#')
          ? parseInt(lower.slice(1), 10)
          : -1;
      if (code >= 0) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
      return named[lower] ?? whole;
    },
  );
}

function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 95 ||
    code === 58 ||
    code === 46
  );
}

/** Attributes of one tag's text (`<meta …>` without the brackets), read in one pass. */
export function readAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let i = 0;
  const n = tag.length;
  while (i < n) {
    while (i < n && !isNameChar(tag.charCodeAt(i))) i += 1;
    const nameStart = i;
    while (i < n && isNameChar(tag.charCodeAt(i))) i += 1;
    const name = tag.slice(nameStart, i).toLowerCase();
    while (i < n && tag.charCodeAt(i) <= 32) i += 1;
    if (tag[i] !== '=') continue;
    i += 1;
    while (i < n && tag.charCodeAt(i) <= 32) i += 1;
    const quote = tag[i];
    let value: string;
    if (quote === '"' || quote === "'") {
      const end = tag.indexOf(quote, i + 1);
      if (end < 0) break;
      value = tag.slice(i + 1, end);
      i = end + 1;
    } else {
      const start = i;
      while (i < n && tag.charCodeAt(i) > 32) i += 1;
      value = tag.slice(start, i);
    }
    if (name && !(name in attributes)) attributes[name] = decodeEntities(value);
  }
  return attributes;
}

/** The first {@link MAX_META_TAGS} `<meta>` tags' attributes, in order, within the scan bound. */
function metaTags(html: string): Record<string, string>[] {
  const tags: Record<string, string>[] = [];
  META_START.lastIndex = 0;
  let seen = 0;
  for (let match = META_START.exec(html); match; match = META_START.exec(html)) {
    const end = html.indexOf('>', match.index);
    if (end < 0 || seen >= MAX_META_TAGS) break;
    seen += 1;
    if (end - match.index <= MAX_TAG_CHARS)
      tags.push(readAttributes(html.slice(match.index + 5, end)));
    META_START.lastIndex = end + 1;
  }
  return tags;
}

function titleOf(html: string): string | undefined {
  TITLE_START.lastIndex = 0;
  const open = TITLE_START.exec(html);
  if (!open) return undefined;
  const close = html.indexOf('>', open.index);
  if (close < 0) return undefined;
  const start = close + 1;
  const end = html.indexOf('<', start);
  if (end < 0 || end - start > 1000) return undefined;
  return decodeEntities(html.slice(start, end));
}

function point(latText: string, lngText: string): LatLng | undefined {
  const lat = Number(latText);
  const lng = Number(lngText);
  return isValidCoordinate(lat, lng) ? { lat, lng } : undefined;
}

function cameraOf(html: string): LatLng | undefined {
  const at = html.indexOf('APP_INITIALIZATION_STATE');
  if (at < 0) return undefined;
  CAMERA.lastIndex = 0;
  const match = CAMERA.exec(html.slice(at + 'APP_INITIALIZATION_STATE'.length, at + 200));
  return match ? point(match[2]!, match[1]!) : undefined;
}

/** `[null,null,<lat>,<lng>],"0x…:0x…"` records, found with indexOf and read with a sticky pattern. */
function placeDataOf(html: string): PlaceData[] {
  const found: PlaceData[] = [];
  const marker = '[null,null,';
  let examined = 0;
  for (
    let at = html.indexOf(marker);
    at >= 0 && found.length < MAX_PLACE_DATA && examined < MAX_PLACE_DATA_PREFIXES;
    examined += 1
  ) {
    const next = html.charCodeAt(at + marker.length);
    // A record goes on with a number: a digit or a minus sign.
    const numeric = next === 45 || (next >= 48 && next <= 57);
    PLACE_DATA_TAIL.lastIndex = at + marker.length;
    const match = numeric ? PLACE_DATA_TAIL.exec(html) : null;
    const where = match ? point(match[1]!, match[2]!) : undefined;
    if (match && where) found.push({ ftid: match[3]!.toLowerCase(), point: where });
    at = html.indexOf(marker, at + marker.length);
  }
  return found;
}

function pairOf(text: string | null): LatLng | undefined {
  if (!text) return undefined;
  const pairs = text.split('|').filter((part) => !part.includes(':'));
  const last = pairs.at(-1);
  const found = last
    ? extractCoordinates(`https://maps.invalid/?q=${encodeURIComponent(last)}`)
    : undefined;
  return found?.source === 'explicit' ? found.coordinates : undefined;
}

function staticMapOf(
  tags: Record<string, string>[],
): Pick<PageEvidence, 'staticMarker' | 'staticCentre'> {
  for (const meta of tags) {
    const isImage = meta.property === 'og:image' || meta.itemprop === 'image';
    if (!isImage || !meta.content || !meta.content.includes('staticmap')) continue;
    let url: URL;
    try {
      url = new URL(meta.content);
    } catch {
      continue;
    }
    const markers = url.searchParams.get('markers');
    const staticMarker = pairOf(markers);
    // Never the centre when the map has markers (product.md), even ones given as an address:
    // the centre is only where the map was framed.
    const staticCentre = markers === null ? pairOf(url.searchParams.get('center')) : undefined;
    if (staticMarker || staticCentre) return { staticMarker, staticCentre };
  }
  return { staticMarker: undefined, staticCentre: undefined };
}

/**
 * Whether a page's names say it is Google's generic or lean page rather than a place's page: its
 * `itemprop="name"` or `og:title` is the product name in any language, or it has neither and its
 * `<title>` is the product name (or it has no name at all). Real full place pages carry the product
 * name as their `<title>` (`<title> Google Maps </title>`) and the place's name in the other two, so
 * the title alone never makes a named page generic. Place data bound to the requested id outweighs
 * this verdict: that is `judgePage`'s rule, not this one's.
 */
function namedAsProduct(tags: Record<string, string>[], html: string): boolean {
  const named = [
    tags.find((meta) => meta.itemprop === 'name')?.content,
    tags.find((meta) => meta.property === 'og:title')?.content,
  ].filter((name): name is string => name !== undefined);
  if (named.length > 0) return named.some(isProductName);
  const title = titleOf(html);
  return title === undefined || isProductName(title);
}

/**
 * Reads what a fetched page says about where a place is, in one bounded, linear pass per form:
 * whether its names are the product's ({@link namedAsProduct}), place data binding coordinates to
 * feature ids, the static map's marker and centre, and the camera. Deciding what to believe is
 * `judgePage`'s job.
 */
export function readPage(body: string): PageEvidence {
  const html = body.length > MAX_SCAN_CHARS ? body.slice(0, MAX_SCAN_CHARS) : body;
  const tags = metaTags(html);
  return {
    productPage: namedAsProduct(tags, html),
    placeData: placeDataOf(html),
    ...staticMapOf(tags),
    camera: cameraOf(html),
  };
}
