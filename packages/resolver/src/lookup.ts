import { extractCoordinates, LOOKUP_FAILURES, type LookupFailure } from '@placeport/converter';
import {
  cacheKeyOf,
  isAllowedFetchUrl,
  isValidCoordinate,
  isShortLink,
  placeIdsOf,
  type PlaceIds,
} from '@placeport/converter/internal';
import type { Breaker } from './breaker.js';
import type { CachedPlace, PlaceCache } from './cache.js';
import { delay, type Clock } from './clock.js';
import { judgePage, namesOtherPlace, pinIn, plausible, type Verdict } from './evidence.js';
import { MAX_REDIRECTS, PAGE_RETRIES_PER_LOOKUP } from './limits.js';
import {
  fetchMapsPage,
  fetchPlaceLocation,
  type Answer,
  type KeyRejected,
  type UpstreamOptions,
} from './upstream.js';

/**
 * Why a link has no coordinates (product.md, Resolution): the converter's {@link LookupFailure},
 * so the API's answers, the pipeline and the failed-places CSV share one list. `limit` is given by
 * the API (an allowance used), never by the resolver itself.
 */
export type FailureReason = LookupFailure;

/** Every reason, for validation and tables. */
export const FAILURE_REASONS: readonly FailureReason[] = LOOKUP_FAILURES;

/** The outcome of one lookup. */
export type LookupOutcome =
  { found: CachedPlace; verdict: Verdict } | { reason: FailureReason; detail: string };

/**
 * Whether Google refuses the Places API key, shared by the lookups of one resolver: its reason
 * (`API_KEY_INVALID`, `SERVICE_DISABLED`…) from the refusal until the key is answered again.
 */
export interface PlacesKeyState {
  rejected: string | undefined;
  /** Told once each time the key goes from answered to refused. */
  onRejected: (reason: string) => void;
}

/** What a lookup needs from its resolver. */
export interface LookupContext {
  upstream: UpstreamOptions;
  clock: Clock;
  cache: PlaceCache;
  breakers: { pages: Breaker; places: Breaker };
  googleMapsApiKey: string | undefined;
  placesKey: PlacesKeyState;
  retryDelayMs: number;
  signal: AbortSignal;
  /** Counts each request sent upstream, per path. */
  onRequest: (path: 'pages' | 'places') => void;
}

function found(ids: PlaceIds, verdict: Verdict): LookupOutcome {
  return { found: { coordinates: verdict.point, placeId: ids.placeId }, verdict };
}

function failed(reason: FailureReason, detail: string): LookupOutcome {
  return { reason, detail };
}

/** Whether an answer is no answer at all: a network error or a timeout. */
function unanswered(answer: Answer<unknown> | KeyRejected): boolean {
  return answer.kind === 'timeout' || (answer.kind === 'transient' && answer.why === 'network');
}

/**
 * Sends a request, and once more after a jittered pause when it failed transiently, unless the
 * path's breaker opened meanwhile (Google refusing us, or out of reach) or the lookup's `retries`
 * are used up (one is taken per retry). Every attempt that got no
 * answer at all is told to the breaker ({@link Breaker.unreachable}); the caller tells it the rest.
 * A request or pause ended by the lookup's signal (the caller went away, the batch deadline)
 * settles nothing, and the breaker hears so ({@link Breaker.inconclusive}): were it the probe of an
 * open breaker, nothing else would ever be let through again.
 */
async function withRetry<A extends Answer<unknown> | KeyRejected>(
  context: LookupContext,
  breaker: Breaker,
  send: () => Promise<A>,
  retries: { left: number } = { left: 1 },
) {
  try {
    const first = await send();
    if (unanswered(first)) breaker.unreachable();
    if (first.kind !== 'transient' || breaker.refusing || retries.left <= 0) return first;
    retries.left -= 1;
    const pause = Math.round(context.retryDelayMs * (0.5 + context.clock.random()));
    await delay(context.clock, pause, context.signal);
    const second = await send();
    if (unanswered(second)) breaker.unreachable();
    return second;
  } catch (error) {
    breaker.inconclusive();
    throw error;
  }
}

