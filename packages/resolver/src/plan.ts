import { type LatLng } from '@placeport/converter';
import { linkNeed, type PlaceIds } from '@placeport/converter/internal';

/**
 * How one link will be resolved, as the converter core's {@link linkNeed} decides (the one rule
 * for "needs a lookup"), with the page each lookup starts from:
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
  | { kind: 'refused' }
  /** Takeout's link of a place without a location: not found, with nothing to look up. */
  | { kind: 'nowhere' };

/** The https place page the resolver fetches for a place, whatever form the user's link had. */
export function placePageUrl(ids: PlaceIds): URL {
  if (ids.ftid) return new URL(`https://www.google.com/maps/place/data=!4m2!3m1!1s${ids.ftid}`);
  if (ids.cid) return new URL(`https://www.google.com/maps?cid=${ids.cid}`);
  return new URL(`https://www.google.com/maps/place/?q=place_id:${ids.placeId ?? ''}`);
}

/** Decides how a link is resolved. */
export function planFor(text: string): Plan {
  const need = linkNeed(text);
  switch (need.kind) {
    case 'not_allowed':
      return { kind: 'refused' };
    case 'no_location':
      return { kind: 'nowhere' };
    case 'coordinates':
      return { kind: 'known', coordinates: need.coordinates, placeId: need.placeId };
    case 'lookup':
      return need.by === 'place'
        ? { kind: 'place', ids: need.ids, key: need.key, page: placePageUrl(need.ids) }
        : { kind: 'link', page: need.url };
  }
}
