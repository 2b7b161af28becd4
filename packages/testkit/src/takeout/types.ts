import type { LatLng } from './coordinates.js';

/**
 * What a place's URL looks like, which decides what the converter can learn from it:
 * - `ftid`: `/maps/place/<name>/data=!4m2!3m1!1s0x..:0x..` — an id, no coordinates (about 98% of
 *   real rows).
 * - `search`: a dropped pin, `/maps/search/<lat>,<lng>` or `<lat>,+<lng>`, titled "Dropped pin" or
 *   empty.
 * - `pin`: `/maps/place/<name>/data=…!1s0x..:0x..!8m2!3d<lat>!4d<lng>…` — the place's pin.
 * - `centre`: `/maps/place/<name>/@<lat>,<lng>,17z/data=…!3d<lat>!4d<lng>` — map centre and pin
 *   differ by tens of metres; the pin is the answer.
 * - `ludocid`: `https://www.google.com/search?q=<name>&ludocid=<decimal cid>`.
 * - `cid`: `http://maps.google.com/?cid=<decimal>`.
 * - `q-address`: `https://maps.google.com/?q=<address>&ftid=0x..:0x..` — the address is text, not
 *   a coordinate pair, even where it holds numbers such as `Ermou 10,+105 63 Athens`.
 * - `zero`: `/maps/search/0,0`, Takeout's way of saying "no location".
 * - `no-link`: an empty URL cell.
 * - `web`: an ordinary web page or image URL, found only in the lists that are not places.
 */
export type PlaceKind =
  | 'pin'
  | 'search'
  | 'centre'
  | 'ftid'
  | 'cid'
  | 'ludocid'
  | 'q-address'
  | 'zero'
  | 'no-link'
  | 'web';

/** The kinds a place list can contain (every kind but `web`). */
export type PlaceListKind = Exclude<PlaceKind, 'web'>;

/**
 * Header row variants seen in real exports: `classic` `Title,Note,URL,Comment` (most), `tags`
 * `Title,Note,URL,Tags,Comment` (2025+, followed by a `,,,,` row), `2022` `Title,Note,URL`.
 */
export type HeaderVariant = 'classic' | 'tags' | '2022';

/** One data row of a generated list, with what a correct converter must make of it. */
export interface GeneratedPlace {
  /** The Title cell ("Dropped pin" or empty for dropped pins). */
  title: string;
  /** The Note cell; may span lines, hold quotes and commas, or characters XML 1.0 forbids. */
  note: string;
  /** The URL cell, empty for `no-link`. */
  url: string;
  /** The Comment cell; always empty in `2022` lists, which have no such column. */
  comment: string;
  kind: PlaceKind;
  /** Coordinates the converter must read offline from the URL, by product.md's precedence. */
  expected?: LatLng;
  /** Where a resolver would find the place online (`coordinatesForFtid`); set when it has an id. */
  resolvable?: LatLng;
  /** The map view centre written in a `centre` URL, which must not win over the pin. */
  centre?: LatLng;
  /** The feature id, when the URL carries one. */
  ftid?: string;
  /** The place's CID: written in the URL (`cid`, `ludocid`) or the low half of its ftid. */
  cid?: string;
}

/** One CSV entry of the archive, with the text written and the rows it holds. */
export interface GeneratedList {
  /** The ZIP entry path, e.g. `Takeout/Saved/Want to go.csv`; a list's identity. */
  path: string;
  /** The file name without its extension: what the product shows. */
  name: string;
  header: HeaderVariant;
  /** The free-text line written above the header, if any. */
  description?: string;
  bom: boolean;
  crlf: boolean;
  /** The data rows, in file order (blank and all-comma rows excluded). */
  places: GeneratedPlace[];
  /** False for the image and page lists Takeout puts beside the place lists. */
  isPlaceList: boolean;
  /** The whole file as text, BOM included as U+FEFF: `TextEncoder` turns it into `bytes`. */
  csv: string;
  /** The entry's bytes, as stored in the ZIP. */
  bytes: Uint8Array;
  /** Rows that carry no place: blank lines and all-comma rows (the `,,,,` after a tags header too). */
  emptyRows: number;
}

/** A generated archive and everything in it. */
export interface GeneratedTakeout {
  zip: Uint8Array;
  /** Every CSV entry, place lists first in the order asked for, then the non-place lists. */
  lists: GeneratedList[];
  /** Every entry name in ZIP order, directories (ending in `/`) included. */
  entries: string[];
  /** The starred places written as `Saved Places.json`, when {@link GenerateTakeoutOptions.savedPlacesJson} asked for them. */
  savedPlaces?: GeneratedSavedPlaces;
}

