/**
 * `--api` against a PlacePort API that refuses or fails requests, and servers that are not one:
 * `apiLookups` in-process through the real `fetch` against a local stand-in (its clock and pauses
 * faked, so no test waits out a Retry-After), and the built `placeport` end to end for what the
 * summary says.
 */
import { generateTakeout } from '@placeport/testkit';
import { writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiLookups,
  API_UNREACHABLE_AFTER,
  MAX_RETRY_AFTER_WAIT_MS,
  MAX_THROTTLED_IN_A_ROW,
  type ApiLookupOptions,
} from '../src/lookups.js';
import type { CliSummary } from '../src/summary.js';
import { NOWHERE, run, startStandInApi, tempFolder, until, type StandInAnswer } from './support.js';

/** What the stand-in answers to its `n`th request (0-based). */
type Answer = StandInAnswer;

const links = (from: number, count = 4) =>
  Array.from(
    { length: count },
    (_, i) =>
      `https://www.google.com/maps/place/p/data=!4m2!3m1!1s0x1:0x${(from + i).toString(16)}`,
  );
const FOUND = 'https://www.google.com/maps/search/?api=1&query=1.5,2.5';
const ok = (urls: string[]): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ results: Object.fromEntries(urls.map((url) => [url, FOUND])) }),
});
const refusal = (status: number, message: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ error: { code: 'refused', message } }),
});
const FREE_LIMIT = 'The free lookups for today are used up.';

