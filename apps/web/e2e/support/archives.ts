/**
 * Archives for the browser tests, made by the testkit's generator, and what a correct conversion
 * of them must give: per list, the placemarks (name and coordinates, longitude first as KML has
 * them) and the places that get none. Coordinates are the generator's truth: what the URL carries
 * (`expected`), else where the fake Google puts the place (`resolvable`).
 */
import { placeNeed } from '@placeport/converter/internal';
import {
  generateTakeout,
  type FakeGoogle,
  type GeneratedList,
  type GeneratedPlace,
  type GeneratedTakeout,
} from '@placeport/testkit';

/** A file for `setInputFiles` / `FileChooser.setFiles`, without touching the disk. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A placemark as a reader sees it: name, then `[longitude, latitude]`. */
export interface ExpectedPlacemark {
  name: string;
  lngLat: [number, number];
}

/** Generated archive bytes as an upload named like Takeout's own. */
export function zipUpload(
  takeout: GeneratedTakeout,
  name = 'takeout-20260101T000000Z-001.zip',
): UploadFile {
  return uploadOf(name, takeout.zip, 'application/zip');
}

/** Any bytes under any name (the upload errors need files that are not good archives). */
export function uploadOf(name: string, bytes: Uint8Array | string, mimeType: string): UploadFile {
  return { name, mimeType, buffer: Buffer.from(bytes) };
}

/** The lists the product must offer: place lists, in archive order. */
export function placeLists(takeout: GeneratedTakeout): GeneratedList[] {
  return takeout.lists.filter((list) => list.isPlaceList);
}

/** Where a correct conversion puts this place, or null when it must be skipped. */
export function truthOf(place: GeneratedPlace): { lat: number; lng: number } | null {
  return place.expected ?? place.resolvable ?? null;
}

/** The name the KML must give: the title, trimmed, or "Dropped pin" (product.md "Outputs"). */
export function placemarkName(place: GeneratedPlace): string {
  return place.title.trim() || 'Dropped pin';
}

/**
 * Makes Google have no location for up to `count` of the places `takeout` looks up (the first
 * CIDs of places needing a lookup, in archive order, with every place sharing them): the fake
 * Google answers them with its generic page, and the generator's truth says they stay unplaced.
 * They are held (a lookup is made) but never converted nor charged, as a place Google no longer
 * knows. Returns how many places that is.
 */
export function withoutLocation(
  google: Pick<FakeGoogle, 'setPlace'>,
  takeout: GeneratedTakeout,
  count = Number.POSITIVE_INFINITY,
): number {
  const places = placeLists(takeout).flatMap((list) => list.places);
  const cids = new Set<string>();
  for (const place of places) {
    if (cids.size >= count) break;
    if (place.cid !== undefined && place.expected === undefined) cids.add(place.cid);
  }
  let affected = 0;
  for (const place of places) {
    if (place.cid === undefined || !cids.has(place.cid) || place.expected !== undefined) continue;
    delete place.resolvable;
    affected += 1;
  }
  for (const cid of cids) google.setPlace(cid, { generic: true });
  return affected;
}

/** The placemarks a list must convert to, in file order. */
export function expectedPlacemarks(list: GeneratedList): ExpectedPlacemark[] {
  return list.places.flatMap((place) => {
    const at = truthOf(place);
    return at ? [{ name: placemarkName(place), lngLat: [at.lng, at.lat] as [number, number] }] : [];
  });
}

/** The places that must end up in the list's failed-places CSV. */
export function failedPlaces(list: GeneratedList): GeneratedPlace[] {
  return list.places.filter((place) => truthOf(place) === null);
}

/**
 * Places and converted places over some lists; `noLocation`: those whose link is Takeout's "no
 * location" (a search for 0,0), which are not chargeable either.
 */
export function countsOf(lists: readonly GeneratedList[]): {
  total: number;
  chargeable: number;
  converted: number;
  noLocation: number;
} {
  let total = 0;
  let chargeable = 0;
  let converted = 0;
  let noLocation = 0;
  for (const list of lists) {
    total += list.places.length;
    chargeable += list.places.filter(hasUsableLink).length;
    converted += expectedPlacemarks(list).length;
    noLocation += list.places.filter(isNoLocation).length;
  }
  return { total, chargeable, converted, noLocation };
}

/** Whether the place's link is Takeout's "no location" (a search for 0,0): never looked up. */
function isNoLocation(place: GeneratedPlace): boolean {
  const need = placeNeed({ coordinates: undefined, url: place.url });
  return need.kind === 'unplaced' && need.reason === 'not_found';
}

/**
 * Whether a place can be placed at all (coordinates in its link, or a link the resolver accepts):
 * only those are in the maximum charge; a place without a usable link is never held nor charged.
 */
export function hasUsableLink(place: GeneratedPlace): boolean {
  return placeNeed({ coordinates: undefined, url: place.url }).kind !== 'unplaced';
}

/**
 * The failed-places CSV's columns for a list: the seed's (Title, Note, URL, Comment) then Reason,
 * with the list's Tags column kept in its place when the list had one (2025+ exports).
 */
export function failedCsvFields(list: GeneratedList): string[] {
  return list.header === 'tags'
    ? ['Title', 'Note', 'URL', 'Tags', 'Comment', 'Reason']
    : ['Title', 'Note', 'URL', 'Comment', 'Reason'];
}

/** A failed-places CSV's header line, with or without the Tags column (and a BOM). */
export const FAILED_CSV_HEADER = /^\uFEFF?Title,Note,URL,(?:Tags,)?Comment,Reason\r?\n/;

/** A list's name as a file name every system accepts: Windows' reserved characters become `_`. */
export function safeStem(listName: string): string {
  return listName.replace(/[<>:"/\\|?*]/g, '_');
}

/** `$12.70` for 127 places at $0.10; `$1,234.50` for 12,345 (the page writes thousands separators). */
export function dollarsFor(places: number): string {
  const [whole, cents] = ((places * 10) / 100).toFixed(2).split('.');
  return `$${whole!.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`;
}

/** {@link answeredThenNever}'s archive and what the server can find of it. */
export interface AnsweredThenNever {
  takeout: GeneratedTakeout;
  /** The first list: every place needs the server to look it up, and the fake Google has it. */
  answered: GeneratedList;
  /** The second list's one place: the test never lets its lookup be answered (`holdLookups`). */
  never: GeneratedPlace;
  /** Distinct places of the first list: what the server finds before the run stops. */
  found: number;
  /** Every place of both lists: what the payment holds. */
  places: number;
}

/**
 * Two lists: 8 places the server must look up and finds, then one whose lookup the test never lets
 * be answered (`holdLookups`, which sends the others of its request on to the API). A paid run over
 * both waits on that lookup with exactly the first list's places found by the server, for as long
 * as the test wants: what the server charges is fixed by the archive, not by timing.
 */
export function answeredThenNever(seed: number): AnsweredThenNever {
  const takeout = generateTakeout({
    seed,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Looked up', places: 8, kinds: { ftid: 1 } },
      { name: 'Never answered', places: 1, kinds: { ftid: 1 } },
    ],
  });
  const [answered, second] = placeLists(takeout);
  const never = second?.places[0];
  if (
    !answered ||
    !never?.ftid ||
    !never.cid ||
    !answered.places.every((place) => !place.expected && place.resolvable && place.ftid)
  ) {
    throw new Error(`seed ${seed}: the generator did not give two lists of places to look up`);
  }
  return {
    takeout,
    answered,
    never,
    found: new Set(answered.places.map((place) => place.ftid)).size,
    places: answered.places.length + second!.places.length,
  };
}
