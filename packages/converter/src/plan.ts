/**
 * Planning a run before anything is sent: each list read once, each place's need (coordinates
 * already, a lookup, or none possible), and the run's distinct lookups with the request size that
 * suits their number, so the page can say "Looking up 212 of 588 places" for the whole run.
 */
import { ConverterError } from './core/errors.js';
import type { ParsedCsv } from './core/csv.js';
import { placeNeed, type PlaceNeed } from './core/link-need.js';
import { fileNameFromPath } from './core/names.js';
import type { ListOrigin } from './core/types.js';
import type { LookupEntry } from './run-lookups.js';

/** Most links sent to the API per request (the API accepts at most 1,000). */
export const RESOLVE_CHUNK_SIZE = 500;
/** Fewest links per request: smaller runs use smaller requests, so their progress moves often. */
export const RESOLVE_MIN_CHUNK_SIZE = 100;
/** A run makes about this many requests at most (the API allows 300 a minute per client). */
export const RESOLVE_REQUESTS_PER_RUN = 200;

/**
 * Links per request for a run needing `lookups` lookups: about {@link RESOLVE_REQUESTS_PER_RUN}
 * requests, each of {@link RESOLVE_MIN_CHUNK_SIZE} to {@link RESOLVE_CHUNK_SIZE} links, so a
 * 10,000-place run reports progress 100 times and a 100,000-place one stays within the API's limits.
 */
export function resolveChunkSizeFor(lookups: number): number {
  return Math.min(
    RESOLVE_CHUNK_SIZE,
    Math.max(RESOLVE_MIN_CHUNK_SIZE, Math.ceil(lookups / RESOLVE_REQUESTS_PER_RUN)),
  );
}

/** A list ready to convert, as inspection read it (an `InspectedList` is one). */
export interface ListInput {
  path: string;
  /** The list's name when it is not its file name (a retry list: "Want to go (failed places)"). */
  name?: string;
  /** Where the list comes from when it is not one of the archive's own (a retry list). */
  origin?: ListOrigin;
  /** Its places as read when the archive was inspected, or why they cannot be: parsed once. */
  parsed: ParsedCsv | ConverterError;
  /** The name its files are written under (`listOutputNames` over the whole archive). */
  outputName: string;
}

/** One list of a run, planned. */
export interface ListPlan {
  /** The list's file name as in the archive, e.g. `Want to go.csv`. */
  fileName: string;
  /** The name its files are written under. */
  outputName: string;
  parsed: ParsedCsv | ConverterError;
  /**
   * Per place, in order: its coordinates, the lookup it needs, or why it cannot have one; none for
   * a place given its coordinates at inspection.
   */
  needs: readonly (PlaceNeed | undefined)[];
}

/** A run, planned: its lists, and its lookups. */
export interface RunPlan {
  lists: ListPlan[];
  /** Each distinct place needing a lookup once, under the link it first appears with, in list order. */
  lookups: LookupEntry[];
  /** A place's title by its link, so progress names places (a person reads names, not links). */
  titles: Map<string, string>;
}

/** Reads every list of a run and what each of its places needs; sends nothing. */
export function planRun(lists: readonly ListInput[]): RunPlan {
  const entries = new Map<string, string>();
  const titles = new Map<string, string>();
  const planned = lists.map((list): ListPlan => {
    const { parsed } = list;
    const places = parsed instanceof ConverterError ? [] : parsed.places;
    const needs = parsed instanceof ConverterError ? [] : (parsed.needs ?? places.map(placeNeed));
    for (let i = 0; i < needs.length; i += 1) {
      const need = needs[i];
      if (need?.kind !== 'lookup' || entries.has(need.key)) continue;
      const place = places[i]!;
      entries.set(need.key, place.url);
      if (place.title.trim()) titles.set(place.url, place.title.trim());
    }
    return {
      fileName: fileNameFromPath(list.path),
      outputName: list.outputName,
      parsed,
      needs,
    };
  });
  return { lists: planned, lookups: [...entries], titles };
}
