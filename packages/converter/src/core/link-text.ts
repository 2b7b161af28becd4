import { isGooglePlaceLink, isShortLink } from './allowlist.js';

/** The label of a place's link to Google Maps, as the KML balloon words it (the seed). */
export const MAPS_LINK_TEXT = 'View on Google Maps';

/** The common start of Takeout's links: Google Maps, without parsing (the hot path of a run). */
const TAKEOUT_LINK_START = 'https://www.google.com/maps';

/**
 * The words a place's link is offered with (KML balloon, GPX `<link><text>`): "View on Google
 * Maps" for a link to Google Maps ({@link isMapsLink}), otherwise "Open" and the host it really
 * goes to (`Open evil.example`, `Open www.google.com`), so a crafted archive cannot dress another
 * site as Google in the balloons of whoever imports its files, not even through one of Google's
 * redirectors (`https://www.google.com/url?q=https://evil.example/`). Callers offer http(s) links
 * only.
 */
export function linkText(url: string): string {
  if (url.startsWith(TAKEOUT_LINK_START) && '/?#'.includes(url[TAKEOUT_LINK_START.length] ?? '/')) {
    return MAPS_LINK_TEXT;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Open link';
  }
  return isMapsLink(parsed) ? MAPS_LINK_TEXT : `Open ${parsed.hostname}`;
}

/**
 * A link to Google Maps: a Maps short link, or one of Google's hosts ({@link isGooglePlaceLink})
 * at a Maps page: `/maps` and below, the front of `maps.<domain>`, or a place id at `/` or
 * `/search` (Takeout's old `?cid=` and `&ludocid=` links). Google's other pages (its redirectors
 * `/url` and `/amp/s/` among them) are not Maps.
 */
function isMapsLink(url: URL): boolean {
  if (isShortLink(url)) return true;
  if (!isGooglePlaceLink(url)) return false;
  const path = url.pathname;
  if (path === '/maps' || path.startsWith('/maps/')) return true;
  if (path === '/' && url.hostname.startsWith('maps.')) return true;
  return (
    (path === '/' || path === '/search') &&
    (url.searchParams.has('cid') || url.searchParams.has('ludocid'))
  );
}