describe('apiLookups, an API that refuses or fails', () => {
  let server: Server;
  let api: string;
  const requests: string[][] = [];
  let answer: (n: number, urls: string[]) => Answer = (_n, urls) => ok(urls);

  beforeAll(async () => {
    ({ url: api, server } = await startStandInApi(({ urls }) => {
      requests.push(urls);
      return answer(requests.length - 1, urls);
    }));
  });

  afterAll(() => server.close());

  beforeEach(() => {
    requests.length = 0;
  });

  /** A fake clock and pause: each pause is recorded and moves the clock on at once. */
  function fakeTime(): Required<Pick<ApiLookupOptions, 'now' | 'sleep'>> & { pauses: number[] } {
    let time = 1_000_000;
    const pauses: number[] = [];
    return {
      pauses,
      now: () => time,
      sleep: async (ms) => {
        pauses.push(ms);
        time += ms;
      },
    };
  }
  const call = () => ({ signal: new AbortController().signal });

  it('stops sending after a 402: every later link is `limit` without a request, and the API’s own message is kept', async () => {
    answer = (n, urls) => (n === 0 ? ok(urls) : refusal(402, FREE_LIMIT));
    const lookups = apiLookups(api, fakeTime());
    expect((await lookups.resolveUrls(links(0), call())).results).toEqual(
      Object.fromEntries(links(0).map((url) => [url, FOUND])),
    );
    for (const from of [4, 8, 12]) {
      expect(await lookups.resolveUrls(links(from), call())).toEqual({
        results: {},
        failures: Object.fromEntries(links(from).map((url) => [url, 'limit'])),
        final: true,
      });
    }
    expect(requests).toHaveLength(2);
    expect(lookups.stats).toMatchObject({
      apiRequests: 2,
      links: 4,
      refused: { status: 402, message: FREE_LIMIT },
    });
  });

  it(`waits out a 429 whose Retry-After is at most ${MAX_RETRY_AFTER_WAIT_MS / 1000} s, then sends again; a longer one stops sending (\`throttled\`)`, async () => {
    answer = (n, urls) =>
      n === 0
        ? refusal(429, 'Please wait 53 seconds.', { 'retry-after': '53' })
        : n === 1
          ? ok(urls)
          : refusal(429, 'Please wait an hour.', { 'retry-after': '3600' });
    const time = fakeTime();
    const lookups = apiLookups(api, time);
    expect(Object.keys((await lookups.resolveUrls(links(0), call())).results)).toEqual(links(0));
    expect(time.pauses).toEqual([53_000]);
    expect(requests).toEqual([links(0), links(0)]);
    for (const from of [4, 8]) {
      expect((await lookups.resolveUrls(links(from), call())).failures).toEqual(
        Object.fromEntries(links(from).map((url) => [url, 'throttled'])),
      );
    }
    expect(requests).toHaveLength(3);
    expect(lookups.stats).toMatchObject({
      links: 4,
      retried: 4,
      waits: 1,
      refused: { status: 429, message: 'Please wait an hour.' },
    });
  });

  it(`waits out at most ${MAX_THROTTLED_IN_A_ROW} short 429s in a row: an API that keeps asking to wait is refused for good`, async () => {
    answer = () => refusal(429, 'Please wait a moment.', { 'retry-after': '2' });
    const time = fakeTime();
    const lookups = apiLookups(api, time);
    for (const from of [0, 4, 8]) {
      expect((await lookups.resolveUrls(links(from), call())).failures).toEqual(
        Object.fromEntries(links(from).map((url) => [url, 'throttled'])),
      );
    }
    // Three waits, then the fourth 429 is the refusal; nothing more is sent.
    expect(time.pauses).toEqual([2_000, 2_000, 2_000]);
    expect(requests).toHaveLength(MAX_THROTTLED_IN_A_ROW + 1);
    expect(lookups.stats).toMatchObject({
      links: 0,
      waits: MAX_THROTTLED_IN_A_ROW,
      refused: { status: 429, message: 'Please wait a moment.' },
    });
  });

  it('treats a 429 without Retry-After as a refusal for the rest of the run', async () => {
    answer = () => refusal(429, 'Too many requests.');
    const lookups = apiLookups(api, fakeTime());
    for (const from of [0, 4]) {
      // Final: the pipeline waits for no retry round (it waited 35 s for three, sending nothing).
      expect(await lookups.resolveUrls(links(from), call())).toEqual({
        results: {},
        failures: Object.fromEntries(links(from).map((url) => [url, 'throttled'])),
        final: true,
      });
    }
    expect(requests).toHaveLength(1);
  });

  it('ends a Retry-After wait when the run stops (thrown on) or the batch’s deadline passes (`throttled`)', async () => {
    answer = () => refusal(429, 'Please wait.', { 'retry-after': '30' });
    const waiting: AbortSignal[] = [];
    const lookups = apiLookups(api, {
      // A pause that only its signal ends.
      sleep: (_ms, signal) => {
        waiting.push(signal);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
      },
    });
    const stop = new AbortController();
    const stopped = lookups.resolveUrls(links(0), { signal: stop.signal });
    await until(() => waiting.length === 1);
    stop.abort();
    await expect(stopped).rejects.toThrow();
    const deadline = new AbortController();
    const late = lookups.resolveUrls(links(4), { signal: deadline.signal });
    await until(() => waiting.length === 2);
    deadline.abort(new DOMException('no answer', 'TimeoutError'));
    expect((await late).failures).toEqual(
      Object.fromEntries(links(4).map((url) => [url, 'throttled'])),
    );
    // The second call waited out the first one's Retry-After before sending anything.
    expect(requests).toHaveLength(1);
  });

  it('counts requests failed with 5xx or 404 by status, and throws them on for the pipeline to retry', async () => {
    answer = (n) =>
      n < 3
        ? { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>500</h1>' }
        : refusal(503, 'Shutting down.');
    const lookups = apiLookups(api, fakeTime());
    for (let n = 0; n < 4; n += 1) {
      await expect(lookups.resolveUrls(links(4 * n), call())).rejects.toMatchObject({
        status: n < 3 ? 500 : 503,
      });
    }
    expect(lookups.stats).toMatchObject({
      apiRequests: 4,
      links: 0,
      apiErrors: { 500: 3, 503: 1 },
    });
    expect(lookups.stats.refused).toBeUndefined();
  });

  it('calls an OK answer that is not JSON not a PlacePort API, never “out of reach”', async () => {
    answer = () => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><title>Sign in to the Wi-Fi</title></html>',
    });
    const lookups = apiLookups(api, fakeTime());
    for (let n = 0; n <= API_UNREACHABLE_AFTER; n += 1) {
      await expect(lookups.resolveUrls(links(4 * n), call())).rejects.toThrow(
        'answered something that is not a PlacePort API',
      );
    }
    expect(lookups.stats.notAnApi).toEqual({
      requests: API_UNREACHABLE_AFTER + 1,
      detail: 'not JSON, text/html',
    });
    expect(lookups.stats.unreachable).toBeUndefined();
  });
});

