import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { resolvedUrlFor } from './core/coordinates.js';
import type { UnplacedReason } from './core/reasons.js';
import type { ConversionResult } from './core/types.js';
import { retryLists } from './retry.js';
import { createConverterWorkerApi } from './worker/api.js';

const FTID = (n: number) =>
  `0x14e732fd76f0d90d:0x${(0xe5415928d6702b40n + BigInt(n)).toString(16)}`;
const place = (n: number) => `https://www.google.com/maps/place/P${n}/data=!4m2!3m1!1s${FTID(n)}`;
const csv = [
  'Title,Note,URL,Tags,Comment',
  `Pinned,,"https://www.google.com/maps/search/38.7,-9.1",,`,
  `Refused,a note,${place(1)},🍜 Food,keep`,
  `Unknown,,${place(2)},,`,
  `Not a place,,https://example.com/page,,`,
  `Unavailable,,${place(3)},,`,
].join('\n');

describe('retry failed places', () => {
  it('makes a list of the places a later lookup may place, and converts it as its own run', async () => {
    const quiet = { warn: () => {} };
    // First the allowance is used up (not retried within the run); in the retry, Google answers.
    let retrying = false;
    const api = createConverterWorkerApi({
      logger: quiet,
      fetch: async (_url, init) => {
        const { urls } = JSON.parse(String(init?.body)) as { urls: string[] };
        const results: Record<string, string> = {};
        const failures: Record<string, string> = {};
        for (const url of urls) {
          if (retrying) results[url] = resolvedUrlFor({ lat: 41.15, lng: -8.61 });
          else if (url === place(2)) failures[url] = 'not_found';
          else failures[url] = 'limit';
        }
        return new Response(JSON.stringify({ results, failures }), {
          headers: { 'Content-Type': 'application/json' },
        });
      },
    });
    const bytes = zipSync({ 'Takeout/Saved/Lisbon.csv': strToU8(`${csv}\n`) });
    await api.inspect(bytes, 'takeout.zip');
    const resolve = { apiBase: 'http://127.0.0.1:9', timeoutMs: 60_000 };
    const first = await api.convert({ paths: ['Takeout/Saved/Lisbon.csv'], resolve });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value.totals).toEqual({ total: 5, converted: 1, skipped: 4 });

    const prepared = await api.prepareRetry();
    if (!prepared.ok) throw new Error(prepared.error.message);
    // Places the allowance left out come back; "not found" and "not a place" would only fail again.
    expect(prepared.value.lists).toEqual([
      expect.objectContaining({
        path: 'retry:Takeout/Saved/Lisbon.csv',
        name: 'Lisbon (failed places)',
        outputName: 'Lisbon (retry)',
        origin: { kind: 'retry', of: 'Takeout/Saved/Lisbon.csv' },
        rowCount: 2,
        needsLookup: 2,
      }),
    ]);

    retrying = true;
    const second = await api.convert({ paths: ['retry:Takeout/Saved/Lisbon.csv'], resolve });
    if (!second.ok) throw new Error(second.error.message);
    const [list] = second.value.lists;
    expect(list?.stats.converted).toBe(2);
    expect(list?.files.map((file) => file.fileName)).toEqual(['Lisbon (retry).kml']);
    const kml = new TextDecoder().decode(list!.files[0]!.bytes);
    // The place comes back as the archive had it: note, comment and tags.
    expect(kml).toContain('<name>Refused</name>');
    expect(kml).toContain('Tags: 🍜 Food');
    expect(kml).toContain('Comment: keep');
    // The archive's own list is still there to convert again.
    const again = await api.convert({ paths: ['Takeout/Saved/Lisbon.csv'] });
    expect(again.ok).toBe(true);
  });

  /** A converted list of one place left without coordinates for `reason`. */
  const unplacedOne = (
    path: string,
    reason: UnplacedReason,
    names: { name: string; outputName: string },
  ): ConversionResult => ({
    fileName: path.slice(path.lastIndexOf('/') + 1),
    path,
    ...names,
    stats: {
      totalPlaces: 1,
      converted: 0,
      skipped: 1,
      unplaced: { [reason]: 1 },
    },
    places: [{ title: 'x', url: place(9), reason }],
    files: [],
  });

  it('makes nothing when every failed place would only fail again', () => {
    const result = unplacedOne('A.csv', 'not_found', { name: 'A', outputName: 'A' });
    expect(retryLists([result], [])).toEqual([]);
  });

  it("names a retry of a retry after the archive's list, from its origin", () => {
    const archive = {
      path: 'Saved/Food.csv',
      name: 'Food',
      kind: 'csv' as const,
      outputName: 'Food (Older)',
      rowCount: 1,
      withCoordinates: 0,
      needsLookup: 1,
      withoutLocation: 0,
      size: 10,
    };
    const retried = unplacedOne('retry:Saved/Food.csv', 'unavailable', {
      name: 'Food (failed places)',
      outputName: 'Food (Older) (retry)',
    });
    const [again] = retryLists(
      [{ ...retried, origin: { kind: 'retry', of: 'Saved/Food.csv' } }],
      [archive],
    );
    expect(again).toMatchObject({
      path: 'retry:Saved/Food.csv',
      name: 'Food (failed places)',
      outputName: 'Food (Older) (retry)',
      origin: { kind: 'retry', of: 'Saved/Food.csv' },
      rowCount: 1,
    });
  });
});
