import { extractCoordinates, isValidCoordinate, type LatLng } from '@placeport/converter';

const META_TAG = /<meta\b[^>]*>/gi;
const ATTRIBUTE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const NUMBER = String.raw`(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)`;
/** `APP_INITIALIZATION_STATE=[[[<zoom>,<lng>,<lat>]`: the camera, longitude before latitude. */
const APP_STATE = new RegExp(
  String.raw`APP_INITIALIZATION_STATE\s*=\s*\[\[\[${NUMBER},${NUMBER},${NUMBER}\]`,
);
const TITLE = /<title>([^<]*)<\/title>/i;

/** The name of Google's generic Maps page, whose numbers are the requester's location. */
const GENERIC_NAME = 'Google Maps';

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
    return named[lower] ?? whole;
  });
}

function metaTags(html: string): Record<string, string>[] {
  return [...html.matchAll(META_TAG)].map((tag) => {
    const attributes: Record<string, string> = {};
    for (const match of tag[0].matchAll(ATTRIBUTE)) {
      attributes[match[1]!.toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? '');
    }
    return attributes;
  });
}

/** True for Google's generic page: its `itemprop="name"` (or, lacking one, its title) is just "Google Maps". */
export function isGenericPage(html: string): boolean {
  const name = metaTags(html).find((meta) => meta.itemprop === 'name')?.content;
  if (name !== undefined) return name.trim() === GENERIC_NAME;
  return decodeEntities(TITLE.exec(html)?.[1] ?? '').trim() === GENERIC_NAME;
}

/** The static-map image (`og:image` or `itemprop="image"`) whose `center=<lat>%2C<lng>` is the place. */
function fromImage(html: string): LatLng | undefined {
  for (const meta of metaTags(html)) {
    const isImage = meta.property === 'og:image' || meta.itemprop === 'image';
    const found = isImage && meta.content ? extractCoordinates(meta.content) : undefined;
    if (found && found.source === 'explicit') return found.coordinates;
  }
  return undefined;
}

function fromAppState(html: string): LatLng | undefined {
  const match = APP_STATE.exec(html);
  if (!match) return undefined;
  const lng = Number(match[2]);
  const lat = Number(match[3]);
  return isValidCoordinate(lat, lng) ? { lat, lng } : undefined;
}

/** Which form gave a page's coordinates. */
export type PageSource = 'url-pin' | 'image' | 'app-state' | 'url-view';

/**
 * Reads a place's pin from a fetched place page, most precise first: the pin `!3d!4d` in the final
 * URL; the static map's `center=` in `og:image` / `itemprop="image"`; the camera in
 * `APP_INITIALIZATION_STATE` (longitude first); last, the `@lat,lng` view of a `/maps/place/` URL.
 * The generic "Google Maps" page yields nothing: its numbers are the requester's location.
 */
export function readPlacePage(
  finalUrl: URL,
  html: string,
): { coordinates: LatLng; source: PageSource } | undefined {
  if (isGenericPage(html)) return undefined;
  const fromUrl = extractCoordinates(finalUrl.href);
  if (fromUrl && fromUrl.source !== 'centre')
    return { coordinates: fromUrl.coordinates, source: 'url-pin' };
  const image = fromImage(html);
  if (image) return { coordinates: image, source: 'image' };
  const state = fromAppState(html);
  if (state) return { coordinates: state, source: 'app-state' };
  if (fromUrl && finalUrl.pathname.startsWith('/maps/place/')) {
    return { coordinates: fromUrl.coordinates, source: 'url-view' };
  }
  return undefined;
}
