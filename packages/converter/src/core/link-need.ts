import { isAllowedFetchUrl, isGooglePlaceLink } from './allowlist.js';
import { extractCoordinates, writesOnlyZeroPairs } from './coordinates.js';
import { MAX_URL_LENGTH } from './limits.js';
import { cacheKeyOf, placeIdsOf, type PlaceIds } from './place-ids.js';
import { isPlausibleForFtid } from './s2.js';
import type { LatLng, ParsedPlace } from './types.js';

/**
 * What one link needs before it can be placed, by the resolver's own rule:
 * - `coordinates`: it holds the pin (`!3d!4d`) or an explicit pair; nothing to look up;
 * - `lookup` `by: 'place'`: it names a place (ftid, CID or place id, all agreeing) on one of
 *   Google's hosts: looked up by that id;
 * - `lookup` `by: 'link'`: an allowlisted Maps link without an id (a short link): followed hop by
 *   hop;
 * - `no_location`: Takeout's link of a place it has no location for (a search for 0,0, which
 *   product.md reads as missing): it names no place, so nothing is looked up and it is not found;
 * - `not_allowed`: the resolver refuses it — not a Google Maps link on Google's own domains
 *   (look-alikes, IP literals, odd ports, userinfo), ids that disagree, too long, or no URL at all.
 *
 * `key` is what a lookup is told apart by: links with the same key are one lookup (sent once,
 * answered together, cached under it).
 */
export type LinkNeed =
  | { kind: 'coordinates'; coordinates: LatLng; placeId: string | undefined }
  | { kind: 'lookup'; by: 'place'; ids: PlaceIds; key: string }
  | { kind: 'lookup'; by: 'link'; url: URL; key: string }
  | { kind: 'no_location' }
  | { kind: 'not_allowed' };

/**
 * The link as a URL, `http:` read as `https:` (Takeout writes the starred places' links as
 * `http://maps.google.com/…`, and Google's own hosts answer only over https); the allowlist then
 * judges the https link, so a link on another host is refused as before.
 */
function parse(link: string): URL | undefined {
  if (link.length > MAX_URL_LENGTH) return undefined;
  try {
    const url = new URL(link);
    if (url.protocol === 'http:') url.protocol = 'https:';
    return url;
  } catch {
    return undefined;
  }
}

/**
 * Decides what `link` needs (product.md, "Needs a lookup": one meaning everywhere). The resolver
 * plans every link with it, and the selection counts, the pipeline, the CLI and the API's
 * allowances use it too, so a link the resolver would refuse is `not_allowed` at once: never sent,
 * never counted against an allowance.
 *
 * Only a link the resolver accepts can be `coordinates`: the converter reads a place's own
 * coordinates first, from any link ({@link placeNeed}), and asks this of links that carry none.
 */
export function linkNeed(link: string): LinkNeed {
  const url = parse(link);
  if (!url) return { kind: 'not_allowed' };
  const googlePlace = isGooglePlaceLink(url);
  const allowed = isAllowedFetchUrl(url);
  if (!googlePlace && !allowed) return { kind: 'not_allowed' };
  const ids = placeIdsOf(link);
  if (ids === 'conflict') return { kind: 'not_allowed' };
  if (googlePlace && !ids && writesOnlyZeroPairs(url)) {
    return { kind: 'no_location' };
  }
  const found = extractCoordinates(link);
  if (found && found.source !== 'centre') {
    return { kind: 'coordinates', coordinates: found.coordinates, placeId: ids?.placeId };
  }
  const key = ids ? cacheKeyOf(ids) : undefined;
  if (ids && key && googlePlace) return { kind: 'lookup', by: 'place', ids, key };
  return allowed
    ? { kind: 'lookup', by: 'link', url, key: `url:${url.href}` }
    : { kind: 'not_allowed' };
}

/**
 * What a place of a list needs, as the converter sees it: coordinates from the file (starred
 * places) or from its link in any form (most precise first; the `@` view only as
 * {@link viewMayPlace} allows), else a lookup
 * under its {@link linkNeed} key, else why it cannot be placed: no link at all, Takeout's link of a
 * place without a location (`not_found`), or a link the resolver would refuse (`not_allowed`). The selection counts, the pipeline and the CLI's progress
 * total all read places through this.
 */
export type PlaceNeed =
  | { kind: 'coordinates'; coordinates: LatLng }
  | { kind: 'lookup'; key: string }
  | { kind: 'unplaced'; reason: 'no_link' | 'not_allowed' | 'not_found' };

/**
 * Whether a link's `@` view may stand for its place. The view is where the map was, not the pin
 * (product.md "Coordinates": the last resort; "Resolution": weak evidence, used only within 20 km
 * of the ftid's S2 cell). So it places a link that names no place (nothing could be looked up),
 * or one whose ftid's cell it lies near; a link naming a place elsewhere, or by a cid or place id
 * alone, is looked up instead (a Sydney view on the Eiffel Tower's link is no pin for it).
 */
function viewMayPlace(link: string, view: LatLng): boolean {
  const ids = placeIdsOf(link);
  if (ids === undefined) return true;
  return ids !== 'conflict' && ids.ftid !== undefined && isPlausibleForFtid(ids.ftid, view);
}

/** Decides what a place needs ({@link PlaceNeed}). */
export function placeNeed(place: Pick<ParsedPlace, 'coordinates' | 'url'>): PlaceNeed {
  if (place.coordinates) return { kind: 'coordinates', coordinates: place.coordinates };
  const found = extractCoordinates(place.url);
  if (found && (found.source !== 'centre' || viewMayPlace(place.url, found.coordinates))) {
    return { kind: 'coordinates', coordinates: found.coordinates };
  }
  if (!place.url.trim()) return { kind: 'unplaced', reason: 'no_link' };
  // The link's coordinates, in any form, were read above: it needs a lookup or cannot be placed.
  const need = linkNeed(place.url);
  if (need.kind === 'lookup') return { kind: 'lookup', key: need.key };
  // Takeout's own "no location": never looked up (nothing to find), nor charged, nor retried.
  if (need.kind === 'no_location') return { kind: 'unplaced', reason: 'not_found' };
  return { kind: 'unplaced', reason: 'not_allowed' };
}
