import { isGooglePlaceLink, isShortLink } from './allowlist.js';

/** The label of a place's link to Google Maps, as the KML balloon words it (the seed). */
export const MAPS_LINK_TEXT = 'View on Google Maps';

/** The common start of Takeout's links: Google's own, without parsing (the hot path of a run). */
const TAKEOUT_LINK_START = 'https://www.google.com/';

/**
 * The words a place's link is offered with (KML balloon, GPX `<link><text>`): "View on Google
 * Maps" for a link to Google (one of Google's own hosts, or a Maps short link), otherwise "Open"
 * and the host it really goes to (`Open evil.example`), so a crafted archive cannot dress another
 * site as Google in the balloons of whoever imports its files. Callers offer http(s) links only.
 */
export function linkText(url: string): string {
  if (url.startsWith(TAKEOUT_LINK_START)) return MAPS_LINK_TEXT;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Open link';
  }
  return isGooglePlaceLink(parsed) || isShortLink(parsed)
    ? MAPS_LINK_TEXT
    : `Open ${parsed.hostname}`;
}