/** Stores a strong answer under the key of the ids that were looked up; weak answers are never cached. */
async function remember(context: LookupContext, ids: PlaceIds, outcome: LookupOutcome) {
  const key = cacheKeyOf(ids);
  if (key && 'found' in outcome && outcome.verdict.strength === 'strong') {
    await context.cache.set(key, outcome.found);
  }
  return outcome;
}

/** A cached answer for these ids, if it is still plausible for the ftid (a strong answer far from its cell is re-checked). */
export async function fromCache(
  context: Pick<LookupContext, 'cache'>,
  ids: PlaceIds,
): Promise<LookupOutcome | undefined> {
  const key = cacheKeyOf(ids);
  const cached = key ? await context.cache.get(key) : undefined;
  if (!cached) return undefined;
  // A shared store or a cache file edited by hand may hold anything: a point that is no place
  // (0, 0; out of range) is looked up again, as one implausible for the ftid is.
  const { lat, lng } = cached.coordinates;
  if (!isValidCoordinate(lat, lng) || (ids.ftid && !plausible(ids, cached.coordinates))) {
    return undefined;
  }
  return {
    found: { coordinates: cached.coordinates, placeId: cached.placeId ?? ids.placeId },
    verdict: { point: cached.coordinates, strength: 'strong', source: 'cache' },
  };
}

/**
 * Whether a request may be sent on a breaker's path now. While the probe of a half-open breaker is
 * out, the answer waits for it (or for `signal`): when Google is back the probe closes the breaker
 * and every lookup waiting goes on, rather than all but the probe failing at once.
 */
async function allowed(breaker: Breaker, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    if (breaker.allow()) return true;
    const probe = breaker.probe;
    if (!probe || signal.aborted) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      void probe.then(done);
    });
  }
}

/** The Places API for a place id, when a key is set and Google is not refusing that path. */
async function fromPlacesApi(
  context: LookupContext,
  ids: PlaceIds,
): Promise<LookupOutcome | undefined> {
  const apiKey = context.googleMapsApiKey;
  const breaker = context.breakers.places;
  if (!apiKey || !ids.placeId || !breaker.allow()) return undefined;
  const answer = await withRetry(context, breaker, () => {
    context.onRequest('places');
    return fetchPlaceLocation(context.upstream, ids.placeId!, apiKey, context.signal);
  });
  const key = context.placesKey;
  if (answer.kind === 'key_rejected') {
    // Every place would be refused alike: the path pauses as for a refusal (and tries the key
    // again after it, in case it was fixed), and the pages answer meanwhile.
    if (key.rejected === undefined) key.onRejected(answer.why);
    key.rejected = answer.why;
    breaker.refused();
    return undefined;
  }
  if (answer.kind === 'ok' || answer.kind === 'missing') key.rejected = undefined;
  if (answer.kind === 'ok') {
    breaker.succeeded();
    return remember(
      context,
      ids,
      found(ids, { point: answer.value, strength: 'strong', source: 'places-api' }),
    );
  }
  if (answer.kind === 'refused') breaker.refused();
  else if (answer.kind === 'missing') breaker.succeeded();
  else if (!unanswered(answer)) breaker.inconclusive();
  // Not found, refused or failed: the place page may still answer.
  return undefined;
}

/** Ids a hop names, adopted when the lookup started without any (a short link). */
function adopt(wanted: PlaceIds, url: URL): PlaceIds {
  if (wanted.ftid || wanted.cid || wanted.placeId) return wanted;
  const ids = placeIdsOf(url.href);
  return ids && ids !== 'conflict' ? ids : wanted;
}

/**
 * Follows a Maps page hop by hop (`redirect: 'manual'`), judging every hop against the allowlist
 * before it is requested, reading a pin or an explicit pair a hop already carries before anything
 * else, and adopting the ids a short link's hop names (then the cache and the Places API answer for
 * them); last, judges the page by the evidence rules. A refusal opens the pages breaker.
 */
