/**
 * What the map shows for the list chosen in its selector: one list's points, or every list's, and
 * the words that stand for the picture (its text alternative and the selector's options).
 */
import { formatCount, formatPlaces } from '../../lib/format';
import type { ListPoints, MapPoints } from '../../worker/types';
import { folderOf } from '../selection/listFacts';

/** The selector's value for "All lists". */
export const ALL_LISTS = '';

/** The points drawn, their names in the same order, and the map's text alternative. */
export interface MapSelection {
  coordinates: Float64Array;
  count: number;
  /** The name of point `index` (its list's names are not copied for All lists). */
  nameAt(index: number): string;
  label: string;
}

/** One option of the list selector. */
export interface ListOption {
  value: string;
  label: string;
}

/** "Map of 37 places in Want to go"; "Map of 1 place in 2 lists". */
export function mapLabel(count: number, where: string): string {
  return `Map of ${formatPlaces(count)} in ${where}`;
}

/** "All lists" first, then each list by name (with its folder when another list has that name). */
export function listOptions(lists: readonly ListPoints[]): ListOption[] {
  const named = new Map<string, number>();
  for (const list of lists) named.set(list.name, (named.get(list.name) ?? 0) + 1);
  return [
    { value: ALL_LISTS, label: 'All lists' },
    ...lists.map((list) => ({
      value: list.path,
      label:
        (named.get(list.name) ?? 0) > 1 && folderOf(list)
          ? `${list.name} (${folderOf(list)})`
          : list.name,
    })),
  ];
}

/** The name of point `index` of lists laid end to end; `starts[k]` is list `k`'s first index. */
function namesAcross(lists: readonly ListPoints[], starts: readonly number[]) {
  return (index: number): string => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return lists[low]?.names[index - starts[low]!] ?? '';
  };
}

/**
 * The points of the chosen list, or of every list when `choice` is {@link ALL_LISTS} (or names a
 * list that is not there). Every list's points are joined in list order; names are looked up where
 * they are rather than copied, since 100,000 of them take a while to copy.
 */
export function selectPoints(data: MapPoints, choice: string): MapSelection {
  const { lists } = data;
  const chosen = lists.find((list) => list.path === choice);
  const only = chosen ?? (lists.length === 1 ? lists[0] : undefined);
  if (only) {
    return {
      coordinates: only.coordinates,
      count: only.names.length,
      nameAt: (index) => only.names[index] ?? '',
      label: mapLabel(only.names.length, only.name),
    };
  }
  const starts: number[] = [];
  let total = 0;
  for (const list of lists) {
    starts.push(total);
    total += list.names.length;
  }
  const coordinates = new Float64Array(total * 2);
  lists.forEach((list, index) => coordinates.set(list.coordinates, starts[index]! * 2));
  return {
    coordinates,
    count: total,
    nameAt: namesAcross(lists, starts),
    label: mapLabel(total, `${formatCount(lists.length)} lists`),
  };
}
