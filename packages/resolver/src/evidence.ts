import { extractCoordinates, type LatLng } from '@placeport/converter';
import {
  distanceMetres,
  distinctPins,
  isPlausibleForFtid,
  namesPlace,
  placeIdsOf,
  type PlaceIds,
} from '@placeport/converter/internal';
import { readPage, type PlaceData } from './page.js';

/**
 * Strong evidence is bound to the requested place (the Places API's answer for its id, a pin in a
 * place URL naming its ftid, page data binding coordinates to its ftid) and is trusted whatever the
 * distance. Weak evidence (the static map, the camera, the `@` view) is used only within 20 km of
 * the ftid's S2 cell, and never for a place without an ftid. Another place's pin is no evidence:
 * product.md counts only evidence bound to the requested place.
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
 * place's full page (`other_place`: its own place data names a different ftid), it binds the
 * wanted id to places that disagree (`conflicting_data`: text someone wrote on the page, a name or
 * a review, imitating a record), it shows no coordinates (`no_evidence`), or its only coordinates
 * are weak and far from the ftid's S2 cell (`implausible`).
 */
export type Dismissal =
  'product_page' | 'other_place' | 'conflicting_data' | 'no_evidence' | 'implausible';

/**
 * Records binding one place's id lie this close together or they disagree. A real page carries its
 * place's record once (the captured nl page: once, among 14 mentions of the ftid); two records
 * farther apart than this mean one was written by someone other than Google.
 */
export const RECORDS_AGREE_METRES = 100;

/** Whether a weak answer may be used for `wanted`: only near the S2 cell of its ftid. */
export function plausible(wanted: PlaceIds, point: LatLng): boolean {
  return wanted.ftid !== undefined && isPlausibleForFtid(wanted.ftid, point);
}

/**
 * The pin (`!3d!4d`) of a URL that names the wanted place, strong evidence; undefined otherwise.
 * Google writes a place's pin in the path's `data=` segment beside its ftid: a pin in the query
 * (`?x=!3d…`) is text someone added, and a URL that writes several pins, or names several places
 * or another one, binds no pin to the wanted place (its last pin may be another's).
 */
export function pinIn(url: URL, wanted: PlaceIds): Verdict | undefined {
  const found = extractCoordinates(`${url.origin}${url.pathname}`);
  if (found?.source !== 'pin' || distinctPins(url.pathname) > 1) return undefined;
  const ids = placeIdsOf(url.href);
  if (!ids || ids === 'conflict' || !ids.ftid || !namesPlace(ids.ftid, wanted)) return undefined;
  return { point: found.coordinates, strength: 'strong', source: 'url-pin' };
}

/**
 * Whether a URL names a place other than `wanted` (an ftid, or ids of several places): a pin it
 * carries is not the wanted place's.
 */
export function namesOtherPlace(url: URL, wanted: PlaceIds): boolean {
  const ids = placeIdsOf(url.href);
  if (ids === 'conflict') return true;
  return ids?.ftid !== undefined && !namesPlace(ids.ftid, wanted);
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
 * a `cid` link the record whose ftid's low half is the cid), strong whatever the page's titles say,
 * unless records binding it disagree (then nothing: one of them is not Google's);
 * then nothing at all from Google's generic or lean pages, nor from another place's full page;
 * then the first weak form present — the static map's `markers=` (never `center=` when markers
 * exist), the camera, the `@` view of a place URL — if plausible. A pin in the URL that is not
 * bound to the wanted place is no evidence at all.
 */
export function judgePage(wanted: PlaceIds, finalUrl: URL, html: string): Verdict | Dismissal {
  const urlPin = pinIn(finalUrl, wanted);
  if (urlPin) return urlPin;
  const page = readPage(html);
  const bound = page.placeData.filter((record) => namesPlace(record.ftid, wanted));
  if (bound.length > 0) {
    const [first] = bound as [PlaceData, ...PlaceData[]];
    const agree = bound.every(
      (record) => distanceMetres(record.point, first.point) <= RECORDS_AGREE_METRES,
    );
    if (!agree) return 'conflicting_data';
    return { point: first.point, strength: 'strong', source: 'place-data' };
  }
  if (page.productPage) return 'product_page';
  if (page.placeData.some(isOwnRecord)) return 'other_place';
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
