import { describe, expect, it } from 'vitest';
import { listSummary, MANY_LISTS, TRUTH_LISTS } from '../../test/fixtures';
import {
  folderOf,
  foldForMatch,
  matchesFilter,
  pathsWithRepeatedNames,
  placeSources,
} from './listFacts';

const base = { path: 'Takeout/Saved/A.csv', name: 'A', rowCount: 1, size: 10 };

describe('placeSources', () => {
  it.each([
    [
      { rowCount: 40, withCoordinates: 3, needsLookup: 37 },
      ['3 with coordinates', '37 need a lookup'],
    ],
    [
      { rowCount: 2, withCoordinates: 1, needsLookup: 1 },
      ['1 with coordinates', '1 needs a lookup'],
    ],
    [{ rowCount: 12, withCoordinates: 12, needsLookup: 0 }, ['12 with coordinates']],
    [{ rowCount: 5, withCoordinates: 0, needsLookup: 5 }, ['5 need a lookup']],
    [{ rowCount: 1, withCoordinates: 0, needsLookup: 1 }, ['1 needs a lookup']],
    [
      { rowCount: 4, withCoordinates: 1, needsLookup: 1 },
      ['1 with coordinates', '1 needs a lookup', '2 without a usable link'],
    ],
    [{ rowCount: 3, withCoordinates: 0, needsLookup: 0 }, ['3 without a usable link']],
    // Takeout's 0,0 links are named as the results name them, apart from unusable links.
    [
      { rowCount: 6, withCoordinates: 1, needsLookup: 1, withoutLocation: 3 },
      ['1 with coordinates', '1 needs a lookup', '3 without a location', '1 without a usable link'],
    ],
    [
      { rowCount: 2, withCoordinates: 0, needsLookup: 0, withoutLocation: 2 },
      ['2 without a location'],
    ],
    [
      { rowCount: 2500, withCoordinates: 1200, needsLookup: 1300 },
      ['1,200 with coordinates', '1,300 need a lookup'],
    ],
  ])('%o reads %o', (counts, expected) => {
    expect(placeSources(listSummary({ ...base, ...counts }))).toEqual(expected);
  });

  it('says nothing for an empty list or one that cannot be converted', () => {
    expect(placeSources(listSummary({ ...base, rowCount: 0 }))).toEqual([]);
    expect(placeSources(TRUTH_LISTS.find((list) => list.problem !== undefined)!)).toEqual([]);
  });
});

describe('folderOf', () => {
  it('is the path without the file name', () => {
    expect(folderOf({ path: 'Takeout 2/Saved/Want to go.csv' })).toBe('Takeout 2/Saved');
    expect(folderOf({ path: 'Want to go.csv' })).toBe('');
  });

  it("is, for a retry list, the folder of the archive's list its places come from", () => {
    const of = 'Takeout 2/Saved/Want to go.csv';
    expect(folderOf({ path: `retry:${of}`, origin: { kind: 'retry', of } })).toBe(
      'Takeout 2/Saved',
    );
  });
});

describe('pathsWithRepeatedNames', () => {
  it('finds lists sharing a name, whatever its case or .csv ending, and only those', () => {
    const lists = [
      listSummary({ ...base, path: 'Takeout/Saved/Food.csv', name: 'Food' }),
      listSummary({ ...base, path: 'Takeout 2/Saved/food.CSV', name: 'food.CSV' }),
      listSummary({ ...base, path: 'Takeout/Saved/Bars.csv', name: 'Bars' }),
    ];
    expect([...pathsWithRepeatedNames(lists)]).toEqual([
      'Takeout/Saved/Food.csv',
      'Takeout 2/Saved/food.CSV',
    ]);
    expect([...pathsWithRepeatedNames(MANY_LISTS)]).toEqual([
      'Takeout/Saved/Want to go.csv',
      'Takeout 2/Saved/Want to go.csv',
    ]);
  });
});

describe('matchesFilter', () => {
  const names = (query: string) =>
    MANY_LISTS.filter((list) => matchesFilter(list, query)).map((list) => list.name);

  it('matches the name without regard to case or accents', () => {
    expect(names('CAFE')).toEqual(['Cafés à Paris', 'Café crawl']);
    expect(names('zur')).toEqual(['Zürich']);
    expect(names('à paris')).toEqual(['Cafés à Paris']);
  });

  it('matches the folder', () => {
    expect(names('takeout 2')).toEqual(['Want to go']);
  });

  it('keeps every list for blank text, and none when nothing matches', () => {
    expect(names('  ')).toHaveLength(MANY_LISTS.length);
    expect(names('nowhere')).toEqual([]);
  });

  it('folds accents away and lowers case', () => {
    expect(foldForMatch('Ça Ĝoes Ñicely')).toBe('ca goes nicely');
  });
});
