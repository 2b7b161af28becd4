import { KML_DOCUMENT_NAME, type MappedPlace } from '../kml.js';
import { writtenDegrees } from '../latlng.js';
import type { LatLng } from '../types.js';
import { escapeXml, xml, xmlDocumentStart } from '../xml.js';
import { linkText } from '../link-text.js';
import { describedWithLink, isWebLink, placeName } from './place-text.js';

/** The GPX 1.1 namespace, and where its schema lives. */
export const GPX_NAMESPACE = 'http://www.topografix.com/GPX/1/1';
const GPX_SCHEMA = 'http://www.topografix.com/GPX/1/1/gpx.xsd';

/**
 * A value for an attribute: escaped, and tab, LF and CR written as character references, because XML
 * readers turn them into spaces in attribute values (attribute-value normalisation).
 */
function escapeAttribute(text: string): string {
  const escaped = escapeXml(text);
  return /[\t\n\r]/.test(escaped)
    ? escaped.replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`)
    : escaped;
}

/** What {@link buildGpx} needs of a list: its name and description go into the file's `<metadata>`. */
export interface GpxList {
  name: string;
  description?: string;
}

/**
 * Latitude and longitude as GPX 1.1's attributes: 7-decimal plain text (`writtenDegrees`). GPX's
 * longitude type stops short of 180 (`maxExclusive`), so the antimeridian is written as -180, the
 * same meridian; every other value is as KML writes it.
 */
function gpxPoint(point: LatLng): string {
  const { lat, lng } = writtenDegrees(point);
  return `lat="${lat}" lon="${lng === '180' ? '-180' : lng}"`;
}

/**
 * One waypoint, in GPX 1.1's element order for `wptType` (name, cmt, desc, src, link, sym, type):
 * the name; the note, comment, tags and link as plain text in `<desc>` (see `describedWithLink`:
 * Organic Maps reads no `<link>`); the Google Maps link again as `<link>`, only for http(s) URLs.
 * No `<type>`: OsmAnd files a waypoint under its type, which would scatter one list over a group
 * per set of tags (the tags are in `<desc>`). Every value goes through `escapeXml`, which also
 * removes characters XML 1.0 forbids and writes NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR as
 * character references, so XML 1.1-minded readers do not turn them into line feeds. The hot path of
 * a 100,000-place run: one template literal per place.
 */
function waypoint(place: MappedPlace): string {
  const description = describedWithLink(place);
  const desc = description ? `<desc>${escapeXml(description)}</desc>` : '';
  const link = isWebLink(place.url)
    ? `<link href="${escapeAttribute(place.url)}"><text>${escapeXml(linkText(place.url))}</text></link>`
    : '';
  return `<wpt ${gpxPoint(place.coordinates)}><name>${escapeXml(placeName(place.title))}</name>${desc}${link}</wpt>\n`;
}

/**
 * A GPX 1.1 file of waypoints, one per place, for Organic Maps, OsmAnd and GPS apps (product.md
 * "Outputs"). `<metadata>` carries the list's name (the seed's document name, "My Saved Places", when
 * there is none) and its description. Places without coordinates must be left out by the caller.
 */
export function buildGpx(places: readonly MappedPlace[], list?: GpxList): string {
  const name = (list?.name ?? '').trim() || KML_DOCUMENT_NAME;
  const description = list?.description ? xml`<desc>${list.description}</desc>` : null;
  const head = xml`<gpx xmlns="${GPX_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${GPX_NAMESPACE} ${GPX_SCHEMA}" version="1.1" creator="PlacePort">\n<metadata><name>${name}</name>${description}</metadata>\n`;
  // One join of all pieces, as buildKml does: the file's text is built once.
  const pieces = new Array<string>(places.length + 2);
  pieces[0] = xmlDocumentStart(head);
  for (let i = 0; i < places.length; i += 1) pieces[i + 1] = waypoint(places[i]!);
  pieces[places.length + 1] = '</gpx>\n';
  return pieces.join('');
}
