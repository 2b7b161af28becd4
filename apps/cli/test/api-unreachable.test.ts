/**
 * `--api` on a PlacePort API that cannot reach Google: it answers 503 `google_unreachable`, the
 * run stops sending at once, every list is written with what has coordinates, and the summary
 * names the cause (the API's, not the network's between here and the API), exit 3. And an API that
 * takes requests and never answers is given up on at the batch's deadline.
 */
import { generateTakeout } from '@placeport/testkit';
import { writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLookups, API_UNREACHABLE_AFTER } from '../src/lookups.js';
import type { CliSummary } from '../src/summary.js';
import { NOWHERE, run, startStandInApi, tempFolder, until } from './support.js';

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
    ({ url: api, server } = await startStandInApi(() => {
      requests += 1;
      return {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '60' },
        body: JSON.stringify({
          error: {
            code: 'google_unreachable',
            message:
              'Google cannot be reached from this server right now, so these links were not looked up.',
          },
        }),
      };
    }));
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
    // Nothing the API could not look up is counted as looked up.
    expect(summary.lookups.links).toBe(0);
    // The first answer stopped the run: only the requests already in flight (2) were sent, and
    // nothing was retried (9 requests of 4 links would have followed, then a retry round).
    expect(requests).toBeLessThanOrEqual(2);
    expect(summary.lists.map((list) => list.files.length)).toEqual([1, 1, 1]);

    const text = await run([...args, '--force'], where);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(
      `The PlacePort API at ${api} cannot reach Google; ${places} places were not looked up and are in the failed-places CSVs. Give those back to placeport convert later, or without --api to look them up from this computer (a retry needs no --force).`,
    );
    expect(text.stdout).not.toContain('Looked up');
  });
});

describe('apiLookups, an API that takes requests and never answers', () => {
  let silent: Server;
  let api: string;
  let received = 0;

  beforeAll(async () => {
    // Reads each request whole, then says nothing: only the client's signal ends it.
    ({ url: api, server: silent } = await startStandInApi(() => {
      received += 1;
      return undefined;
    }));
  });

  afterAll(() => {
    silent.closeAllConnections();
    silent.close();
  });

  const link = 'https://www.google.com/maps/place/x/data=!4m2!3m1!1s0x1:0x2';

  /** Sends one request and, once the API has it, ends it as the run's stop or the batch's deadline does. */
  async function send(lookups: ReturnType<typeof apiLookups>, ended: 'deadline' | 'stop') {
    const controller = new AbortController();
    const before = received;
    const answer = lookups.resolveUrls([link], { signal: controller.signal });
    await until(() => received > before);
    controller.abort(
      ended === 'deadline' ? new DOMException('no answer', 'TimeoutError') : undefined,
    );
    return answer;
  }

  it('gives up at the first request its deadline ended (no answer in the whole deadline), not the third', async () => {
    const lookups = apiLookups(api);
    // A run that stops asking is not the API's doing: thrown on, never counted.
    for (let i = 0; i < API_UNREACHABLE_AFTER + 1; i += 1)
      await expect(send(lookups, 'stop')).rejects.toThrow();
    expect(lookups.stats.unreachable).toBeUndefined();
    expect(await send(lookups, 'deadline')).toEqual({
      results: {},
      failures: { [link]: 'unavailable' },
      unreachable: true,
    });
    expect(lookups.stats.unreachable).toEqual({ cause: 'no answer in time' });
  });
});
