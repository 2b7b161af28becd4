import type { OutputPart } from './formats/output.js';
import type { UnplacedReason } from './reasons.js';

/** A point on Earth with named fields, so latitude and longitude can never be swapped silently. */
export interface LatLng {
  readonly lat: number;
  readonly lng: number;
}

/** What a list file holds: a saved list (CSV) or the starred places (`Saved Places.json`). */
export type ListKind = 'csv' | 'starred';

/**
 * One list found in a Takeout archive, as inspection describes it and the page shows it (no text
 * or places, so it is cheap to send across the worker boundary). Its identity is its path: names
 * repeat across folders.
 */
export interface ListSummary {
  /** Path inside the archive, e.g. `Takeout/Saved/Want to go.csv`. */
  path: string;
  /** File name without folders or the `.csv`/`.json` extension (any case). */
  name: string;
  /** A saved list (CSV) or the starred places (`Saved Places.json`). */
  kind: ListKind;
  /**
   * The name its files are written under: `name`, told apart by folder from same-named lists of the
   * archive (`listOutputNames`), so it does not change with the lists chosen.
   */
  outputName: string;
  /** Places: data rows with a Title or a URL (the header, a list description, blank rows and the tag row of 2025+ exports excluded); features of `Saved Places.json`. What the price is computed from. */
  rowCount: number;
  /** Places whose coordinates are known without a lookup (in the file, or in the link). */
  withCoordinates: number;
  /** Places whose Google Maps link carries no coordinates: they need a lookup. */
  needsLookup: number;
  /**
   * Places Takeout gives no location for (their link is a search for 0,0): nothing is looked up
   * for them, nor charged, and a run lists them as `not_found`. The rest of `rowCount` (no link,
   * or a link that is no Google Maps link) cannot be placed either.
   */
  withoutLocation: number;
  /** Why the list cannot be converted (the seed's validation message); absent when it can. */
  problem?: string;
  /** Uncompressed size in bytes (0 for a retry list, which is no file of the archive). */
  size: number;
  /** Where the list comes from when it is not one of the archive's own (absent: it is). */
  origin?: ListOrigin;
}

/**
 * A list that is not one of the archive's own: "Retry failed places" makes one per converted list
 * with places worth another lookup. `of` is the path of the archive's list its places come from
 * (also for a retry of a retry).
 */
export interface ListOrigin {
  kind: 'retry';
  of: string;
}

/** One place of a saved-places CSV, after validation (a row with neither Title nor URL is not one). */
export interface ParsedPlace {
  title: string;
  url: string;
  note?: string;
  comment?: string;
  /** The Tags cell of 2025+ exports, split on `;`, trimmed, empty names dropped; absent when none. */
  tags?: string[];
  coordinates?: LatLng;
  /** Why the place has no coordinates (set by the pipeline for every place left without). */
  reason?: UnplacedReason;
}

/** The seed's conversion statistics. */
export interface ConversionStats {
  totalPlaces: number;
  /** Places with coordinates, in the list's files. */
  converted: number;
  skipped: number;
  /** Places left without coordinates, counted by reason (absent reasons are zero). */
  unplaced: Partial<Record<UnplacedReason, number>>;
}

/**
 * What names a list from inspection to download, the same in every type on the way
 * ({@link ListSummary} → {@link ConversionResult} → the worker's `ListOutcome` → the page's result):
 * its path (the identity), its name, the name its files are written under, and its origin.
 */
export type ListIdentity = Pick<ListSummary, 'path' | 'name' | 'outputName' | 'origin'>;

/** The seed's per-file conversion result, with the KML split into parts per product.md. */
export interface ConversionResult extends ListIdentity {
  /** The list's file name as in the archive, e.g. `Want to go.csv`. */
  fileName: string;
  /** The list description found before the header row, if any. */
  description?: string;
  stats: ConversionStats;
  /** Every place of the list, with its coordinates or the reason it has none. */
  places: ParsedPlace[];
  /**
   * The list's files in each format asked for (KML by default), grouped by format; a list over the
   * per-layer limit is split into even parts. Empty when the list was skipped or no place has coordinates.
   */
  files: OutputPart[];
  /** CSV of places lacking coordinates (Title, Note, URL, Comment, Reason; Tags too when the list had them); absent when every place converted. */
  failedCsvContent?: string;
  /** File name for the failed-places CSV. */
  failedCsvFileName?: string;
  /** Set when validation failed and the list was skipped. */
  skippedReason?: string;
  /**
   * The list was read and holds no place (Takeout writes lists such as "Test" or "Work" with only
   * their header, or the 2025+ tag row): nothing to convert, and not an error.
   */
  empty?: true;
  /** Places whose coordinates came from the resolution service. */
  resolvedCount?: number;
}

/** A stable error: `code` for programs, `message` for people (the seed's exact texts). */
export interface ConverterErrorShape {
  code: string;
  message: string;
}

/** Results cross the worker boundary as data, because Comlink drops custom error fields. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ConverterErrorShape };
