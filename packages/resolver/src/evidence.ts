import { extractCoordinates, type LatLng } from '@placeport/converter';
import {
  isPlausibleForFtid,
  namesPlace,
  parseFtid,
  type PlaceIds,
} from '@placeport/converter/internal';
import { readPage, type PlaceData } from './page.js';

/**
 * Strong evidence is bound to the requested place (the Places API's answer for its id, a pin in a
 * place URL naming its ftid, page data binding coordinates to its ftid) and is trusted whatever the
 * distance. Weak evidence (a pin of another place, the static map, the camera, the `@` view) is
 * used only within 20 km of the ftid's S2 cell, and never for a place without an ftid.
 */
export type Strength = 'strong' | 'weak';

/** Which form gave an answer, for reports and tests. */
export type EvidenceSource =
  | 'places-api'
  | 'url-pin'
  | 'hop'
  | 'place-data'
  | 'static-marker'
  | 'static-centre'
  | 'camera'
  | 'url-view'
  | 'cache';

/** An answer and how far it may be trusted. */
export interface Verdict {
  point: LatLng;
  strength: Strength;
  source: EvidenceSource;
}

/**
 * Why a page gave nothing: it is Google's generic or lean page (`product_page`), it is another
 * place's full page (`other_place`: its own place data names a different ftid), it shows no
 * coordinates (`no_evidence`), or its only coordinates are weak and far from the ftid's S2 cell
 * (`implausible`).
 */
export type Dismissal = 'product_page' | 'other_place' | 'no_evidence' | 'implausible';

/** Whether a weak answer may be used for `wanted`: only near the S2 cell of its ftid. */
export function plausible(wanted: PlaceIds, point: LatLng): boolean {
  return wanted.ftid !== undefined && isPlausibleForFtid(wanted.ftid, point);
}

/** A pin (`!3d!4d`) in a URL, and whether the URL names the wanted place. */
export function pinIn(url: URL, wanted: PlaceIds): Verdict | undefined {
  const found = extractCoordinates(url.href);
  if (found?.source !== 'pin') return undefined;
  const ftid = parseFtid(decodeURIComponent(url.pathname) + url.search);
  const bound = ftid !== undefined && namesPlace(ftid, wanted);
  return { point: found.coordinates, strength: bound ? 'strong' : 'weak', source: 'url-pin' };
}

function weakOrNothing(wanted: PlaceIds, verdict: Verdict): Verdict | Dismissal {
  return plausible(wanted, verdict.point) ? verdict : 'implausible';
}

/**
 * A full page's own place record carries a whole ftid; the records of nearby places it lists carry
 * `0x0:0x<cid>` (as in real pages). A page whose own record names another place is that place's page.
 */
function isOwnRecord(record: PlaceData): boolean {
  return !record.ftid.startsWith('0x0:');
}

/**
 * Judges a fetched page for the place `wanted`, evidence first (product.md, "Resolution"): a pin in
 * the final URL that names the wanted ftid; then place data bound to the wanted id (its ftid, or for
 * a `cid` link the record whose ftid's low half is the cid), strong whatever the page's titles say;
 * then nothing at all from Google's generic or lean pages, nor from another place's full page;
 * then the first weak form present — a pin of another id in the URL, the static map's `markers=`
 * (never `center=` when markers exist), the camera, the `@` view of a place URL — if plausible.
 */
export function judgePage(wanted: PlaceIds, finalUrl: URL, html: string): Verdict | Dismissal {
  const urlPin = pinIn(finalUrl, wanted);
  if (urlPin?.strength === 'strong') return urlPin;
  const page = readPage(html);
  const bound = page.placeData.find((record) => namesPlace(record.ftid, wanted));
  if (bound) return { point: bound.point, strength: 'strong', source: 'place-data' };
  if (page.productPage) return 'product_page';
  if (page.placeData.some(isOwnRecord)) return 'other_place';
  if (urlPin) return weakOrNothing(wanted, urlPin);
  const weakForms = [
    [page.staticMarker, 'static-marker'],
    [page.staticCentre, 'static-centre'],
    [page.camera, 'camera'],
  ] as const;
  for (const [point, source] of weakForms) {
    if (point) return weakOrNothing(wanted, { point, strength: 'weak', source });
  }
  const view = extractCoordinates(finalUrl.href);
  if (view?.source === 'centre' && finalUrl.pathname.startsWith('/maps/place/')) {
    return weakOrNothing(wanted, { point: view.coordinates, strength: 'weak', source: 'url-view' });
  }
  return 'no_evidence';
}
