import { toKmlCoordinates } from './latlng.js';
import { linkText, MAPS_LINK_TEXT } from './link-text.js';
import type { LatLng, ParsedPlace } from './types.js';
import {
  escapeXml,
  Markup,
  needsEscaping,
  stripForbiddenXmlChars,
  xml,
  xmlDocumentStart,
} from './xml.js';

/** The seed's document name and description. */
export const KML_DOCUMENT_NAME = 'My Saved Places';
export const KML_DOCUMENT_DESCRIPTION = 'Converted from Google Maps saved places';
/** Name given to a place exported without a title (Takeout's dropped pins). */
export const UNTITLED_PLACE_NAME = 'Dropped pin';
const STYLE_ID = 'red-pushpin';
/** The name of the `<Data>` element that carries a placemark's tags. */
export const TAGS_DATA_NAME = 'tags';
const RED_PUSHPIN = 'https://maps.google.com/mapfiles/kml/pushpin/red-pushpin.png';

/** A place that has coordinates, ready for a map file. */
export type MappedPlace = ParsedPlace & { coordinates: LatLng };

/** A place's tags as one line of text: `Fun stores, Bookstores`. */
export function tagsText(tags: readonly string[]): string {
  return tags.join(', ');
}

/**
 * HTML for the balloon: note, comment, tags (`Tags: a, b`, product.md) and the Google Maps link
 * (worded by where it goes, {@link linkText}), each only if present and set apart as the seed sets
 * note and comment apart.
 */
export function placeDescription(place: ParsedPlace): string {
  let html = '';
  if (place.note) html += `Note: ${htmlText(place.note)}`;
  if (place.comment) html += `${html ? '<br><br>' : ''}Comment: ${htmlText(place.comment)}`;
  if (place.tags && place.tags.length > 0) {
    html += `${html ? '<br><br>' : ''}Tags: ${htmlText(tagsText(place.tags))}`;
  }
  if (place.url && WEB_LINK.test(place.url)) {
    const words = linkText(place.url);
    // Google's own words need no escaping; "Open <host>" names a host, which may hold anything.
    const text = words === MAPS_LINK_TEXT ? words : escapeXml(words);
    html += `${html ? '<br><br>' : ''}<a href="${escapeXml(place.url)}">${text}</a>`;
  }
  return html;
}

const WEB_LINK = /^https?:\/\//i;

/**
 * Text as HTML: escaped, with line breaks kept as `<br>`. NEL and the Unicode line and paragraph
 * separators are line breaks
 * too (and inside CDATA an XML 1.1 reader would turn them into \n anyway).
 */
function htmlText(text: string): string {
  // Most notes hold nothing to escape and no line break: one scan says so.
  if (!needsEscaping(text, true)) return text;
  const escaped = escapeXml(text.replace(/[\u0085\u2028\u2029]/g, '\n'));
  return escaped.includes('\n') ? escaped.replace(/\r?\n/g, '<br>') : escaped;
}

/**
 * One placemark: the hot path of a 100,000-place conversion, so one template literal with no
 * intermediate markup objects. Every value is still escaped: the name by `escapeXml`; the balloon is
 * built by `placeDescription` from escaped text and fixed tags, so it holds no character XML forbids
 * and no `]]>` (every `>` of the text is `&gt;`) and can go in CDATA as is; the tags are escaped by
 * `escapeXml`; the coordinates are digits, signs, dots and commas written by `toKmlCoordinates`.
 * ExtendedData follows styleUrl and precedes the geometry, as KML 2.2's element order requires.
 */
function placemark(place: MappedPlace): string {
  const description = placeDescription(place);
  const { title } = place;
  // A title with nothing to escape or strip (most) is written as it is, trimmed.
  const name = needsEscaping(title)
    ? escapeXml(stripForbiddenXmlChars(title).trim() || UNTITLED_PLACE_NAME)
    : title.trim() || UNTITLED_PLACE_NAME;
  const balloon = description ? `<description><![CDATA[${description}]]></description>` : '';
  const data =
    place.tags && place.tags.length > 0
      ? `<ExtendedData><Data name="${TAGS_DATA_NAME}"><value>${escapeXml(tagsText(place.tags))}</value></Data></ExtendedData>`
      : '';
  return `<Placemark><name>${name}</name>${balloon}<styleUrl>#${STYLE_ID}</styleUrl>${data}<Point><coordinates>${toKmlCoordinates(place.coordinates)}</coordinates></Point></Placemark>`;
}

/** A list as a KML `<Folder>`: its name and the description written above its header (product.md). */
export interface KmlFolder {
  name: string;
  description?: string;
}

/**
 * The document's start, up to the first placemark: the declaration, Document, style and Folder.
 * The Folder's description is written as a placemark's balloon is, escaped HTML in CDATA: readers
 * render a description as HTML (Google Earth shows it in the folder's balloon), and it is text
 * from the archive, which may come from anyone (`<script>` must stay text).
 */
function kmlHead(documentName: string, folder: KmlFolder | undefined): string {
  const style = xml`<Style id="${STYLE_ID}"><IconStyle><scale>1.1</scale><Icon><href>${RED_PUSHPIN}</href></Icon><hotSpot x="20" y="2" xunits="pixels" yunits="pixels"/></IconStyle></Style>`;
  const balloon = new Markup(`<![CDATA[${htmlText(folder?.description ?? '')}]]>`);
  const open = folder
    ? xml`<Folder><name>${folder.name}</name><description>${balloon}</description>`
    : xml``;
  return xmlDocumentStart(
    xml`<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${documentName}</name><description>${KML_DOCUMENT_DESCRIPTION}</description>${style}${open}`,
  );
}

/** The document's end, after the last placemark. */
function kmlTail(folder: KmlFolder | undefined): string {
  return `${folder ? '</Folder>' : ''}</Document></kml>\n`;
}

/** The folder a document puts its placemarks in: only one with a description gets one. */
const folderOf = (folder: KmlFolder | undefined) => (folder?.description ? folder : undefined);

/**
 * One KML document for the given places (places without coordinates must be left out by the caller):
 * the seed's Document (its name, description and style). With a `folder` that has a description, the
 * placemarks sit in a `<Folder>` named after the list and carrying its description, inside the
 * Document; without one, directly in the Document as the seed writes them. It is
 * {@link kmlChunks} joined, in one join: a 2,000-placemark file is built with a single copy of its text.
 */
export function buildKml(
  places: readonly MappedPlace[],
  documentName = KML_DOCUMENT_NAME,
  folder?: KmlFolder,
): string {
  return [...kmlChunks(places, documentName, folder)].join('');
}

/**
 * {@link buildKml}'s text in pieces, made as they are pulled: the head, each placemark, then the
 * end. Written out one after the other, no whole file's text ever exists, and each piece is
 * garbage before the next is made.
 */
export function* kmlChunks(
  places: readonly MappedPlace[],
  documentName = KML_DOCUMENT_NAME,
  folder?: KmlFolder,
): Generator<string> {
  const inFolder = folderOf(folder);
  yield kmlHead(documentName, inFolder);
  for (const place of places) yield placemark(place);
  yield kmlTail(inFolder);
}
