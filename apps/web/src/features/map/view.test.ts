import { describe, expect, it } from 'vitest';
import { listPoints, WANT_TO_GO } from '../../test/map-points';
import { ALL_LISTS, listOptions, mapLabel, selectPoints } from './view';

const LISBON = listPoints('Takeout/Saved/Lisbon.csv', 'Lisbon', [[-9.13, 38.71, 'Tram 28']]);
const OTHER_WANT = listPoints('Takeout/Old/Saved/Want to go.csv', 'Want to go', [[1, 2, 'X']]);

describe('map view', () => {
  it.each([
    [1, 'Lisbon', 'Map of 1 place in Lisbon'],
    [37, 'Want to go', 'Map of 37 places in Want to go'],
    [12_345, '4 lists', 'Map of 12,345 places in 4 lists'],
  ])('labels %i places in %s', (count, where, expected) => {
    expect(mapLabel(count, where)).toBe(expected);
  });

  it('offers All lists, then each list, telling same-named lists apart by folder', () => {
    expect(listOptions([WANT_TO_GO, LISBON, OTHER_WANT])).toEqual([
      { value: ALL_LISTS, label: 'All lists' },
      { value: WANT_TO_GO.path, label: 'Want to go (Takeout/Saved)' },
      { value: LISBON.path, label: 'Lisbon' },
      { value: OTHER_WANT.path, label: 'Want to go (Takeout/Old/Saved)' },
    ]);
  });

  it("names a retry list's folder as the archive's, not the retry list's own path", () => {
    const retried = (list: typeof WANT_TO_GO) => ({
      ...list,
      path: `retry:${list.path}`,
      origin: { kind: 'retry' as const, of: list.path },
    });
    expect(listOptions([retried(WANT_TO_GO), retried(OTHER_WANT)]).map((o) => o.label)).toEqual([
      'All lists',
      'Want to go (Takeout/Saved)',
      'Want to go (Takeout/Old/Saved)',
    ]);
  });

  it('joins every list for All lists, in list order', () => {
    const all = selectPoints({ lists: [WANT_TO_GO, LISBON] }, ALL_LISTS);
    expect(Array.from(all.coordinates)).toEqual([-9.14, 38.72, 139.69, 35.68, -9.13, 38.71]);
    expect(all.count).toBe(3);
    expect([0, 1, 2].map((index) => all.nameAt(index))).toEqual(['Café A', 'Shrine B', 'Tram 28']);
    expect(all.label).toBe('Map of 3 places in 2 lists');
  });

  it('gives one list as it is, and names it when it is the only one', () => {
    const one = selectPoints({ lists: [WANT_TO_GO, LISBON] }, LISBON.path);
    expect(one.coordinates).toBe(LISBON.coordinates);
    expect(one.label).toBe('Map of 1 place in Lisbon');
    expect(selectPoints({ lists: [WANT_TO_GO] }, ALL_LISTS).label).toBe(
      'Map of 2 places in Want to go',
    );
  });

  it('finds every name across many lists, empty ones included', () => {
    const lists = Array.from({ length: 9 }, (_, k) =>
      listPoints(
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
    expect(selectPoints({ lists: [WANT_TO_GO, LISBON] }, 'nope').count).toBe(3);
  });
});
