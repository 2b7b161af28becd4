import { generateTakeout } from '@placeport/testkit';
import { describe, expect, it } from 'vitest';
import { createConverterWorkerApi } from './api.js';

const quiet = { warn: () => {} };

describe('converter worker API: points for the results map', () => {
  const takeout = generateTakeout({
    seed: 11,
    quirks: false,
    includeNonPlaceLists: false,
    coordinatesInUrls: true,
    lists: [
      { name: 'Want to go', places: 6 },
      { name: 'Empty', places: 0 },
      { name: 'Unplaced', places: 3, kinds: { zero: 1 } },
      { name: 'Lisbon', places: 4 },
    ],
  });
  const [wantToGo, , , lisbon] = takeout.lists;

  it('fails until something was converted', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    expect(await api.points()).toEqual({
      ok: false,
      error: { code: 'no-archive', message: 'Please choose a ZIP file first.' },
    });
  });

  it('gives each list with placed places as lng,lat pairs and names, in file order', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(takeout.zip, 'a.zip');
    const converted = await api.convert({ paths: takeout.lists.map((list) => list.path) });
    expect(converted.ok).toBe(true);

    const result = await api.points();
    if (!result.ok) throw new Error(result.error.message);
    // Lists without a placed place are left out: there is nothing to draw for them.
    expect(result.value.lists.map((list) => [list.path, list.name])).toEqual([
      [wantToGo!.path, 'Want to go'],
      [lisbon!.path, 'Lisbon'],
    ]);
    for (const [index, generated] of [wantToGo!, lisbon!].entries()) {
      const list = result.value.lists[index]!;
      expect(list.coordinates).toBeInstanceOf(Float64Array);
      expect(Array.from(list.coordinates)).toEqual(
        generated.places.flatMap((place) => [place.expected!.lng, place.expected!.lat]),
      );
      expect(list.names).toEqual(
        generated.places.map((place) => place.title.trim() || 'Dropped pin'),
      );
    }
  });

  it('forgets the points on reset', async () => {
    const api = createConverterWorkerApi({ logger: quiet });
    await api.inspect(takeout.zip, 'a.zip');
    await api.convert({ paths: [wantToGo!.path] });
    await api.reset();
    expect((await api.points()).ok).toBe(false);
  });
});
