import { describe, expect, it, vi } from 'vitest';
import { resolvedUrlFor } from './core/coordinates.js';
import type { LookupFailure } from './core/reasons.js';
import {
  convertLists,
  resolveChunkSizeFor,
  RESOLVE_RETRY_DELAYS_MS,
  RESOLVE_TIMEOUT_MS,
  ResolveRequestError,
  type ResolveUrls,
} from './pipeline.js';
import type { ConversionProgress } from './worker/types.js';

const FTID_A = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const FTID_B = '0x47e66e2964e34e2d:0x8ddca9ee380ef7e0';
const placeUrl = (ftid: string, name = 'X') =>
  `https://www.google.com/maps/place/${name}/data=!4m2!3m1!1s${ftid}`;
const csv = (rows: string[][]) =>
  `Title,Note,URL,Comment\n${rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`;

const listA = {
  path: 'Takeout/Saved/Want to go.csv',
  content: csv([
    ['Pin', 'has a note', 'https://www.google.com/maps/search/48.85837,+2.294481', ''],
    ['Ftid A', '', placeUrl(FTID_A, 'A'), 'c'],
    ['Ftid A again', '', placeUrl(FTID_A, 'A-other-name'), ''],
    ['Ftid B', '', placeUrl(FTID_B, 'B'), ''],
    ['Web page', '', 'https://example.com/not-a-place', ''],
  ]),
};

const resolver = (
  answers: Record<string, string>,
  failures: Record<string, LookupFailure> = {},
) => {
  const calls: string[][] = [];
  const resolveUrls: ResolveUrls = async (urls) => {
    calls.push(urls);
    return {
      results: Object.fromEntries(urls.filter((u) => answers[u]).map((u) => [u, answers[u]!])),
      failures: Object.fromEntries(urls.filter((u) => failures[u]).map((u) => [u, failures[u]!])),
    };
  };
  return { calls, resolveUrls };
};

