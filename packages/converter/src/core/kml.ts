import { toKmlCoordinates } from './latlng.js';
import { LIMITS } from './limits.js';
import { kmlFileName } from './names.js';
import type { KmlPart, LatLng, ParsedPlace } from './types.js';
import { escapeXml, stripForbiddenXmlChars, xml, xmlDocumentStart } from './xml.js';

/** The seed's document name and description. */
export const KML_DOCUMENT_NAME = 'My Saved Places';
export const KML_DOCUMENT_DESCRIPTION = 'Converted from Google Maps saved places';
/** Name given to a place exported without a title (Takeout's dropped pins). */
export const UNTITLED_PLACE_NAME = 'Dropped pin';
const STYLE_ID = 'red-pushpin';
const RED_PUSHPIN = 'https://maps.google.com/mapfiles/kml/pushpin/red-pushpin.png';

/** A place that has coordinates, ready for a map file. */
export type MappedPlace = ParsedPlace & { coordinates: LatLng };

/** HTML for the balloon: note, comment and the Google Maps link, each only if present (the seed's rule). */
export function placeDescription(place: ParsedPlace): string {
  let html = '';
  if (place.note) html += `Note: ${htmlText(place.note)}`;
  if (place.comment) html += `${html ? '<br><br>' : ''}Comment: ${htmlText(place.comment)}`;
  if (place.url && WEB_LINK.test(place.url)) {
    html += `${html ? '<br><br>' : ''}<a href="${escapeXml(place.url)}">View on Google Maps</a>`;
  }
  return html;
}

const WEB_LINK = /^https?:\/\//i;

/** Text as HTML: escaped, with line breaks kept. */
function htmlText(text: string): string {
  const escaped = escapeXml(text);
  return escaped.includes('\n') ? escaped.replace(/\r?\n/g, '<br>') : escaped;
}

/**
 * One placemark: the hot path of a 100,000-place conversion, so one template literal with no
 * intermediate markup objects. Every value is still escaped: the name by `escapeXml`; the balloon is
 * built by `placeDescription` from escaped text and fixed tags, so it holds no character XML forbids
 * and no `]]>` (every `>` of the text is `&gt;`) and can go in CDATA as is; the coordinates are
 * digits, signs, dots and commas written by `toKmlCoordinates`.
 */
function placemark(place: MappedPlace): string {
  const description = placeDescription(place);
  const name = escapeXml(stripForbiddenXmlChars(place.title).trim() || UNTITLED_PLACE_NAME);
  const balloon = description ? `<description><![CDATA[${description}]]></description>` : '';
  return `<Placemark><name>${name}</name>${balloon}<styleUrl>#${STYLE_ID}</styleUrl><Point><coordinates>${toKmlCoordinates(place.coordinates)}</coordinates></Point></Placemark>`;
}

/** One KML document for the given places (places without coordinates must be left out by the caller). */
export function buildKml(places: readonly MappedPlace[], documentName = KML_DOCUMENT_NAME): string {
  const style = xml`<Style id="${STYLE_ID}"><IconStyle><scale>1.1</scale><Icon><href>${RED_PUSHPIN}</href></Icon></IconStyle></Style>`;
  const head = xml`<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${documentName}</name><description>${KML_DOCUMENT_DESCRIPTION}</description>${style}`;
  // One join of all pieces: a 2,000-placemark file is built with a single copy of its text.
  const pieces = new Array<string>(places.length + 2);
  pieces[0] = xmlDocumentStart(head);
  for (let i = 0; i < places.length; i += 1) pieces[i + 1] = placemark(places[i]!);
  pieces[places.length + 1] = '</Document></kml>\n';
  return pieces.join('');
}

/**
 * The KML files for one list: one file, or parts of at most `maxPerFile` placemarks when the list is too
 * big for one My Maps layer, named `<list> (part i of n).kml`.
 */
export function buildKmlParts(
  listName: string,
  places: readonly MappedPlace[],
  maxPerFile: number = LIMITS.maxPlacemarksPerKml,
): KmlPart[] {
  const parts = Math.max(1, Math.ceil(places.length / maxPerFile));
  const files: KmlPart[] = [];
  for (let part = 1; part <= parts; part += 1) {
    const slice = places.slice((part - 1) * maxPerFile, part * maxPerFile);
    files.push({
      fileName: kmlFileName(listName, part, parts),
      content: buildKml(slice),
      placemarks: slice.length,
      part,
      parts,
    });
  }
  return files;
}
