import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZipDirectory } from '../../test/zip-directory.js';
import {
  ARCHIVE_BROWSER_PATH,
  DEFAULT_LISTS,
  generateTakeout,
  NON_PLACE_LIST_NAMES,
  SAVED_PLACES_JSON_PATH,
} from '../index.js';

describe('generateTakeout: determinism', () => {
  it('gives identical bytes for the same seed and different bytes for another', () => {
    const a = generateTakeout({ seed: 1 });
    const b = generateTakeout({ seed: 1 });
    const c = generateTakeout({ seed: 2 });
    expect(Buffer.from(a.zip).equals(Buffer.from(b.zip))).toBe(true);
    expect(Buffer.from(a.zip).equals(Buffer.from(c.zip))).toBe(false);
    expect(a.lists.map((l) => l.csv)).toEqual(b.lists.map((l) => l.csv));
  });

  it('stamps a fixed time that does not depend on the clock or time zone', () => {
    const dosDate = ((2024 - 1980) << 9) | (5 << 5) | 1;
    const dosTime = 12 << 11;
    for (const entry of readZipDirectory(generateTakeout({ seed: 3 }).zip)) {
      expect({ date: entry.dosDate, time: entry.dosTime }).toEqual({
        date: dosDate,
        time: dosTime,
      });
    }
  });

  it('keeps each list independent of the lists after it', () => {
    const one = generateTakeout({ seed: 5, lists: [{ name: 'A', places: 30 }] });
    const two = generateTakeout({
      seed: 5,
      lists: [
        { name: 'A', places: 30 },
        { name: 'B', places: 30 },
      ],
    });
    expect(two.lists[0]?.csv).toBe(one.lists[0]?.csv);
  });
});

describe('generateTakeout: entries', () => {
  it('unzips to exactly the listed entries, directories first, with the lists bytes', () => {
    const takeout = generateTakeout({ seed: 7 });
    const files = unzipSync(takeout.zip);
    expect(Object.keys(files)).toEqual(takeout.entries);
    expect(takeout.entries.slice(0, 2)).toEqual(['Takeout/', 'Takeout/archive_browser.html']);
    expect(takeout.entries).toContain('Takeout/Saved/');
    expect(takeout.entries).not.toContain('Takeout/Maps (your places)/');
    for (const list of takeout.lists) expect(files[list.path]).toEqual(list.bytes);
    for (const list of takeout.lists) {
      expect(new TextEncoder().encode(list.csv)).toEqual(list.bytes);
    }
    const directories = readZipDirectory(takeout.zip).filter((e) => e.name.endsWith('/'));
    expect(
      directories.map((e) => [e.uncompressedSize, e.method, e.externalAttributes & 0x10]),
    ).toEqual(directories.map(() => [0, 0, 0x10]));
  });

  it('names the default lists as Takeout does, in any script', () => {
    const takeout = generateTakeout({ seed: 7 });
    const placeLists = takeout.lists.filter((l) => l.isPlaceList);
    expect(placeLists.map((l) => l.path)).toEqual([
      'Takeout/Saved/Want to go.csv',
      'Takeout/Saved/Favourite places.csv',
      'Takeout/Saved/Starred places.csv',
      'Takeout/Saved/東京 🍜.csv',
      'Takeout/Saved/Café & "Bars".csv',
    ]);
    expect(placeLists.map((l) => l.places.length)).toEqual(DEFAULT_LISTS.map((l) => l.places));
  });

  it('adds the non-place lists with web URLs and the HTML index, and no starred places unless asked', () => {
    const takeout = generateTakeout({ seed: 8 });
    const others = takeout.lists.filter((l) => !l.isPlaceList);
    expect(others.map((l) => l.name)).toEqual([...NON_PLACE_LIST_NAMES]);
    for (const list of others) {
      expect(list.places.length).toBeGreaterThan(0);
      for (const row of list.places) {
        expect(row.kind).toBe('web');
        expect(row.url).toMatch(/^https:\/\//);
        expect(row.url).not.toMatch(/google\.com\/maps|maps\.google/);
      }
    }
    const files = unzipSync(takeout.zip);
    expect(new TextDecoder().decode(files[ARCHIVE_BROWSER_PATH])).toContain('<!DOCTYPE html>');
    // Starred places are a place list now: written only when asked (`savedPlacesJson`).
    expect(files[SAVED_PLACES_JSON_PATH]).toBeUndefined();
    expect(takeout.savedPlaces).toBeUndefined();
  });

  it('leaves the non-place files out on request', () => {
    const takeout = generateTakeout({ seed: 8, includeNonPlaceLists: false });
    expect(takeout.entries).toEqual([
      'Takeout/',
      'Takeout/Saved/',
      ...takeout.lists.map((l) => l.path),
    ]);
    expect(takeout.lists.every((l) => l.isPlaceList)).toBe(true);
  });

  it('adds extra entries last and lets one replace a generated list', () => {
    const replaced = 'Takeout/Saved/Want to go.csv';
    const takeout = generateTakeout({
      seed: 9,
      extraEntries: {
        'Takeout/Saved/notes.txt': new Uint8Array([104, 105]),
        [replaced]: new Uint8Array([1, 2, 3]),
        'Other/': new Uint8Array(0),
      },
    });
    const files = unzipSync(takeout.zip);
    expect(files['Takeout/Saved/notes.txt']).toEqual(new Uint8Array([104, 105]));
    expect(files[replaced]).toEqual(new Uint8Array([1, 2, 3]));
    expect(takeout.entries).toContain('Other/');
    expect(takeout.lists.map((l) => l.path)).not.toContain(replaced);
  });

  it('honours folder and extension, and writes an empty list as its header alone', () => {
    const takeout = generateTakeout({
      seed: 1,
      includeNonPlaceLists: false,
      lists: [
        {
          name: 'Empty',
          places: 0,
          header: 'classic',
          description: false,
          bom: false,
          crlf: false,
        },
        { name: 'Want to go', places: 3, folder: 'Takeout 2/Saved', extension: '.CSV' },
      ],
    });
    expect(takeout.lists[0]?.csv).toBe('Title,Note,URL,Comment\n');
    expect(takeout.lists[0]?.emptyRows).toBe(0);
    expect(takeout.lists[1]?.path).toBe('Takeout 2/Saved/Want to go.CSV');
    expect(takeout.entries).toContain('Takeout 2/');
  });
});

describe('generateTakeout: refuses bad options', () => {
  it.each([
    ['a name with a slash', { name: 'a/b', places: 1 }],
    ['an empty name', { name: '', places: 1 }],
    ['a negative count', { name: 'A', places: -1 }],
    ['a fractional count', { name: 'A', places: 1.5 }],
  ])('%s', (_, spec) => {
    expect(() => generateTakeout({ seed: 1, lists: [spec] })).toThrow(RangeError);
  });

  it('two lists with one path, and a bad seed', () => {
    const list = { name: 'A', places: 1 };
    expect(() => generateTakeout({ seed: 1, lists: [list, list] })).toThrow(/share the path/);
    expect(() => generateTakeout({ seed: 0.5 })).toThrow(RangeError);
  });
});
