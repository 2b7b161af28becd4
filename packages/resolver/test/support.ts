import { extractCoordinates, type LatLng } from '@placeport/converter';
import {
  FAKE_GOOGLE_API_KEY,
  ftidForCid,
  startFakeGoogle,
  type FakeGoogle,
  type FakeGoogleOptions,
} from '@placeport/testkit';
import { MemoryPlaceCache } from '../src/cache.js';
import type { ResolverTuning } from '../src/limits.js';
import { createResolver, type Resolver } from '../src/resolver.js';

/** A resolver pointed at a fresh fake Google, and the means to look at both. */
export interface Rig {
  google: FakeGoogle;
  resolver: Resolver;
  cache: MemoryPlaceCache;
  close(): Promise<void>;
}

/**
 * Starts a fake Google and a resolver reaching it through the test-only maps origin. Retries wait
 * 1 ms (their pause is not what these tests prove); everything else is the production tuning.
 */
export async function rig(
  options: {
    google?: FakeGoogleOptions;
    /** true: the fake's valid key; a string: that key. */
    apiKey?: boolean | string;
    onPlacesKeyRejected?: (reason: string) => void;
    tuning?: Partial<ResolverTuning>;
  } = {},
): Promise<Rig> {
  const google = await startFakeGoogle(options.google);
  const cache = new MemoryPlaceCache();
  const resolver = createResolver({
    fetch: globalThis.fetch,
    mapsOrigin: google.url,
    placesOrigin: google.url,
    googleMapsApiKey: options.apiKey === true ? FAKE_GOOGLE_API_KEY : options.apiKey || undefined,
    ...(options.onPlacesKeyRejected ? { onPlacesKeyRejected: options.onPlacesKeyRejected } : {}),
    cache,
    tuning: { retryDelayMs: 1, ...options.tuning },
  });
  return { google, resolver, cache, close: () => google.close() };
}

/** A Takeout-style link to the place with this CID (its ftid's S2 cell holds the place). */
export function placeLink(cid: number | bigint, name = 'Some Place'): string {
  return `https://www.google.com/maps/place/${encodeURIComponent(name)}/data=!4m2!3m1!1s${ftidForCid(BigInt(cid))}`;
}

/** The coordinates a resolved URL carries. */
export function pointOf(resolved: string | undefined): LatLng | undefined {
  return resolved ? extractCoordinates(resolved)?.coordinates : undefined;
}
