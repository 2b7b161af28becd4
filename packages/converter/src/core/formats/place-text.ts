/**
 * How every output format words a place, so the same place reads the same in KML, GPX, GeoJSON and
 * CSV. Each value is cleaned of the characters XML 1.0 forbids (C0 controls other than tab, LF and
 * CR, U+FFFE/U+FFFF, lone surrogates) in every format, not only the XML ones: product.md asks for
 * outputs "free of characters XML 1.0 forbids", and a lone surrogate is not valid UTF-8 anywhere.
 */
import { tagsText, UNTITLED_PLACE_NAME } from '../kml.js';
import type { ParsedPlace } from '../types.js';
import { stripForbiddenXmlChars } from '../xml.js';

/**
 * A place's name as every format writes it: forbidden characters removed, trimmed, and "Dropped pin"
 * when nothing is left (the same rule as the KML placemark's name).
 */
export function placeName(title: string): string {
  return stripForbiddenXmlChars(title).trim() || UNTITLED_PLACE_NAME;
}

/** Free text (a note, a comment, a URL) with the forbidden characters removed; `''` when absent. */
export function cleanText(text: string | undefined): string {
  return text ? stripForbiddenXmlChars(text) : '';
}

/** A place's tags as one cleaned line, `a, b` (the KML balloon's wording); `''` when none. */
export function placeTags(place: ParsedPlace): string {
  return place.tags && place.tags.length > 0 ? cleanText(tagsText(place.tags)) : '';
}

const WEB_LINK = /^https?:\/\//i;

/** Whether a place's URL may be offered as a link: http(s) only, never `javascript:` or `data:`. */
export function isWebLink(url: string): boolean {
  return WEB_LINK.test(url);
}

/**
 * The balloon of the KML placemark as plain text: `Note: …`, `Comment: …` and `Tags: a, b`, each
 * only if present, set apart by a blank line. Line breaks inside the note and comment are kept as
 * they are. The link is not part of it (see {@link describedWithLink}).
 */
export function plainDescription(place: ParsedPlace): string {
  const parts: string[] = [];
  const note = cleanText(place.note);
  const comment = cleanText(place.comment);
  const tags = placeTags(place);
  if (note) parts.push(`Note: ${note}`);
  if (comment) parts.push(`Comment: ${comment}`);
  if (tags) parts.push(`Tags: ${tags}`);
  return parts.join('\n\n');
}

/**
 * {@link plainDescription} followed by the place's link (http(s) only), for the single description
 * field of GPX's `<desc>` and GeoJSON's `description`: Organic Maps reads only that field of a
 * waypoint or feature, and drops GPX's `<link>`, so the way back to the place's page would be lost.
 */
export function describedWithLink(place: ParsedPlace): string {
  const text = plainDescription(place);
  if (!isWebLink(place.url)) return text;
  const url = cleanText(place.url);
  return text ? `${text}\n\n${url}` : url;
}