async function fromPages(
  context: LookupContext,
  start: URL,
  idsAtStart: PlaceIds,
): Promise<LookupOutcome> {
  let wanted = idsAtStart;
  const fromLink = !idsAtStart.ftid && !idsAtStart.cid && !idsAtStart.placeId;
  const breaker = context.breakers.pages;
  let url = start;
  // Once a short link was followed, every later address is where its maker chose to lead.
  let viaShortLink = false;
  const retries = { left: PAGE_RETRIES_PER_LOOKUP };
  for (let hop = 0; ; hop += 1) {
    if (!isAllowedFetchUrl(url)) {
      return failed(fromLink && hop === 0 ? 'not_allowed' : 'not_found', 'left_allowlist');
    }
    if (!(await allowed(breaker, context.signal))) {
      // Open: Google refused us (throttled), or cannot be reached from here (unavailable).
      return breaker.cause === 'unreachable'
        ? failed('unavailable', 'unreachable')
        : failed('throttled', 'backing_off');
    }
    const shortLink = isShortLink(url);
    viaShortLink ||= shortLink;
    const answer = await withRetry(
      context,
      breaker,
      () => {
        context.onRequest('pages');
        return fetchMapsPage(context.upstream, url, context.signal, shortLink);
      },
      retries,
    );
    switch (answer.kind) {
      case 'refused':
        breaker.refused();
        return failed('throttled', answer.why);
      case 'transient':
        if (!unanswered(answer)) breaker.inconclusive();
        return failed('unavailable', answer.why);
      case 'timeout':
        return failed('unavailable', 'timeout');
      case 'missing':
        breaker.succeeded();
        return failed('not_found', answer.why);
      case 'ok': {
        breaker.succeeded();
        const verdict = judgePage(wanted, answer.value.url, answer.value.html);
        if (typeof verdict === 'string') return failed('not_found', verdict);
        return remember(context, wanted, found(wanted, verdict));
      }
      case 'redirect': {
        breaker.succeeded();
        const next = answer.location;
        if (hop >= MAX_REDIRECTS) return failed('not_found', 'too_many_redirects');
        if (!isAllowedFetchUrl(next))
          return failed(fromLink ? 'not_allowed' : 'not_found', 'left_allowlist');
        const adopted = adopt(wanted, next);
        const pin = pinIn(next, adopted);
        if (pin) {
          // A pin reached through a short link answers for that link alone: whoever made the link
          // chose where it leads (and, hop by hop, what the addresses after it carry), so it is
          // never kept as Google's answer for the ids it names. Google's redirect of a place URL
          // the lookup started from is its answer for that place, and kept.
          const answer = found(adopted, pin);
          return viaShortLink ? answer : remember(context, adopted, answer);
        }
        const pair = extractCoordinates(next.href);
        if (fromLink && pair && pair.source !== 'centre' && !namesOtherPlace(next, adopted)) {
          // The link's own redirect carries the pin: it answers at once, for this link alone
          // (never cached: the link named no place to keep it under). Not when it names a place other than an earlier hop did, or
          // several: that pin is another place's, and no evidence at all.
          return found(adopted, { point: pair.coordinates, strength: 'strong', source: 'hop' });
        }
        if (adopted !== wanted) {
          wanted = adopted;
          const known =
            (await fromCache(context, wanted)) ?? (await fromPlacesApi(context, wanted));
          if (known) return known;
        }
        url = next;
      }
    }
  }
}

/**
 * Looks one place up: the Places API for its id (with a key), then its page. The cache is read by
 * the caller before a slot is taken.
 */
export async function lookupPlace(
  context: LookupContext,
  ids: PlaceIds,
  page: URL,
): Promise<LookupOutcome> {
  return (await fromPlacesApi(context, ids)) ?? fromPages(context, page, ids);
}

/** Follows a link that names no place (a short link) to whatever it leads to. */
export function lookupLink(context: LookupContext, page: URL): Promise<LookupOutcome> {
  return fromPages(context, page, {});
}
