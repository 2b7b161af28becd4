import {
  extractCoordinates,
  extractPlaceRef,
  placeIdFromFtid,
  placeKey,
  type LatLng,
  type PlaceRef,
} from '@placeport/converter';
import { isAllowedFetchUrl, isGooglePlaceLink } from './allowlist.js';

/**
 * How one link will be resolved:
 * - `known`: the link itself holds the pin or an explicit pair (nothing to fetch);
 * - `place`: it names a place (ftid, CID or place id): look it up by id, from the cache, the Places
 *   API, then the place page the server builds itself;
 * - `link`: an allowlisted Maps link without an id (a short link): follow it hop by hop;
 * - `refused`: anything else, never fetched.
 */
export type Plan =
  | { kind: 'known'; coordinates: LatLng; placeId: string | undefined }
  | { kind: 'place'; key: string; placeId: string | undefined; page: URL }
  | { kind: 'link'; page: URL }
  | { kind: 'refused' };

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The https place page the server fetches for a place id, whatever form the user's link had. */
export function placePageUrl(ref: PlaceRef): URL {
  if (ref.ftid) return new URL(`https://www.google.com/maps/place/data=!4m2!3m1!1s${ref.ftid}`);
  if (ref.cid) return new URL(`https://www.google.com/maps?cid=${ref.cid}`);
  return new URL(`https://www.google.com/maps/place/?q=place_id:${ref.placeId ?? ''}`);
}

/** The Places API place id of a reference, from the link or converted offline from its ftid. */
export function placeIdOf(ref: PlaceRef): string | undefined {
  return ref.placeId ?? (ref.ftid ? placeIdFromFtid(ref.ftid) : undefined);
}

/** Decides how a link is resolved, using the converter's parsers for coordinates and place ids. */
export function planFor(text: string): Plan {
  const url = parse(text);
  if (!url) return { kind: 'refused' };
  const googlePlace = isGooglePlaceLink(url);
  const allowed = isAllowedFetchUrl(url);
  if (!googlePlace && !allowed) return { kind: 'refused' };
  const ref = extractPlaceRef(text);
  const found = extractCoordinates(text);
  if (found && found.source !== 'centre') {
    return {
      kind: 'known',
      coordinates: found.coordinates,
      placeId: ref ? placeIdOf(ref) : undefined,
    };
  }
  const key = placeKey(ref);
  if (ref && key && googlePlace) {
    return { kind: 'place', key, placeId: placeIdOf(ref), page: placePageUrl(ref) };
  }
  return allowed ? { kind: 'link', page: url } : { kind: 'refused' };
}
