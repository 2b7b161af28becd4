import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { coordinatesForCid } from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createResolver } from '../src/index.js';
import { createPublicFetch, isPublicAddress } from '../src/node/public-fetch.js';
import { placeLink, pointOf, rig, type Rig } from './support.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

/** Runs `test` with a server on loopback that would answer a secret, counting its connections. */
async function withLoopbackServer(
  test: (port: number, connections: () => number) => Promise<void>,
) {
  let connections = 0;
  const server = createServer((_request, response) => response.end('secret'));
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await test((server.address() as AddressInfo).port, () => connections);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('time bounds', () => {
  // The hanging place never answers and the other bound is 10 minutes: only the bound under test
  // ends these; the bound is 5 s so the other place's one loopback request fits on a loaded machine.
  it('a request that never answers is given up after the request timeout', async () => {
    r = await rig({ tuning: { requestTimeoutMs: 5_000, batchDeadlineMs: 600_000 } });
    r.google.setPlace('401', { hang: true });
    const outcome = await r.resolver.resolve([placeLink(401), placeLink(402)]);
    expect(outcome.failures).toEqual({ [placeLink(401)]: 'unavailable' });
    expect(pointOf(outcome.results[placeLink(402)])).toEqual(coordinatesForCid('402'));
    expect(outcome.report.details).toEqual({ timeout: 1 });
  });

  it('a batch answers by its deadline with what it has, the rest unavailable', async () => {
    r = await rig({ tuning: { batchDeadlineMs: 5_000, requestTimeoutMs: 600_000 } });
    r.google.setPlace('403', { hang: true });
    const outcome = await r.resolver.resolve([placeLink(403), placeLink(404)]);
    expect(outcome.failures).toEqual({ [placeLink(403)]: 'unavailable' });
    expect(Object.keys(outcome.results)).toEqual([placeLink(404)]);
    expect(outcome.report.deadlineHit).toBe(true);
  });

  it('timeouts survive garbage collection (node --expose-gc, forced gc() while waiting)', async () => {
    const script = fileURLToPath(new URL('./fixtures/gc-timeout.ts', import.meta.url));
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', script],
        { encoding: 'utf8' },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    expect(JSON.parse(output)).toEqual({ gcRan: true, failure: 'unavailable', detail: 'timeout' });
  });
});

describe('connections only to public addresses', () => {
  it.each([
    ['loopback', '127.0.0.1', false],
    ['private 10/8', '10.1.2.3', false],
    ['private 192.168/16', '192.168.0.10', false],
    ['link-local (cloud metadata)', '169.254.169.254', false],
    ['IPv6 loopback', '::1', false],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1', false],
    ['unique local IPv6', 'fd00::1', false],
    ['public IPv4', '142.250.185.78', true],
    ['public IPv6', '2a00:1450:4001:82b::200e', true],
  ])('%s (%s) public: %s', (_name, address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses a host that resolves to a private address, before connecting', async () => {
    await withLoopbackServer(async (port, connections) => {
      // DNS (poisoned, rebinding, or an internal override) says Google is on loopback.
      const fetch = createPublicFetch({
        lookup: (_hostname, _options, callback) =>
          callback(null, [{ address: '127.0.0.1', family: 4 }]),
      });
      await expect(fetch(`http://www.google.com:${port}/maps`)).rejects.toThrow();
      expect(connections()).toBe(0);
      const allowed = createPublicFetch({
        lookup: (_hostname, _options, callback) =>
          callback(null, [{ address: '127.0.0.1', family: 4 }]),
      });
      await expect(allowed(`http://maps.google.com:${port}/`)).rejects.toThrow();
      expect(connections()).toBe(0);
    });
  });
});

describe('a host written as an address', () => {
  // Node connects to an address without a DNS lookup, so the lookup's check never sees it.
  it.each([
    ['loopback', (port: number) => `http://127.0.0.1:${port}/`],
    ['IPv4-mapped loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ['loopback as one number', (port: number) => `http://2130706433:${port}/`],
    ['loopback in hex', (port: number) => `http://0x7f.1:${port}/`],
  ])('%s is refused before connecting', async (_name, url) => {
    await withLoopbackServer(async (port, connections) => {
      const error = await createPublicFetch()(url(port)).catch((failure: unknown) => failure);
      expect((error as Error).cause).toMatchObject({
        code: 'ERR_PRIVATE_ADDRESS',
        message: expect.stringMatching(/^(127\.0\.0\.1|::ffff:7f00:1) is not a public address$/),
      });
      expect(connections()).toBe(0);
    });
  });
});

describe('the production fetch', () => {
  // The resolver's requests carry its own timed signals; undici's fetch reads their listener
  // limit. On a machine whose DNS finds nothing, the lookup must fail for that reason (and the
  // run say so), never on the signal before a request is sent.
  it("sends the resolver's requests: a failure is the network's, not the signal's", async () => {
    const reasons: unknown[] = [];
    const publicFetch = createPublicFetch({
      lookup: (hostname, _options, callback) =>
        callback(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
            hostname,
          }),
          [],
        ),
    });
    const resolver = createResolver({
      fetch: async (input, init) => {
        try {
          return await publicFetch(input, init);
        } catch (error) {
          reasons.push((error as Error).cause ?? error);
          throw error;
        }
      },
    });
    const outcome = await resolver.resolve([placeLink(501)]);
    expect(outcome.failures).toEqual({ [placeLink(501)]: 'unavailable' });
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('slots kept for paying customers', () => {
  // The free links hang and every bound is 10 minutes: without slots of its own, the paid batch
  // would wait behind them until the test's own timeout.
  it('32 hanging free links from 32 addresses never hold up a paid 100-place batch', async () => {
    r = await rig({ tuning: { requestTimeoutMs: 600_000, batchDeadlineMs: 600_000 } });
    const hanging = Array.from({ length: 32 }, (_, i) => 7000 + i);
    for (const cid of hanging) r.google.setPlace(String(cid), { hang: true });
    let freeSettled = 0;
    const free = hanging.map((cid, i) =>
      r!.resolver
        .resolve([placeLink(cid)], { requester: { client: `ip:203.0.113.${i}`, priority: 'free' } })
        .finally(() => (freeSettled += 1)),
    );
    const paidLinks = Array.from({ length: 100 }, (_, i) => placeLink(8000 + i));
    const paid = await r.resolver.resolve(paidLinks, {
      requester: { client: 'pay:pi_victim', priority: 'paid' },
    });
    expect(Object.keys(paid.results)).toHaveLength(100);
    expect(paid.failures).toEqual({});
    expect(freeSettled).toBe(0);
    // At most a quarter of the 32 slots went to the hanging free links; the rest waited in line.
    const hangingRequests = r.google.count((request) =>
      hanging.some((cid) => request.path.endsWith(`:0x${cid.toString(16)}`)),
    );
    expect(hangingRequests).toBe(8);
    await r.close();
    r = undefined;
    await Promise.allSettled(free);
  });
});
