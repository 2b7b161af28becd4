/**
 * A computer that reaches the web only through a proxy (a company's network): the built
 * `placeport` looks places up through the proxy HTTPS_PROXY or HTTP_PROXY names (the testkit's
 * fake proxy, which only tunnels to loopback), from this computer and with --api; says why when
 * the proxy refuses; never prints the proxy's password; and says when the proxy set is one it
 * cannot go through (ALL_PROXY, SOCKS).
 */
import {
  generateTakeout,
  startFakeGoogle,
  startFakeProxy,
  type FakeGoogle,
  type FakeProxy,
} from '@placeport/testkit';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliSummary } from '../src/summary.js';
import { NOWHERE, run, startStandInApi, tempFolder } from './support.js';

describe('placeport convert behind a proxy', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;
  let proxy: FakeProxy;
  let archive: string;
  let runs = 0;
  // 6 places, every one a Takeout place link without coordinates: each needs a lookup.
  const takeout = generateTakeout({
    seed: 23,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [{ name: 'Trip', places: 6, kinds: { ftid: 1 } }],
  });

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('proxy'));
    google = await startFakeGoogle();
    proxy = await startFakeProxy({ credentials: 'ana:s3cret' });
    archive = path.join(dir, 'takeout.zip');
    await writeFile(archive, takeout.zip);
  });

  afterAll(async () => {
    await google.close();
    await proxy.close();
    await remove();
  });

  beforeEach(() => {
    google.clearRequests();
    proxy.tunnels.length = 0;
    proxy.refused = 0;
  });

  /** Runs `convert` on the archive into a folder of its own, with `extra` variables. */
  const convert = (extra: Record<string, string>, args: string[] = [], origin = google.url) => {
    runs += 1;
    return run(['convert', archive, '--out', path.join(dir, `out-${runs}`), ...args], {
      google: origin,
      cacheHome: path.join(dir, `cache-${runs}`),
      extra,
    });
  };

  /** The proxy's URL with credentials in it. */
  const withCredentials = (user: string, password: string) => {
    const url = new URL(proxy.url);
    url.username = user;
    url.password = password;
    return url.href;
  };

  it('looks every place up through the proxy, with the credentials its URL holds', async () => {
    const result = await convert({ HTTP_PROXY: withCredentials('ana', 's3cret') }, ['--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.totals).toMatchObject({ total: 6, converted: 6 });
    expect(summary.lookups.proxy).toBe('HTTP_PROXY');
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(google.url).host]));
    expect(google.requests.length).toBeGreaterThan(0);
  });

  it('says the proxy wants a password when it refuses, and never prints the one given', async () => {
    const result = await convert({ HTTP_PROXY: withCredentials('ana', 'wr0ngpass') });
    expect(result.code).toBe(3);
    expect(proxy.refused).toBeGreaterThan(0);
    expect(google.requests).toHaveLength(0);
    expect(result.stdout).toContain(
      'Cannot reach Google (the proxy asks for a user name and password (407));',
    );
    expect(result.stdout).toContain(
      'The lookups went through the proxy in HTTP_PROXY: check that it is running and lets Google through',
    );
    expect(`${result.stdout}${result.stderr}`).not.toContain('wr0ngpass');
  });

  it('reaches hosts NO_PROXY names directly', async () => {
    const result = await convert(
      { HTTP_PROXY: withCredentials('ana', 's3cret'), NO_PROXY: 'localhost,127.0.0.1' },
      ['--json'],
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as CliSummary).totals.converted).toBe(6);
    expect(proxy.tunnels).toEqual([]);
  });

  it('sends --api requests through the proxy too', async () => {
    const links: string[] = [];
    const { url: api, server } = await startStandInApi(({ urls }) => {
      links.push(...urls);
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          results: {},
          failures: Object.fromEntries(urls.map((u) => [u, 'not_found'])),
        }),
      };
    });
    try {
      const result = await convert(
        { HTTP_PROXY: withCredentials('ana', 's3cret') },
        ['--api', api, '--json'],
        NOWHERE,
      );
      const summary = JSON.parse(result.stdout) as CliSummary;
      expect(summary.lookups).toMatchObject({ mode: 'api', proxy: 'HTTP_PROXY' });
      expect(links).toHaveLength(6);
      expect(proxy.tunnels).toContain(new URL(api).host);
    } finally {
      server.close();
    }
  });

  it('says when the proxy set is one it cannot go through (ALL_PROXY, SOCKS)', async () => {
    for (const extra of <Array<Record<string, string>>>[
      { ALL_PROXY: 'socks5://127.0.0.1:1080' },
      { HTTPS_PROXY: 'socks5://127.0.0.1:1080' },
    ]) {
      const result = await convert(extra, [], NOWHERE);
      expect(result.code).toBe(3);
      expect(result.stdout).toContain(
        `${Object.keys(extra)[0]} is set, but placeport goes only through http(s) proxies given in HTTPS_PROXY or HTTP_PROXY: its lookups went straight to Google.`,
      );
    }
  });
});
