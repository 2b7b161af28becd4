import { describe, expect, it, vi } from 'vitest';
import { resolvedUrlFor } from './core/coordinates.js';
import type { LookupFailure } from './core/reasons.js';
import { listOutputNames } from './core/names.js';
import { parseList } from './inspect.js';
import { convertLists as convertParsed, type PipelineOptions } from './pipeline.js';
import { resolveChunkSizeFor } from './plan.js';
import {
  RESOLVE_CONCURRENCY,
  RESOLVE_RETRY_BACKOFF,
  RESOLVE_RETRY_DELAY_MS,
  RESOLVE_TIMEOUT_MS,
} from './run-lookups.js';
import {
  isDeadline,
  ResolveRequestError,
  type ConversionProgress,
  type ResolveUrls,
} from './core/seams.js';

const FTID_A = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const FTID_B = '0x47e66e2964e34e2d:0x8ddca9ee380ef7e0';
const placeUrl = (ftid: string, name = 'X') =>
  `https://www.google.com/maps/place/${name}/data=!4m2!3m1!1s${ftid}`;
/** `count` rows `P0`, `P1`, … whose links name distinct places by ftid, from `first` on. */
const placeRows = (count: number, first: number) =>
  Array.from({ length: count }, (_, i) => [
    `P${i}`,
    '',
    placeUrl(`0x14e732fd76f0d90d:0x${(first + i).toString(16)}`),
    '',
  ]);
const csv = (rows: string[][]) =>
  `Title,Note,URL,Comment\n${rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`;