/**
 * The two layouts of Takeout's `Saved Places.json`: `old` (`Title`, `Google Maps URL`, `Location`
 * with `Business Name`, `Address`, `Geo Coordinates` as strings, `Published`, `Updated`) and `new`
 * (`date`, `google_maps_url`, `location` with `name` and `address`, `Comment`).
 */
export type SavedPlacesJsonFormat = 'old' | 'new';

/**
 * The URL written for a starred place: `cid` `http://maps.google.com/?cid=<cid>`, `ftid`
 * `http://maps.google.com/?q=<address>&ftid=<ftid>`, `latlng` `http://maps.google.com/?q=<lat>,<lng>`.
 */
export type SavedPlaceUrlKind = 'cid' | 'ftid' | 'latlng';

/** One starred place to write into `Saved Places.json`; every field may be left out. */
export interface SavedPlacesJsonPlace {
  title?: string;
  address?: string;
  /** Where the place is; both or neither. Written as the geometry unless `zero`. */
  lat?: number;
  lng?: number;
  /** Decimal CID, for `cid` URLs. */
  cid?: string;
  /** `0x<hex>:0x<hex>`, for `ftid` URLs. */
  ftid?: string;
  /** The `Comment` property (new format only). */
  comment?: string;
  /** Write the geometry as `[0, 0]` (Takeout's "no location"), and no `Geo Coordinates`. */
  zero?: boolean;
  /** Default: `cid` when there is a CID, else `ftid` when there is an ftid, else `latlng` when there are coordinates, else no URL. */
  urlKind?: SavedPlaceUrlKind;
}

/** A generated starred place, with what a correct converter must make of it. */
export interface GeneratedSavedPlace extends SavedPlacesJsonPlace {
  /** The Maps URL written, empty when none. */
  url: string;
  /** Coordinates the converter must read offline: the geometry, or the `?q=<lat>,<lng>` of a `[0, 0]` place. */
  expected?: LatLng;
  /** Where a resolver would find the place by its CID or ftid (`coordinatesForCid`). */
  resolvable?: LatLng;
}

/** A generated `Saved Places.json` and the places it holds, in file order. */
export interface GeneratedSavedPlaces {
  format: SavedPlacesJsonFormat;
  /** The whole file as text. */
  text: string;
  places: GeneratedSavedPlace[];
}

/** One list to generate. Fields left out are drawn from the seed (or default as documented). */
export interface ListSpec {
  /** The file name without extension; any script, no `/`. */
  name: string;
  /** How many data rows (places), an integer ≥ 0. */
  places: number;
  /** The folder holding the file; default `Takeout/Saved`. */
  folder?: string;
  /** The file extension, default `.csv` (try `.CSV`: the product strips it in any case). */
  extension?: string;
  header?: HeaderVariant;
  /** A description line above the header, or `false` for none. */
  description?: string | false;
  bom?: boolean;
  crlf?: boolean;
  /** Relative weights of URL kinds, replacing the default mix. */
  kinds?: Partial<Record<PlaceListKind, number>>;
}

/** Options of {@link generateTakeout}. */
export interface GenerateTakeoutOptions {
  /** Any safe integer; the same seed (and options) gives the same bytes. */
  seed: number;
  /** The place lists; default {@link DEFAULT_LISTS}. */
  lists?: ListSpec[];
  /** Every place carries coordinates in its URL (`pin`, `search`, `centre` only): for benchmarks. */
  coordinatesInUrls?: boolean;
  /**
   * Guarantee every URL kind and every text quirk at least once per list (as far as its size
   * allows), a blank and an all-comma row, and one place shared with the first list. Default true.
   */
  quirks?: boolean;
  /** Add the image/page lists and `archive_browser.html`. Default true. */
  includeNonPlaceLists?: boolean;
  /**
   * Write `generateSavedPlacesJson`'s starred places (this seed) as
   * `Takeout/Maps (your places)/Saved Places.json`. Default: not written (so archives stay as
   * they were).
   */
  savedPlacesJson?: { format: SavedPlacesJsonFormat; places: number };
  /** More entries, added last; one with a generated entry's path replaces it. */
  extraEntries?: Record<string, Uint8Array>;
}
