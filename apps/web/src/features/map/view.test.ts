import { describe, expect, it } from 'vitest';
import type { ListPoints } from '../../worker/types';
import { ALL_LISTS, listOptions, mapLabel, selectPoints } from './view';

function list(path: string, listName: string, points: Array<[number, number, string]>): ListPoints {
  return {
    path,
    listName,
    coordinates: Float64Array.from(points.flatMap(([lng, lat]) => [lng, lat])),
    names: points.map(([, , name]) => name),
  };
}

const WANT = list('Takeout/Saved/Want to go.csv', 'Want to go', [
  [-9.14, 38.72, 'Café A'],
  [139.69, 35.68, 'Shrine B'],
]);
const LISBON = list('Takeout/Saved/Lisbon.csv', 'Lisbon', [[-9.13, 38.71, 'Tram 28']]);
const OTHER_WANT = list('Takeout/Old/Saved/Want to go.csv', 'Want to go', [[1, 2, 'X']]);

describe('map view', () => {
  it.each([
    [1, 'Lisbon', 'Map of 1 place in Lisbon'],
    [37, 'Want to go', 'Map of 37 places in Want to go'],
    [12_345, '4 lists', 'Map of 12,345 places in 4 lists'],
  ])('labels %i places in %s', (count, where, expected) => {
    expect(mapLabel(count, where)).toBe(expected);
  });

  it('offers All lists, then each list, telling same-named lists apart by folder', () => {
    expect(listOptions([WANT, LISBON, OTHER_WANT])).toEqual([
      { value: ALL_LISTS, label: 'All lists' },
      { value: WANT.path, label: 'Want to go (Takeout/Saved)' },
      { value: LISBON.path, label: 'Lisbon' },
      { value: OTHER_WANT.path, label: 'Want to go (Takeout/Old/Saved)' },
    ]);
  });

  it('joins every list for All lists, in list order', () => {
    const all = selectPoints({ lists: [WANT, LISBON] }, ALL_LISTS);
    expect(Array.from(all.coordinates)).toEqual([-9.14, 38.72, 139.69, 35.68, -9.13, 38.71]);
    expect(all.count).toBe(3);
    expect([0, 1, 2].map((index) => all.nameAt(index))).toEqual(['Café A', 'Shrine B', 'Tram 28']);
    expect(all.label).toBe('Map of 3 places in 2 lists');
  });

  it('gives one list as it is, and names it when it is the only one', () => {
    const one = selectPoints({ lists: [WANT, LISBON] }, LISBON.path);
    expect(one.coordinates).toBe(LISBON.coordinates);
    expect(one.label).toBe('Map of 1 place in Lisbon');
    expect(selectPoints({ lists: [WANT] }, ALL_LISTS).label).toBe('Map of 2 places in Want to go');
  });

  it('finds every name across many lists, empty ones included', () => {
    const lists = Array.from({ length: 9 }, (_, k) =>
      list(
        `L${k}.csv`,
        `L${k}`,
        Array.from({ length: k % 3 }, (_, i) => [k, i, `${k}.${i}`] as [number, number, string]),
      ),
    );
    const all = selectPoints({ lists }, ALL_LISTS);
    const expected = lists.flatMap((each) => each.names);
    expect(expected.map((_, index) => all.nameAt(index))).toEqual(expected);
  });

  it('falls back to every list for a list that is not there', () => {
    expect(selectPoints({ lists: [WANT, LISBON] }, 'nope').count).toBe(3);
  });
});