describe('placeport --api, what the summary says when the API refuses or fails', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let server: Server;
  let api: string;
  let requests = 0;
  let answer: (n: number) => Answer;
  // 40 places in one list, every one a Takeout place link without coordinates: 10 requests of 4.
  const takeout = generateTakeout({
    seed: 23,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Trip', places: 40, kinds: { ftid: 1 } }],
  });
  const places = takeout.lists[0]!.places.length;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('api-refusals'));
    ({ url: api, server } = await startStandInApi(() => answer(requests++)));
    await writeFile(path.join(dir, 'takeout.zip'), takeout.zip);
  });

  afterAll(async () => {
    server.close();
    await remove();
  });

  const convert = (out: string, more: string[] = []) =>
    run(
      [
        'convert',
        path.join(dir, 'takeout.zip'),
        '--out',
        path.join(dir, out),
        '--api',
        api,
        ...more,
      ],
      { google: NOWHERE, cacheHome: dir },
    );

  it('a 429 for an hour: stops sending, counts nothing refused as looked up, quotes the API', async () => {
    requests = 0;
    answer = () => refusal(429, 'Please wait 3600 seconds.', { 'retry-after': '3600' });
    const [result, text] = await Promise.all([
      convert('throttled', ['--json']),
      convert('throttled-text'),
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.totals.unplaced).toEqual({ throttled: places });
    // Per run, only the requests in flight at once (2) reached the API; the retry round sent nothing.
    expect(requests).toBeLessThanOrEqual(4);
    expect(summary.lookups.apiRequests).toBeLessThanOrEqual(2);
    expect(summary.lookups).toMatchObject({
      links: 0,
      refused: { status: 429, message: 'Please wait 3600 seconds.' },
    });
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('Looked up');
    expect(text.stdout).toContain(
      'The PlacePort API refused the lookups (429: Please wait 3600 seconds.).',
    );
    expect(text.stdout).not.toContain('{"error"');
  });

  it('5xx to every request: exit 0, but the summary (and stderr with --json) names the status', async () => {
    requests = 0;
    answer = () => ({
      status: 500,
      headers: { 'content-type': 'text/html' },
      body: '<html><body><h1>500 Internal Server Error</h1>nginx</body></html>',
    });
    // Both wait out the pipeline's retry pause: side by side, not in turn.
    const [json, text] = await Promise.all([
      convert('failing', ['--json']),
      convert('failing-text'),
    ]);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as CliSummary;
    expect(summary.totals.unplaced).toEqual({ unavailable: places });
    // Each run: 10 requests and the retry round's first, which the same 500 stops.
    const perRun = summary.lookups.apiRequests;
    expect(summary.lookups.apiErrors).toEqual({ 500: perRun });
    const sentence = `The PlacePort API at ${api} answered 500 to ${perRun} requests; give the failed-places CSVs back to placeport convert later, or without --api to look them up from this computer (a retry needs no --force).`;
    expect(json.stderr).toContain(`placeport: ${sentence}`);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(sentence);
    expect(text.stdout).not.toContain('Looked up');
  });
});
