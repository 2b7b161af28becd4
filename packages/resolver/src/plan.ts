import { extractCoordinates, type LatLng } from '@placeport/converter/internal';
import { isAllowedFetchUrl, isGooglePlaceLink } from './allowlist.js';
import { cacheKeyOf, placeIdsOf, type PlaceIds } from './ids.js';
import { MAX_URL_LENGTH } from './limits.js';

/**
 * How one link will be resolved:
 * - `known`: the link itself holds the pin or an explicit pair (nothing to fetch, nothing beats it);
 * - `place`: it names a place (ftid, CID or place id, all agreeing): look it up by id — cache,
 *   Places API, then the place page the resolver builds itself;
 * - `link`: an allowlisted Maps link without an id (a short link): follow it hop by hop;
 * - `refused`: not a Google Maps link, or its ids disagree: never fetched (`not_allowed`).
 */
export type Plan =
  | { kind: 'known'; coordinates: LatLng; placeId: string | undefined }
  | { kind: 'place'; ids: PlaceIds; key: string; page: URL }
  | { kind: 'link'; page: URL }
  | { kind: 'refused' };

function parse(text: string): URL | undefined {
  if (text.length > MAX_URL_LENGTH) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The https place page the resolver fetches for a place, whatever form the user's link had. */
export function placePageUrl(ids: PlaceIds): URL {
  if (ids.ftid) return new URL(`https://www.google.com/maps/place/data=!4m2!3m1!1s${ids.ftid}`);
  if (ids.cid) return new URL(`https://www.google.com/maps?cid=${ids.cid}`);
  return new URL(`https://www.google.com/maps/place/?q=place_id:${ids.placeId ?? ''}`);
}

/** Decides how a link is resolved. */
export function planFor(text: string): Plan {
  const url = parse(text);
  if (!url) return { kind: 'refused' };
  const googlePlace = isGooglePlaceLink(url);
  const allowed = isAllowedFetchUrl(url);
  if (!googlePlace && !allowed) return { kind: 'refused' };
  const ids = placeIdsOf(text);
  if (ids === 'conflict') return { kind: 'refused' };
  const found = extractCoordinates(text);
  if (found && found.source !== 'centre') {
    return { kind: 'known', coordinates: found.coordinates, placeId: ids?.placeId };
  }
  const key = ids ? cacheKeyOf(ids) : undefined;
  if (ids && key && googlePlace) return { kind: 'place', ids, key, page: placePageUrl(ids) };
  return allowed ? { kind: 'link', page: url } : { kind: 'refused' };
}