describe('convertLists', () => {
  it('without a resolver, converts what the URLs carry and skips the rest (seed stats)', async () => {
    const [result] = await convertLists([listA]);
    expect(result?.stats).toEqual({
      totalPlaces: 5,
      withCoordinates: 1,
      withNotes: 1,
      categories: 1,
      processed: 5,
      converted: 1,
      skipped: 4,
      unplaced: { not_looked_up: 3, not_allowed: 1 },
    });
    expect(result?.files).toHaveLength(1);
    expect(result?.files[0]?.fileName).toBe('Want to go.kml');
    expect(result?.failedCsvFileName).toBe('Want to go - failed-places.csv');
    expect(result?.failedCsvContent?.split('\r\n').filter(Boolean)).toHaveLength(5);
  });

  it('sends each distinct maps place once, and reads coordinates from the resolved URL', async () => {
    const { calls, resolveUrls } = resolver({
      [placeUrl(FTID_A, 'A')]: resolvedUrlFor({ lat: 10.5, lng: 20.25 }),
    });
    const [result] = await convertLists([listA], { resolveUrls });
    expect(calls).toEqual([[placeUrl(FTID_A, 'A'), placeUrl(FTID_B, 'B')]]);
    expect(result?.places.map((p) => p.coordinates)).toEqual([
      { lat: 48.85837, lng: 2.294481 },
      { lat: 10.5, lng: 20.25 },
      { lat: 10.5, lng: 20.25 },
      undefined,
      undefined,
    ]);
    expect(result?.stats.converted).toBe(3);
    expect(result?.resolvedCount).toBe(2);
  });

  it('looks a place up once across lists of the same run', async () => {
    const { calls, resolveUrls } = resolver({});
    const second = {
      path: 'Takeout/Saved/Other.csv',
      content: csv([['A', '', placeUrl(FTID_A, 'A'), '']]),
    };
    await convertLists([listA, second], { resolveUrls });
    expect(calls).toHaveLength(1);
  });

  it('chunks big batches', async () => {
    const { calls, resolveUrls } = resolver({});
    const rows = Array.from({ length: 7 }, (_, i) => [
      'P',
      '',
      placeUrl(`0x${(i + 1).toString(16)}:0x${(i + 100).toString(16)}`),
      '',
    ]);
    await convertLists([{ path: 'L.csv', content: csv(rows) }], {
      resolveUrls,
      resolveChunkSize: 3,
    });
    expect(calls.map((c) => c.length).sort()).toEqual([1, 3, 3]);
  });

  it('warns and goes on when resolution fails', async () => {
    const warn = vi.fn();
    const [result] = await convertLists([listA], {
      resolveUrls: async () => {
        throw new Error('503: Service Unavailable');
      },
      logger: { warn },
    });
    expect(result?.stats.converted).toBe(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/resolution failed/),
      '503: Service Unavailable',
    );
  });

  it(`gives up on a batch after the timeout (${RESOLVE_TIMEOUT_MS} ms by default), warning "Batch URL resolution timeout"`, async () => {
    vi.useFakeTimers();
    try {
      const warn = vi.fn();
      let aborted = false;
      const pending = convertLists([listA], {
        resolveUrls: (_urls, { signal }) =>
          new Promise((_, reject) =>
            signal.addEventListener(
              'abort',
              () => ((aborted = true), reject(new Error('aborted'))),
            ),
          ),
        logger: { warn },
      });
      await vi.advanceTimersByTimeAsync(RESOLVE_TIMEOUT_MS - 1);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const [result] = await pending;
      expect(aborted).toBe(true);
      expect(warn).toHaveBeenCalledWith('Batch URL resolution timeout');
      expect(result?.stats.converted).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives every place left without coordinates its reason, in the stats and the failed CSV', async () => {
    const list = {
      path: 'Saved/Reasons.csv',
      content: csv([
        ['Refused', '', placeUrl(FTID_A, 'A'), ''],
        ['Unknown', '', placeUrl(FTID_B, 'B'), ''],
        ['No link', 'n', '', ''],
        ['Web page', '', 'https://example.com/', ''],
      ]),
    };
    const { resolveUrls } = resolver({}, { [placeUrl(FTID_A, 'A')]: 'throttled' });
    const [result] = await convertLists([list], { resolveUrls, retryDelaysMs: [] });
    expect(result?.places.map((p) => p.reason)).toEqual([
      'throttled',
      'not_found',
      'no_link',
      'not_allowed',
    ]);
    expect(result?.stats.unplaced).toEqual({
      throttled: 1,
      not_found: 1,
      no_link: 1,
      not_allowed: 1,
    });
    const rows = result!.failedCsvContent!.replace('\uFEFF', '').split('\r\n');
    expect(rows[0]).toBe('Title,Note,URL,Comment,Reason');
    expect(rows[1]).toContain('Google refused the lookup; try again later');
    expect(rows[2]).toContain('Google has no location for this place');
  });

  it('gives a refused batch its reason: 402 and 403 are the allowance, anything else unavailable', async () => {
    for (const [status, reason] of [
      [402, 'limit'],
      [403, 'limit'],
      [503, 'unavailable'],
    ] as const) {
      const [result] = await convertLists([listA], {
        resolveUrls: async () => {
          throw new ResolveRequestError(status, `${status}: refused`);
        },
        retryDelaysMs: [],
      });
      expect(result?.places[1]?.reason).toBe(reason);
    }
  });

  it('sends throttled and unavailable links again after each pause, within the 120 s budget', async () => {
    let clock = 0;
    const pauses: number[] = [];
    const answers = [
      { [placeUrl(FTID_A, 'A')]: 'throttled', [placeUrl(FTID_B, 'B')]: 'unavailable' },
      { [placeUrl(FTID_B, 'B')]: 'throttled' },
      {},
    ] as Array<Record<string, LookupFailure>>;
    const calls: string[][] = [];
    const [result] = await convertLists([listA], {
      now: () => clock,
      sleep: async (ms) => {
        pauses.push(ms);
        clock += ms;
      },
      resolveUrls: async (urls) => {
        calls.push(urls);
        const failures = answers[calls.length - 1] ?? {};
        return {
          results: Object.fromEntries(
            urls.filter((u) => !failures[u]).map((u) => [u, resolvedUrlFor({ lat: 1, lng: 2 })]),
          ),
          failures,
        };
      },
    });
    expect(pauses).toEqual([...RESOLVE_RETRY_DELAYS_MS]);
    expect(calls).toEqual([
      [placeUrl(FTID_A, 'A'), placeUrl(FTID_B, 'B')],
      [placeUrl(FTID_A, 'A'), placeUrl(FTID_B, 'B')],
      [placeUrl(FTID_B, 'B')],
    ]);
    expect(result?.stats.converted).toBe(4);
  });

  it('does not retry past the budget, and never retries places Google has no location for', async () => {
    let clock = 0;
    const calls: string[][] = [];
    await convertLists([listA], {
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      resolveUrls: async (urls) => {
        calls.push(urls);
        // The first round takes almost the whole budget.
        clock += RESOLVE_TIMEOUT_MS - RESOLVE_RETRY_DELAYS_MS[0]! + 1;
        return {
          results: {},
          failures: {
            [placeUrl(FTID_A, 'A')]: 'unavailable',
            [placeUrl(FTID_B, 'B')]: 'not_found',
          },
        };
      },
    });
    expect(calls).toHaveLength(1);
  });

  it('skips a list that fails validation with its reason and converts the others', async () => {
    const bad = { path: 'Saved/Bad.csv', content: 'Name,Where\nx,y\n' };
    const empty = { path: 'Saved/Empty.csv', content: '' };
    const results = await convertLists([bad, empty, listA]);
    expect(results.map((r) => [r.fileName, r.skippedReason])).toEqual([
      ['Bad.csv', 'CSV file must contain "Title" and "URL" columns. Found columns: Name, Where'],
      ['Empty.csv', 'CSV file is empty or contains no valid data rows.'],
      ['Want to go.csv', undefined],
    ]);
    expect(results[0]?.files).toEqual([]);
  });

  it('logs places without coordinates with what was tried, at most 20 one by one', async () => {
    const warn = vi.fn();
    const rows = Array.from({ length: 25 }, (_, i) => [`P${i}`, 'n', 'https://example.com/x', 'c']);
    await convertLists([{ path: 'L.csv', content: csv(rows) }], { logger: { warn } });
    const detailed = warn.mock.calls.filter(
      ([message]) => message === 'Could not extract coordinates',
    );
    expect(detailed).toHaveLength(20);
    expect(detailed[0]?.[1]).toEqual({
      title: 'P0',
      url: 'https://example.com/x',
      note: 'n',
      comment: 'c',
      attempted: ['URL extraction', 'resolved-URL extraction', 'no redirect occurred'],
    });
    expect(warn).toHaveBeenCalledWith(
      '5 more places without coordinates were not logged one by one',
    );
  });

  it('reports progress per stage with the seed marks, throttled in time, ending at 100', async () => {
    let clock = 0;
    const seen: ConversionProgress[] = [];
    const rows = Array.from({ length: 1000 }, (_, i) => [
      `P${i}`,
      '',
      `https://www.google.com/maps/search/1.5,${i / 10}`,
      '',
    ]);
    const big = { path: 'Saved/Big.csv', content: csv(rows) };
    await convertLists([big, listA], {
      onProgress: (p) => seen.push(p),
      now: () => (clock += 50),
      progressIntervalMs: 100,
    });
    const stages = seen.map((p) => `${p.fileIndex}:${p.stage}`);
    expect(stages[0]).toBe('0:validating');
    expect(seen[0]?.percent).toBe(12.5);
    expect(seen.find((p) => p.stage === 'converting' && p.fileIndex === 0)?.percent).toBe(37.5);
    expect(seen.find((p) => p.stage === 'validating' && p.fileIndex === 1)?.percent).toBe(62.5);
    expect(seen.at(-1)).toMatchObject({ stage: 'preparing', percent: 100 });
    // The clock is read every 64 places and moves 50 ticks a read; reports come at most every 100 ticks.
    const extracting = seen.filter(
      (p) => p.stage === 'extracting' && p.fileIndex === 0 && p.currentItem,
    );
    expect(extracting.length).toBeGreaterThan(3);
    expect(extracting.length).toBeLessThanOrEqual(9);
    expect(extracting[0]?.currentItem).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
    const percents = seen.map((p) => p.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });

  it('splits a list over 2,000 converted places into even parts', async () => {
    const rows = Array.from({ length: 4001 }, (_, i) => [
      `P${i}`,
      '',
      `https://www.google.com/maps/search/1.5,${(i % 1000) / 10}`,
      '',
    ]);
    const [result] = await convertLists([{ path: 'Saved/Huge.csv', content: csv(rows) }]);
    expect(result?.files.map((k) => [k.fileName, k.placemarks])).toEqual([
      ['Huge (part 1 of 3).kml', 1334],
      ['Huge (part 2 of 3).kml', 1334],
      ['Huge (part 3 of 3).kml', 1333],
    ]);
  });

  it('counts lookups over the whole run, each distinct place once, up to the total and never back', async () => {
    const FTID_C = '0x89c25a316e5b1fe5:0x8b5ef3e2f2b8a09c';
    const listB = {
      path: 'Takeout/Saved/Food.csv',
      content: csv([
        ['Ftid B, saved twice', '', placeUrl(FTID_B, 'B'), ''],
        ['Ftid C', '', placeUrl(FTID_C, 'C'), ''],
      ]),
    };
    const { resolveUrls } = resolver({});
    const seen: ConversionProgress[] = [];
    await convertLists([listA, listB], {
      resolveUrls,
      resolveChunkSize: 1,
      retryDelaysMs: [],
      onProgress: (p) => seen.push(p),
    });
    const counted = seen.filter((p) => p.lookups).map((p) => p.lookups!);
    // A, B (list A), then C (list B): B is not asked again, so the run needs 3 lookups.
    expect(new Set(counted.map((c) => c.total))).toEqual(new Set([3]));
    expect(counted.at(-1)).toEqual({ done: 3, total: 3 });
    const done = counted.map((c) => c.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    // Only while extracting, and never without lookups.
    expect(seen.filter((p) => p.lookups).every((p) => p.stage === 'extracting')).toBe(true);
    const offline: ConversionProgress[] = [];
    await convertLists([listA], { onProgress: (p) => offline.push(p) });
    expect(offline.some((p) => p.lookups)).toBe(false);
  });

  it('sizes its requests to the run: 100 links for small runs, up to 500 for the largest', async () => {
    expect([1, 20_000, 50_000, 100_000, 1_000_000].map(resolveChunkSizeFor)).toEqual([
      100, 100, 250, 500, 500,
    ]);
    const rows = Array.from({ length: 250 }, (_, i) => [
      `P${i}`,
      '',
      placeUrl(`0x14e732fd76f0d90d:0x${(0x1000n + BigInt(i)).toString(16)}`),
      '',
    ]);
    const { resolveUrls, calls } = resolver({});
    await convertLists([{ path: 'Saved/Many.csv', content: csv(rows) }], {
      resolveUrls,
      retryDelaysMs: [],
    });
    expect(calls.map((call) => call.length)).toEqual([100, 100, 50]);
  });
});
