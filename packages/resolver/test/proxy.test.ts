/**
 * Lookups from a computer that reaches the web only through a proxy (HTTPS_PROXY, a company's
 * network): the resolver's requests go through the proxy's tunnels, with its credentials, and not
 * for hosts NO_PROXY names.
 */
import {
  startFakeGoogle,
  startFakeProxy,
  type FakeGoogle,
  type FakeProxy,
} from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createResolver } from '../src/index.js';
import { createProxiedFetch } from '../src/node/index.js';
import { placeLink, pointOf } from './support.js';

let google: FakeGoogle | undefined;
let proxy: FakeProxy | undefined;
afterEach(async () => {
  await google?.close();
  await proxy?.close();
  google = undefined;
  proxy = undefined;
});

/** A resolver reaching the fake Google (an http origin here) with `fetch`. */
function resolverWith(fetch: typeof globalThis.fetch, origin: string) {
  return createResolver({
    fetch,
    mapsOrigin: origin,
    placesOrigin: origin,
    tuning: { retryDelayMs: 1 },
  });
}

describe('lookups through a proxy', () => {
  it('go through the proxy, with the credentials its URL holds, and find the place', async () => {
    google = await startFakeGoogle();
    proxy = await startFakeProxy({ credentials: 'ana:s3cret/+' });
    const url = new URL(proxy.url);
    url.username = 'ana';
    url.password = encodeURIComponent('s3cret/+');
    const resolver = resolverWith(createProxiedFetch({ httpProxy: url.href }), google.url);
    const link = placeLink(4242, 'Café');
    const { results, failures } = await resolver.resolve([link]);
    expect(failures).toEqual({});
    expect(pointOf(results[link])).toBeDefined();
    const { port } = new URL(google.url);
    expect(proxy.tunnels).toContain(`127.0.0.1:${port}`);
    expect(proxy.refused).toBe(0);
    expect(google.requests.length).toBeGreaterThan(0);
  });

  it('without the credentials the proxy asks for, a lookup fails as the network does, and says why', async () => {
    google = await startFakeGoogle();
    proxy = await startFakeProxy({ credentials: 'ana:s3cret' });
    const errors: unknown[] = [];
    const proxied = createProxiedFetch({ httpProxy: proxy.url });
    const resolver = resolverWith(async (input, init) => {
      try {
        return await proxied(input, init);
      } catch (error) {
        errors.push(error);
        throw error;
      }
    }, google.url);
    const link = placeLink(4243);
    expect((await resolver.resolve([link])).failures).toEqual({ [link]: 'unavailable' });
    expect(proxy.refused).toBeGreaterThan(0);
    expect(google.requests).toHaveLength(0);
    // undici says it two causes down: "Proxy response (407) !== 200 when HTTP Tunneling".
    const messages: string[] = [];
    for (let error = errors[0]; error instanceof Error; error = error.cause) {
      messages.push(error.message);
    }
    expect(messages.join(' / ')).toMatch(/Proxy response \(407\)/);
  });

  it('reaches the hosts NO_PROXY names directly, and an https proxy falls back to the http one', async () => {
    google = await startFakeGoogle();
    proxy = await startFakeProxy();
    const direct = resolverWith(
      createProxiedFetch({ httpProxy: proxy.url, noProxy: 'example.org, 127.0.0.1' }),
      google.url,
    );
    const link = placeLink(4244);
    expect((await direct.resolve([link])).failures).toEqual({});
    expect(proxy.tunnels).toEqual([]);
    // Google's own origins are https: with only an http proxy given, they go through it too (the
    // tunnel opens; TLS then fails against the fake's plain http, which is not what is tested).
    const { port } = new URL(google.url);
    const viaFallback = createProxiedFetch({ httpProxy: proxy.url });
    await expect(viaFallback(`https://127.0.0.1:${port}/`)).rejects.toThrow();
    expect(proxy.tunnels).toEqual([`127.0.0.1:${port}`]);
  });
});
