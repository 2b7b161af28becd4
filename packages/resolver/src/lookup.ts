import {
  extractCoordinates,
  extractPlaceRef,
  isValidCoordinate,
  placeKey,
  type LatLng,
} from '@placeport/converter';
import { isAllowedFetchUrl } from './allowlist.js';
import type { CachedPlace, PlaceCache } from './cache.js';
import { MAX_PAGE_BYTES, MAX_REDIRECTS } from './limits.js';
import { readPlacePage } from './page.js';
import { placeIdOf } from './plan.js';
import { fetchMapsPage, fetchPlace, readCapped, type UpstreamOptions } from './upstream.js';

/** Why a lookup found nothing, counted for logs and tests (never with the link itself). */
export type MissReason =
  | 'left_allowlist'
  | 'too_many_redirects'
  | 'http_error'
  | 'not_html'
  | 'generic_or_no_pin'
  | 'aborted'
  | 'network';

/** The outcome of one place lookup. */
export type LookupResult = { found: CachedPlace; key: string | undefined } | { miss: MissReason };

/** What a lookup needs from its resolver. */
export interface LookupContext {
  upstream: UpstreamOptions;
  cache: PlaceCache;
  signal: AbortSignal;
  /** Counts each request sent upstream. */
  onRequest: () => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Places API (New): `{ location: { latitude, longitude } }`, or undefined on any failure. */
export async function lookupPlacesApi(
  context: LookupContext,
  apiKey: string,
  placeId: string,
): Promise<LatLng | undefined> {
  context.onRequest();
  const response = await fetchPlace(context.upstream, placeId, apiKey, context.signal);
  if (!response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  const body = (await response.json()) as {
    location?: { latitude?: unknown; longitude?: unknown };
  };
  const lat = body.location?.latitude;
  const lng = body.location?.longitude;
  return typeof lat === 'number' && typeof lng === 'number' && isValidCoordinate(lat, lng)
    ? { lat, lng }
    : undefined;
}

/** A redirect target that already answers: a pin in the URL, or a place already in the cache. */
function answeredBy(context: LookupContext, url: URL): LookupResult | undefined {
  const ref = extractPlaceRef(url.href);
  const key = placeKey(ref);
  const placeId = ref ? placeIdOf(ref) : undefined;
  const cached = key ? context.cache.get(key) : undefined;
  if (cached) return { found: cached, key };
  const pin = extractCoordinates(url.href);
  if (pin?.source === 'pin') return { found: { coordinates: pin.coordinates, placeId }, key };
  return undefined;
}

/**
 * Follows a Maps link hop by hop (`redirect: 'manual'`), judging every hop against the allowlist
 * before it is requested and stopping after {@link MAX_REDIRECTS}; then reads the pin from the page.
 * A redirect whose URL already holds the pin, or names a cached place, answers without another request.
 */
export async function lookupPage(
  context: LookupContext,
  start: URL,
  placeId: string | undefined,
): Promise<LookupResult> {
  let url = start;
  for (let hop = 0; ; hop += 1) {
    if (!isAllowedFetchUrl(url)) return { miss: 'left_allowlist' };
    context.onRequest();
    const response = await fetchMapsPage(context.upstream, url, context.signal);
    const location = response.headers.get('location');
    if (REDIRECTS.has(response.status) && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) return { miss: 'too_many_redirects' };
      const next = new URL(location, url);
      if (!isAllowedFetchUrl(next)) return { miss: 'left_allowlist' };
      const answered = answeredBy(context, next);
      if (answered) return answered;
      url = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { miss: 'http_error' };
    }
    if (!(response.headers.get('content-type') ?? '').includes('text/html')) {
      await response.body?.cancel();
      return { miss: 'not_html' };
    }
    const read = readPlacePage(url, await readCapped(response, MAX_PAGE_BYTES));
    if (!read) return { miss: 'generic_or_no_pin' };
    const ref = extractPlaceRef(url.href);
    return {
      found: {
        coordinates: read.coordinates,
        placeId: placeId ?? (ref ? placeIdOf(ref) : undefined),
      },
      key: placeKey(ref),
    };
  }
}
