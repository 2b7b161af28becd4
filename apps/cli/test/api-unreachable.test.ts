/**
 * `--api` on a PlacePort API that cannot reach Google: it answers 503 `google_unreachable`, the
 * run stops sending at once, every list is written with what has coordinates, and the summary
 * names the cause (the API's, not the network's between here and the API), exit 3.
 */
import { generateTakeout } from '@placeport/testkit';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLookups, API_UNREACHABLE_AFTER } from '../src/lookups.js';
import type { CliSummary } from '../src/summary.js';
import { NOWHERE, run, tempFolder } from './support.js';

describe('placeport --api, the API out of reach of Google', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let server: Server;
  let api: string;
  let requests = 0;
  // 12 places in each of 3 lists, every one a Takeout place link without coordinates.
  const takeout = generateTakeout({
    seed: 17,
    quirks: false,
    includeNonPlaceLists: false,
    lists: ['A', 'B', 'C'].map((name) => ({ name, places: 12, kinds: { ftid: 1 } })),
  });
  const places = takeout.lists.reduce((sum, list) => sum + list.places.length, 0);

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('api-unreachable'));
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '60' });
        res.end(
          JSON.stringify({
            error: {
              code: 'google_unreachable',
              message:
                'Google cannot be reached from this server right now, so these links were not looked up.',
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.close();
    await remove();
  });

  it('stops at the first answer, writes every list, names the cause, exit 3', async () => {
    const archive = path.join(dir, 'takeout.zip');
    await writeFile(archive, takeout.zip);
    const args = ['convert', archive, '--out', path.join(dir, 'out'), '--api', api];
    const where = { google: NOWHERE, cacheHome: dir };
    const json = await run([...args, '--json'], where);
    expect(json.code).toBe(3);
    const summary = JSON.parse(json.stdout) as CliSummary;
    expect(summary.totals.unplaced).toEqual({ unavailable: places });
    expect(summary.lookups.unreachable).toEqual({
      cause: 'it cannot reach Google',
      answered: true,
    });
    // The first answer stopped the run: only the requests already in flight (2) were sent, and
    // nothing was retried (9 requests of 4 links would have followed, then a retry round).
    expect(requests).toBeLessThanOrEqual(2);
    expect(summary.lists.map((list) => list.files.length)).toEqual([1, 1, 1]);

    const text = await run([...args, '--force'], where);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(
      `The PlacePort API at ${api} cannot reach Google: try again later, or run without --api to look places up from this computer; ${places} places were not looked up and are in the failed-places CSVs.`,
    );
  });
});

describe('apiLookups, an API that takes requests and never answers', () => {
  /** A fetch that never answers: only its signal ends it, with the signal's reason. */
  const silent: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) =>
      init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
    );
  const link = 'https://www.google.com/maps/place/x/data=!4m2!3m1!1s0x1:0x2';

  it(`counts a request its deadline ended as unanswered: the ${API_UNREACHABLE_AFTER}rd in a row stops the run`, async () => {
    const lookups = apiLookups('http://127.0.0.1:9', silent);
    const send = (ended: 'deadline' | 'stop') => {
      const controller = new AbortController();
      const answer = lookups.resolveUrls([link], { signal: controller.signal });
      controller.abort(
        ended === 'deadline' ? new DOMException('no answer', 'TimeoutError') : undefined,
      );
      return answer;
    };
    // A run that stops asking is not the API's doing: thrown on, never counted.
    for (let i = 0; i < API_UNREACHABLE_AFTER + 1; i += 1)
      await expect(send('stop')).rejects.toThrow();
    for (let i = 1; i < API_UNREACHABLE_AFTER; i += 1)
      await expect(send('deadline')).rejects.toThrow();
    expect(await send('deadline')).toEqual({
      results: {},
      failures: { [link]: 'unavailable' },
      unreachable: true,
    });
    expect(lookups.stats.unreachable).toEqual({ cause: 'no answer in time' });
  });
});