/** Lists given as text, read as inspection reads them: parsed once, named over the whole run. */
function convertLists(
  lists: ReadonlyArray<{ path: string; content: string }>,
  options?: PipelineOptions,
) {
  const names = listOutputNames(lists.map((list) => list.path));
  return convertParsed(
    lists.map((list, i) => ({
      path: list.path,
      parsed: parseList(list.content),
      outputName: names[i]!,
    })),
    options,
  );
}

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
      retryDelayMs: null,
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
      let deadline = false;
      const pending = convertLists([listA], {
        resolveUrls: (_urls, { signal }) =>
          new Promise((_, reject) =>
            signal.addEventListener(
              'abort',
              () => (
                (aborted = true),
                (deadline = isDeadline(signal)),
                reject(new Error('aborted'))
              ),
            ),
          ),
        retryDelayMs: null,
        logger: { warn },
      });
      await vi.advanceTimersByTimeAsync(RESOLVE_TIMEOUT_MS - 1);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const [result] = await pending;
      expect(aborted).toBe(true);
      // The client is told it is the deadline, not a stop (the CLI counts it as no answer).
      expect(deadline).toBe(true);
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
    const [result] = await convertLists([list], { resolveUrls, retryDelayMs: null });
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
      // A request refused as a whole (too_many_urls) says nothing of its links: retryable.
      [400, 'unavailable'],
      [503, 'unavailable'],
    ] as const) {
      const [result] = await convertLists([listA], {
        resolveUrls: async () => {
          throw new ResolveRequestError(status, `${status}: refused`);
        },
        retryDelayMs: null,
      });
      expect(result?.places[1]?.reason).toBe(reason);
    }
  });

  it('answers a request too large to be free (413) limit, and never sends it again', async () => {
    const calls: string[][] = [];
    const pauses: number[] = [];
    const [result] = await convertLists([listA], {
      resolveUrls: async (urls) => {
        calls.push(urls);
        throw new ResolveRequestError(
          413,
          '413: Without a payment, a request can hold at most 4 links.',
        );
      },
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    expect(result?.places.slice(1, 4).map((place) => place.reason)).toEqual([
      'limit',
      'limit',
      'limit',
    ]);
    // Refused for its size, the same request would be refused again: no pause, no retry round.
    expect(calls).toHaveLength(1);
    expect(pauses).toEqual([]);
  });

  it('stops sending once a request is refused for its cost (402, 403): the rest are limit, unsent', async () => {
    for (const status of [402, 403]) {
      // 40 places to look up, 4 a request, 2 in flight: the fifth request is the first refused.
      const rows = placeRows(40, 0x2000);
      const calls: string[][] = [];
      const pauses: number[] = [];
      const [result] = await convertLists([{ path: 'Takeout/Saved/Big.csv', content: csv(rows) }], {
        resolveChunkSize: 4,
        sleep: async (ms) => {
          pauses.push(ms);
        },
        resolveUrls: async (urls) => {
          calls.push(urls);
          // An earlier request's links that came back unavailable would be retried, but not now.
          if (calls.length === 1) return { results: {}, failures: { [urls[0]!]: 'unavailable' } };
          if (calls.length >= 5) throw new ResolveRequestError(status, `${status}: used`);
          return {
            results: Object.fromEntries(urls.map((u) => [u, resolvedUrlFor({ lat: 1, lng: 2 })])),
          };
        },
      });
      // The refused request and the one in flight beside it; none after, and no retry round.
      expect(calls).toHaveLength(6);
      expect(pauses).toEqual([]);
      const reasons = result!.places.map((place) => place.reason);
      expect(reasons.slice(4, 16).every((reason) => reason === undefined)).toBe(true);
      expect(reasons.slice(16)).toEqual(Array.from({ length: 24 }, () => 'limit'));
      expect(reasons[0]).toBe('unavailable');
      expect(result!.stats.unplaced).toEqual({ unavailable: 1, not_found: 3, limit: 24 });
    }
  });

  it('sends throttled and unavailable links again together at the end of the run, in rounds after growing pauses', async () => {
    let clock = 0;
    const pauses: number[] = [];
    const FTID_C = '0x89c25a316e5b1fe5:0x8b5ef3e2f2b8a09c';
    const listB = {
      path: 'Takeout/Saved/Food.csv',
      content: csv([['Ftid C', '', placeUrl(FTID_C, 'C'), '']]),
    };
    const answers = [
      {
        [placeUrl(FTID_A, 'A')]: 'throttled',
        [placeUrl(FTID_B, 'B')]: 'unavailable',
        [placeUrl(FTID_C, 'C')]: 'unavailable',
      },
      { [placeUrl(FTID_B, 'B')]: 'throttled' },
    ] as Array<Record<string, LookupFailure>>;
    const calls: string[][] = [];
    const [a, b] = await convertLists([listA, listB], {
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
    // Both lists in one request, then a retry of all three together, then of B alone, refused again
    // in the first retry and found in the second: a round only for what is still missing.
    expect(pauses).toEqual([
      RESOLVE_RETRY_DELAY_MS,
      RESOLVE_RETRY_DELAY_MS * RESOLVE_RETRY_BACKOFF[1]!,
    ]);
    expect(calls).toEqual([
      [placeUrl(FTID_A, 'A'), placeUrl(FTID_B, 'B'), placeUrl(FTID_C, 'C')],
      [placeUrl(FTID_A, 'A'), placeUrl(FTID_B, 'B'), placeUrl(FTID_C, 'C')],
      [placeUrl(FTID_B, 'B')],
    ]);
    expect(a?.stats.converted).toBe(4);
    expect(b?.stats.converted).toBe(1);
  });

  it('a server or network out for a minute costs nothing: the rounds wait it out, within 120 s, saying when the next one starts', async () => {
    let clock = 0;
    const pauses: number[] = [];
    // Out until 40 s after the first pass, as in the audit's API restart: the fourth round finds it.
    const back = 5_000 + 10_000 + 20_000 + 5_000;
    const seen: ConversionProgress[] = [];
    const waiting: Array<ConversionProgress['lookups']> = [];
    const [result] = await convertLists([listA], {
      now: () => clock,
      progressIntervalMs: 0,
      onProgress: (p) => seen.push(p),
      sleep: async (ms) => {
        // What the page is told while the run pauses.
        waiting.push(seen.at(-1)?.lookups);
        pauses.push(ms);
        clock += ms;
      },
      resolveUrls: async (urls) => {
        if (clock < back) throw new TypeError('Failed to fetch');
        return {
          results: Object.fromEntries(urls.map((u) => [u, resolvedUrlFor({ lat: 1, lng: 2 })])),
        };
      },
    });
    // Every place looked up was found; only the link that is not Google's stays unplaced.
    expect(result?.stats.unplaced).toEqual({ not_allowed: 1 });
    expect(pauses).toEqual(RESOLVE_RETRY_BACKOFF.map((factor) => RESOLVE_RETRY_DELAY_MS * factor));
    expect(pauses.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(RESOLVE_TIMEOUT_MS);
    // Each pause says how many places wait, and when they are sent again; none once it is over.
    let at = 0;
    expect(
      waiting.map((lookups, i) => {
        at += pauses[i]!;
        return lookups?.retry;
      }),
    ).toEqual(
      pauses.map((_, i) => ({ places: 2, at: pauses.slice(0, i + 1).reduce((a, b) => a + b) })),
    );
    expect(at).toBe(clock);
    expect(seen.filter((p) => p.lookups).at(-1)?.lookups?.retry).toBeUndefined();
  });

  it('a pause before a retry round ends when the device comes back online: what failed offline goes again at once', async () => {
    const device = new EventTarget();
    let online = false;
    const calls: string[][] = [];
    const paused: AbortSignal[] = [];
    const [result] = await convertLists([listA], {
      connectivity: device,
      // A pause that never ends by itself: only its signal ends it.
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          paused.push(signal!);
          signal!.addEventListener('abort', () => resolve());
          online = true;
          device.dispatchEvent(new Event('online'));
        }),
      resolveUrls: async (urls) => {
        calls.push(urls);
        if (!online) throw new TypeError('Failed to fetch');
        return {
          results: Object.fromEntries(urls.map((u) => [u, resolvedUrlFor({ lat: 1, lng: 2 })])),
        };
      },
    });
    expect(paused).toHaveLength(1);
    expect(calls).toHaveLength(2);
    expect(result?.stats.unplaced).toEqual({ not_allowed: 1 });
    // The run's own stop still ends a pause; no listener is left on the device.
    const stop = new AbortController();
    const listening = vi.spyOn(device, 'removeEventListener');
    let sent = 0;
    let sentBeforePause = -1;
    await convertLists([listA], {
      connectivity: device,
      signal: stop.signal,
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          sentBeforePause = sent;
          signal!.addEventListener('abort', () => resolve());
          stop.abort();
        }),
      resolveUrls: async () => {
        sent += 1;
        throw new TypeError('Failed to fetch');
      },
    });
    expect(sentBeforePause).toBeGreaterThan(0);
    expect(sent).toBe(sentBeforePause);
    expect(listening).toHaveBeenCalledWith('online', expect.any(Function));
  });

  it('refuses a connectivity that is not an event target', async () => {
    await expect(
      convertLists([listA], { connectivity: {} as unknown as EventTarget }),
    ).rejects.toThrow('connectivity must be an event target');
  });

  it('waits for no retry round once the service says its failures are final (a client that refused for good)', async () => {
    const rows = placeRows(6, 0x2000);
    const calls: string[][] = [];
    const pauses: number[] = [];
    const [result] = await convertLists([{ path: 'Saved/Many.csv', content: csv(rows) }], {
      resolveChunkSize: 2,
      sleep: async (ms) => void pauses.push(ms),
      resolveUrls: async (urls) => {
        calls.push(urls);
        const failures = Object.fromEntries(urls.map((u) => [u, 'throttled' as const]));
        return { results: {}, failures, final: true };
      },
    });
    // Every batch is answered once (the client answers the later ones itself), none again.
    expect(calls.flat()).toHaveLength(6);
    expect(pauses).toEqual([]);
    expect(result?.stats.unplaced).toEqual({ throttled: 6 });
  });

  it('stops the retry round at the first request refused again (the breaker), within the 120 s budget', async () => {
    const rows = placeRows(6, 0x1000);
    const calls: string[][] = [];
    let clock = 0;
    const [result] = await convertLists([{ path: 'Saved/Many.csv', content: csv(rows) }], {
      resolveChunkSize: 2,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      resolveUrls: async (urls) => {
        calls.push(urls);
        return { results: {}, failures: Object.fromEntries(urls.map((u) => [u, 'unavailable'])) };
      },
    });
    // Three requests, then in each retry round the first request (and the one in flight beside it)
    // fail again: the rest of that round is not sent.
    const rounds = RESOLVE_RETRY_BACKOFF.length;
    expect(calls.length).toBeLessThanOrEqual(3 + 2 * rounds);
    expect(calls.length).toBeGreaterThan(3 + rounds - 1);
    expect(result?.stats.unplaced).toEqual({ unavailable: 6 });

    // A first pass that used up the budget still retries: the round has a deadline of its own.
    calls.length = 0;
    clock = 0;
    await convertLists([listA], {
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      resolveUrls: async (urls) => {
        calls.push(urls);
        clock += RESOLVE_TIMEOUT_MS;
        return {
          results: {},
          failures: {
            [placeUrl(FTID_A, 'A')]: 'unavailable',
            [placeUrl(FTID_B, 'B')]: 'not_found',
          },
        };
      },
    });
    // The retry sends only A (B has no location: never retried), and takes the whole deadline.
    expect(calls).toEqual([
      [placeUrl(FTID_A, 'A'), placeUrl(FTID_B, 'B')],
      [placeUrl(FTID_A, 'A')],
    ]);
  });

  it('never retries places Google has no location for', async () => {
    const { calls, resolveUrls } = resolver(
      {},
      { [placeUrl(FTID_A, 'A')]: 'not_found', [placeUrl(FTID_B, 'B')]: 'not_allowed' },
    );
    await convertLists([listA], { resolveUrls, sleep: async () => {} });
    expect(calls).toHaveLength(1);
  });

  it('stops sending when the service says the upstream cannot be reached: no retry, every place left unavailable', async () => {
    const rows = placeRows(9, 0x2000);
    const calls: string[][] = [];
    const pauses: number[] = [];
    const seen: ConversionProgress[] = [];
    const [result] = await convertLists([{ path: 'Saved/Offline.csv', content: csv(rows) }], {
      resolveChunkSize: 1,
      sleep: async (ms) => {
        pauses.push(ms);
      },
      onProgress: (p) => seen.push(p),
      progressIntervalMs: 0,
      resolveUrls: async (urls) => {
        calls.push(urls);
        return {
          results: {},
          failures: Object.fromEntries(urls.map((u) => [u, 'unavailable'])),
          unreachable: true,
        };
      },
    });
    // The two requests in flight when the first answer came; nothing after, and no pause.
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(pauses).toEqual([]);
    expect(result?.stats.unplaced).toEqual({ unavailable: 9 });
    expect(result?.failedCsvContent).toContain(
      'The lookup failed (network, timeout or server error); try again',
    );
    const counted = seen.filter((p) => p.lookups).map((p) => p.lookups!);
    expect(new Set(counted.map((c) => c.total))).toEqual(new Set([9]));
    expect(counted.at(-1)).toEqual({ done: 9, total: 9, unsent: 9 - calls.length });
  });

  it('stopped by its signal: nothing more is sent, what was found is kept, the rest is interrupted', async () => {
    const rows = placeRows(6, 0x3000);
    const stop = new AbortController();
    const calls: string[][] = [];
    const warn = vi.fn();
    const [result] = await convertLists(
      [
        {
          path: 'Saved/Stopped.csv',
          content: csv([
            ['Pinned', '', 'https://www.google.com/maps/search/48.85837,+2.294481', ''],
            ...rows,
          ]),
        },
      ],
      {
        resolveChunkSize: 2,
        signal: stop.signal,
        logger: { warn },
        resolveUrls: (urls, { signal }) => {
          calls.push(urls);
          if (calls.length === 1) {
            return Promise.resolve({
              results: Object.fromEntries(urls.map((u) => [u, resolvedUrlFor({ lat: 1, lng: 2 })])),
            });
          }
          // The second request is in flight when the run is stopped: it gives up like a real client.
          stop.abort();
          return new Promise((_, reject) =>
            signal.aborted
              ? reject(new Error('aborted'))
              : signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
      },
    );
    expect(calls.length).toBeLessThanOrEqual(3);
    expect(result?.stats.converted).toBe(3);
    expect(result?.stats.unplaced).toEqual({ interrupted: 4 });
    expect(result?.files).toHaveLength(1);
    expect(result?.failedCsvContent).toContain('Not looked up: the run was interrupted');
    expect(warn).not.toHaveBeenCalledWith(expect.stringMatching(/^Batch URL/), expect.anything());
  });

  it('looks the lists of a run up together: many small lists share requests', async () => {
    const smallLists = Array.from({ length: 30 }, (_, n) => ({
      path: `Takeout/Saved/List ${n}.csv`,
      content: csv(
        Array.from({ length: 3 }, (_, i) => [
          `P${n}-${i}`,
          '',
          placeUrl(`0x14e732fd76f0d90d:0x${(0x4000 + n * 10 + i).toString(16)}`),
          '',
        ]),
      ),
    }));
    const { calls, resolveUrls } = resolver({});
    const results = await convertLists(smallLists, { resolveUrls, retryDelayMs: null });
    expect(calls.map((call) => call.length)).toEqual([90]);
    expect(results.map((r) => r.stats.unplaced)).toEqual(smallLists.map(() => ({ not_found: 3 })));
  });

  it('skips a list that fails validation with its reason and converts the others', async () => {
    const bad = { path: 'Saved/Bad.csv', content: 'Name,Where\nx,y\n' };
    const blank = { path: 'Saved/Blank.csv', content: '' };
    const results = await convertLists([bad, blank, listA]);
    expect(results.map((r) => [r.fileName, r.skippedReason])).toEqual([
      ['Bad.csv', 'CSV file must contain "Title" and "URL" columns. Found columns: Name, Where'],
      ['Blank.csv', 'CSV file is empty or contains no valid data rows.'],
      ['Want to go.csv', undefined],
    ]);
    expect(results[0]?.files).toEqual([]);
  });

  it('reads a list with only its header (or the 2025+ tag row) as empty: no files, no error', async () => {
    const results = await convertLists([
      { path: 'Saved/Test.csv', content: 'Title,Note,URL,Comment\n' },
      { path: 'Saved/Work.csv', content: 'Title,Note,URL,Tags,Comment\n,,,🛴 Fun stores,\n' },
      listA,
    ]);
    expect(results.map((r) => [r.name, r.empty, r.skippedReason, r.stats.totalPlaces])).toEqual([
      ['Test', true, undefined, 0],
      ['Work', true, undefined, 0],
      ['Want to go', undefined, undefined, 5],
    ]);
    expect(results[0]?.files).toEqual([]);
    expect(results[0]?.failedCsvContent).toBeUndefined();
  });

  it('keeps the Tags column in the failed-places CSV, where the list had it', async () => {
    const [result] = await convertLists([
      {
        path: 'Saved/Tagged.csv',
        content: `Title,Note,URL,Tags,Comment\n,,,🍜 Food,\nNoodles,n,${placeUrl(FTID_A, 'A')},🍜 Food;☕ Coffee,c\n`,
      },
    ]);
    const rows = result!.failedCsvContent!.replace('\uFEFF', '').split('\r\n');
    expect(rows.slice(0, 2)).toEqual([
      'Title,Note,URL,Tags,Comment,Reason',
      `Noodles,n,${placeUrl(FTID_A, 'A')},🍜 Food;☕ Coffee,c,The link has no coordinates and lookups were off`,
    ]);
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
    // The current item is the place's name, never its raw link.
    expect(extracting[0]?.currentItem).toMatch(/^P\d+$/);
    const percents = seen.map((p) => p.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });

  it('writes a list in numbered parts of at most maxPlacemarksPerFile places', async () => {
    // How the parts are sized is splitEvenly's rule (output.test.ts); here, that the run applies it.
    const rows = Array.from({ length: 3 }, (_, i) => [
      `P${i}`,
      '',
      `https://www.google.com/maps/search/1.5,${i / 10}`,
      '',
    ]);
    const [result] = await convertLists([{ path: 'Saved/Food.csv', content: csv(rows) }], {
      maxPlacemarksPerFile: 2,
    });
    expect(result?.files.map((k) => [k.fileName, k.placemarks])).toEqual([
      ['Food (part 1 of 2).kml', 2],
      ['Food (part 2 of 2).kml', 1],
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
      retryDelayMs: null,
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

  it('counts places waiting for the retry within the first total: done only once their answer is final', async () => {
    const seen: ConversionProgress[] = [];
    let round = 0;
    let doneBeforeRetry: number | undefined;
    await convertLists([listA], {
      resolveChunkSize: 1,
      progressIntervalMs: 0,
      onProgress: (p) => seen.push(p),
      sleep: async () => {
        doneBeforeRetry = seen.filter((p) => p.lookups).at(-1)?.lookups?.done;
        round = 1;
      },
      resolveUrls: async (urls) => ({
        results:
          round === 1 || urls[0] === placeUrl(FTID_B, 'B')
            ? { [urls[0]!]: resolvedUrlFor({ lat: 1, lng: 2 }) }
            : {},
        failures:
          round === 0 && urls[0] === placeUrl(FTID_A, 'A') ? { [urls[0]]: 'throttled' } : {},
      }),
    });
    const counted = seen.filter((p) => p.lookups).map((p) => p.lookups!);
    expect(new Set(counted.map((c) => c.total))).toEqual(new Set([2]));
    // B was final after the first pass; A, refused, only after the retry.
    expect(doneBeforeRetry).toBe(1);
    expect(counted.at(-1)).toEqual({ done: 2, total: 2 });
    const done = counted.map((c) => c.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
  });

  it('counts the places given their reason unsent, once the upstream is out of reach, apart', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => {
      const ftid = `0x89c25a316e5b1fe${i}:0x8b5ef3e2f2b8a09${i}`;
      return [`Place ${i}`, '', placeUrl(ftid, `P${i}`), ''];
    });
    const list = { path: 'Takeout/Saved/Six.csv', content: csv(rows) };
    const seen: ConversionProgress[] = [];
    const sent: string[] = [];
    await convertLists([list], {
      resolveChunkSize: 1,
      progressIntervalMs: 0,
      retryDelayMs: null,
      onProgress: (p) => seen.push(p),
      resolveUrls: async (urls) => {
        sent.push(...urls);
        return { results: {}, unreachable: true };
      },
    });
    const last = seen.filter((p) => p.lookups).at(-1)!.lookups!;
    // Two requests in flight when the first said so; the other four places were never sent.
    expect(sent).toHaveLength(RESOLVE_CONCURRENCY);
    expect(last).toEqual({ done: 6, total: 6, unsent: 6 - RESOLVE_CONCURRENCY });
  });

  it('sizes its requests to the run: 100 links for small runs, up to 500 for the largest', async () => {
    expect([1, 20_000, 50_000, 100_000, 1_000_000].map(resolveChunkSizeFor)).toEqual([
      100, 100, 250, 500, 500,
    ]);
    const rows = placeRows(250, 0x1000);
    const { resolveUrls, calls } = resolver({});
    await convertLists([{ path: 'Saved/Many.csv', content: csv(rows) }], {
      resolveUrls,
      retryDelayMs: null,
    });
    expect(calls.map((call) => call.length)).toEqual([100, 100, 50]);
  });
});
