/**
 * What the selection dialog says about each list, as pure functions of the worker's summaries:
 * where its places' coordinates come from, its folder, which names repeat, and the filter's match.
 */
import { formatCount, listDisplayName } from '../../lib/format';
import type { ListSummary } from '../../worker/types';

/** Above this many lists the dialog offers a filter box. */
export const FILTER_THRESHOLD = 8;

/**
 * Where a list's places get their coordinates: `3 with coordinates`, `37 need a lookup`, zero parts
 * left out; then those that cannot be placed: places Takeout gives no location for (a search for
 * 0,0; the results list them as "Google has no location for this place") and places with no usable
 * link (neither coordinates nor a Google Maps link). Empty for a list without places or one that
 * cannot be converted. The dialog shows them joined by ` · `, wrapping only between parts.
 */
export function placeSources(list: ListSummary): string[] {
  if (list.problem !== undefined || list.rowCount === 0) return [];
  const unusable = Math.max(
    0,
    list.rowCount - list.withCoordinates - list.needsLookup - list.withoutLocation,
  );
  return [
    list.withCoordinates > 0 ? `${formatCount(list.withCoordinates)} with coordinates` : null,
    list.needsLookup > 0
      ? `${formatCount(list.needsLookup)} ${list.needsLookup === 1 ? 'needs' : 'need'} a lookup`
      : null,
    list.withoutLocation > 0 ? `${formatCount(list.withoutLocation)} without a location` : null,
    unusable > 0 ? `${formatCount(unusable)} without a usable link` : null,
  ].filter((part) => part !== null);
}

/**
 * The folder holding a list inside the archive: its path without the file name (`''` at the top);
 * for a retry list, the folder of the archive's list its places come from (its own path is the
 * converter's, not a folder).
 */
export function folderOf(list: Pick<ListSummary, 'path' | 'origin'>): string {
  const path = list.origin?.of ?? list.path;
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The key lists are told apart by: their shown name, without regard to case. */
function nameKey(list: ListSummary): string {
  return listDisplayName(list.name).toLowerCase();
}

/**
 * The paths of lists whose name another list of the archive also has: those rows show their
 * folder, since the name alone cannot tell them apart.
 */
export function pathsWithRepeatedNames(lists: readonly ListSummary[]): Set<string> {
  const counts = new Map<string, number>();
  for (const list of lists) counts.set(nameKey(list), (counts.get(nameKey(list)) ?? 0) + 1);
  return new Set(
    lists.filter((list) => (counts.get(nameKey(list)) ?? 0) > 1).map((list) => list.path),
  );
}

/** Text folded for matching: lower case, accents removed (`Cafés` matches `cafe`). */
export function foldForMatch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** True when the filter text (trimmed, folded) is part of the list's shown name or its folder. */
export function matchesFilter(list: ListSummary, query: string): boolean {
  const needle = foldForMatch(query.trim());
  if (needle === '') return true;
  return (
    foldForMatch(listDisplayName(list.name)).includes(needle) ||
    foldForMatch(folderOf(list)).includes(needle)
  );
}
