import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseSavedPlacesCsv } from './core/csv.js';
import { ConverterError, tooManyPlacesMessage } from './core/errors.js';
import { LIMITS, MAX_PLACES, PlaceCounter } from './core/limits.js';
import { parseSavedPlacesJson } from './core/saved-places-json.js';
import { readArchive } from './inspect.js';
import { convertArchive, inspectArchive } from './library.js';
import { createConverterWorkerApi } from './worker/api.js';

const PIN = 'https://www.google.com/maps/search/38.7,-9.1';
/** A saved list of `places` places (dropped pins), after a 2025 header and its tag row. */
const list = (places: number) =>
  `Title,Note,URL,Tags,Comment\n,,,🍜 Food,\n${Array.from({ length: places }, (_, i) => `P${i},,${PIN},,`).join('\n')}\n`;
const starred = (places: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: places }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-9.1, 38.7] },
      properties: { Title: `S${i}` },
    })),
  });
const archive = (entries: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(entries).map(([path, text]) => [path, strToU8(text)])));

function refusal(run: () => unknown): ConverterError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConverterError) return error;
    throw error;
  }
  throw new Error('expected a ConverterError');
}

describe('the place cap (places per archive)', () => {
  it('counts places as the CSV is read: at the cap it parses, one past it is refused', () => {
    expect(parseSavedPlacesCsv(list(3), new PlaceCounter(3)).places).toHaveLength(3);
    const past = refusal(() => parseSavedPlacesCsv(list(4), new PlaceCounter(3)));
    expect(past.code).toBe('too-many-places');
    expect(past.message).toBe(tooManyPlacesMessage(3));
    // Rows that are not places (the tag row, blank rows) do not count.
    expect(
      parseSavedPlacesCsv(`${list(3)}\n,,,,\n , ,,,\n`, new PlaceCounter(3)).places,
    ).toHaveLength(3);
  });

  it('stops reading at the first place past the cap, never reaching the rest of the file', () => {
    // The rest of the file is broken: a parser that read it all would report that instead.
    const text = `${list(5)}"never closed,,${PIN},,\n${'x,,,,\n'.repeat(1000)}`;
    expect(refusal(() => parseSavedPlacesCsv(text)).code).toBe('csv-parse');
    expect(refusal(() => parseSavedPlacesCsv(text, new PlaceCounter(3))).code).toBe(
      'too-many-places',
    );
  });

  it('counts starred places by their features', () => {
    expect(parseSavedPlacesJson(starred(2), new PlaceCounter(2)).places).toHaveLength(2);
    expect(refusal(() => parseSavedPlacesJson(starred(3), new PlaceCounter(2))).code).toBe(
      'too-many-places',
    );
  });

  it('holds the lists of one archive together to the cap: saved lists, starred places and unreadable lists', () => {
    const limits = { ...LIMITS, maxPlaces: 6 };
    const atCap = archive({
      'Takeout/Saved/A.csv': list(2),
      'Takeout/Saved/B.csv': list(2),
      'Takeout/Maps (your places)/Saved Places.json': starred(2),
    });
    expect(readArchive(atCap, { limits }).map((l) => l.rowCount)).toEqual([2, 2, 2]);
    const pastCap = archive({
      'Takeout/Saved/A.csv': list(2),
      'Takeout/Saved/B.csv': list(2),
      'Takeout/Maps (your places)/Saved Places.json': starred(3),
    });
    expect(refusal(() => readArchive(pastCap, { limits }))).toMatchObject({
      code: 'too-many-places',
      message: tooManyPlacesMessage(6),
    });
    // An unreadable list's rows are shown as its places, so they count too.
    const unreadable = archive({
      'Takeout/Saved/A.csv': list(4),
      'Takeout/Saved/Broken.csv': `Name,Where\n${'a,b\n'.repeat(3)}`,
    });
    expect(refusal(() => readArchive(unreadable, { limits })).code).toBe('too-many-places');
  });

  it('counts only the lists picked before reading, so some lists of an archive past the cap convert, named as in a whole run', async () => {
    const limits = { maxPlaces: 7 };
    const bytes = archive({
      'Takeout/Saved/Food.csv': list(4),
      'Takeout 2/Saved/Food.csv': list(4),
      'Takeout/Saved/Walks.csv': list(3),
    });
    expect(refusal(() => inspectArchive(bytes, { limits })).code).toBe('too-many-places');
    // The picker sees every list, none unpacked yet.
    let seen: unknown;
    const picked = inspectArchive(bytes, {
      limits,
      pick: (lists) => {
        seen = lists;
        return ['Takeout 2/Saved/Food.csv', 'Takeout/Saved/Walks.csv'];
      },
    }).lists;
    expect(seen).toEqual([
      { path: 'Takeout/Saved/Food.csv', name: 'Food', kind: 'csv' },
      { path: 'Takeout 2/Saved/Food.csv', name: 'Food', kind: 'csv' },
      { path: 'Takeout/Saved/Walks.csv', name: 'Walks', kind: 'csv' },
    ]);
    // The second Food keeps the name it has beside the first, though the first is not read.
    expect(picked.map((l) => [l.path, l.outputName, l.rowCount])).toEqual([
      ['Takeout 2/Saved/Food.csv', 'Food (Takeout 2)', 4],
      ['Takeout/Saved/Walks.csv', 'Walks', 3],
    ]);
    expect(
      inspectArchive(bytes, { limits: { maxPlaces: 11 } }).lists.map((l) => l.outputName),
    ).toEqual(['Food', 'Food (Takeout 2)', 'Walks']);
    // Picked past the cap is still refused.
    expect(
      refusal(() => inspectArchive(bytes, { limits, pick: (lists) => lists.map((l) => l.path) }))
        .code,
    ).toBe('too-many-places');

    // convertArchive's `lists`, from the bytes: the same, by name or path.
    const run = await convertArchive(bytes, { limits, lists: ['Walks'] });
    expect(run.lists.map((l) => [l.outputName, l.stats.totalPlaces])).toEqual([['Walks', 3]]);
    await expect(convertArchive(bytes, { limits, lists: ['Food'] })).rejects.toMatchObject({
      code: 'ambiguous-list',
    });
    await expect(convertArchive(bytes, { limits, lists: ['Nope'] })).rejects.toMatchObject({
      code: 'unknown-list',
      message: 'No list named "Nope" in this archive. Lists: Food, Food, Walks',
    });
  });

  it('picks a list by its name or path whatever their Unicode form (a name typed is NFC, a ZIP made on a Mac may be NFD)', async () => {
    const nfd = 'Takeout/Saved/A\u0300 visiter.csv';
    const bytes = archive({ [nfd]: list(2), 'Takeout/Saved/Favoris.csv': list(1) });
    for (const wanted of ['\u00c0 visiter', 'Takeout/Saved/\u00c0 visiter.csv']) {
      const run = await convertArchive(bytes, { lists: [wanted] });
      expect(
        run.lists.map((l) => l.path),
        wanted,
      ).toEqual([nfd]);
    }
  });

  it('reaches the page through the worker as an error with the cap in its message', async () => {
    const api = createConverterWorkerApi({
      logger: { warn: () => {} },
      limits: { ...LIMITS, maxPlaces: 3 },
    });
    const bytes = archive({ 'Takeout/Saved/A.csv': list(4) });
    expect(await api.inspect(new Blob([bytes]), 'takeout.zip')).toEqual({
      ok: false,
      error: { code: 'too-many-places', message: tooManyPlacesMessage(3) },
    });
    expect(inspectArchive(bytes, { limits: { maxPlaces: 4 } }).lists).toHaveLength(1);
  });

  it(`is ${MAX_PLACES.toLocaleString('en-US')} places by default, and says so`, () => {
    expect(LIMITS.maxPlaces).toBe(MAX_PLACES);
    expect(MAX_PLACES).toBe(200_000);
    const rows = `P,${PIN}\n`.repeat(MAX_PLACES / 2);
    const bytes = archive({
      'Takeout/Saved/A.csv': `Title,URL\n${rows}`,
      'Takeout/Saved/B.csv': `Title,URL\n${rows}P,${PIN}\n`,
    });
    const refused = refusal(() => readArchive(bytes));
    expect(refused.code).toBe('too-many-places');
    expect(refused.message).toBe(
      'This file holds more than 200,000 places, the most PlacePort converts at once. Put some of its lists in a ZIP file of their own and convert the parts one after the other.',
    );
  });
});
