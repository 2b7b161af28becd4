import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAllowedFetchUrl, MAX_REDIRECTS } from '@placeport/resolver';
import { startCanary, startStack, type Stack } from './support.js';

let stack: Stack;
let canary: Awaited<ReturnType<typeof startCanary>>;

beforeAll(async () => {
  stack = await startStack();
  canary = await startCanary();
  const chain = (from: string, to: string) => stack.google.addRedirect(from, to);
  chain('https://maps.app.goo.gl/leave', 'https://evil.example/steal');
  chain('https://maps.app.goo.gl/leave-ip', `http://127.0.0.1:${canary.port}/`);
  chain('https://maps.app.goo.gl/leave-https-ip', `https://127.0.0.1:${canary.port}/maps`);
  chain('https://maps.app.goo.gl/leave-http', 'http://www.google.com/maps/place/x');
  chain('https://maps.app.goo.gl/leave-port', 'https://www.google.com:8443/maps/place/x');
  chain('https://maps.app.goo.gl/leave-userinfo', 'https://www.google.com@evil.example/maps');
  chain('https://maps.app.goo.gl/leave-lookalike', 'https://www.google.com.evil.example/maps');
  chain('https://maps.app.goo.gl/leave-relative', '//evil.example/maps');
  chain('https://maps.app.goo.gl/leave-registry', 'https://maps.google.com.de/maps/place/x');
  for (let hop = 0; hop < MAX_REDIRECTS + 1; hop += 1) {
    chain(`https://maps.app.goo.gl/loop${hop}`, `https://maps.app.goo.gl/loop${hop + 1}`);
  }
});
afterAll(async () => {
  await stack.close();
  await canary.close();
});
beforeEach(() => {
  stack.google.clearRequests();
  stack.upstream.calls.length = 0;
});

/** Every request the resolver made went to the fake, naming only allowlisted hosts. */
function expectOnlyAllowlistedRequests(): void {
  for (const call of stack.upstream.calls) {
    expect(call.url.startsWith(`${stack.google.url}/`)).toBe(true);
    expect(isAllowedFetchUrl(new URL(`https://${call.upstreamHost}/maps/`))).toBe(true);
  }
  for (const request of stack.google.requests) {
    expect(['www.google.com', 'maps.app.goo.gl', 'goo.gl']).toContain(request.host);
  }
  expect(canary.hits()).toBe(0);
}

describe('SSRF: links outside the allowlist are never requested', () => {
  it.each([
    ['another host', 'https://evil.example/maps/place/x'],
    ['a look-alike suffix', 'https://www.google.com.evil.example/maps/place/x'],
    ['a look-alike prefix', 'https://wwwgoogle.com/maps/place/x'],
    ['userinfo pointing elsewhere', 'https://www.google.com@evil.example/maps'],
    ['userinfo on a Google host', 'https://evil.example@www.google.com/maps'],
    ['an IPv4 literal', () => `https://127.0.0.1:${canary.port}/maps`],
    ['an http IPv4 literal', () => `http://127.0.0.1:${canary.port}/maps?cid=1`],
    ['a decimal IP', 'https://2130706433/maps'],
    ['an IPv6 literal', 'https://[::1]/maps'],
    ['plain http on a look-alike', 'http://www.google.com.evil.example/maps/place/x'],
    ['an odd port', 'https://www.google.com:8443/maps/place/x'],
    ['an odd port with a place id', 'https://www.google.com:8443/maps?cid=123'],
    ['another scheme', 'ftp://www.google.com/maps'],
    ['a file URL', 'file:///etc/passwd'],
    ['a Google page that is not Maps', 'https://www.google.com/url?q=https://evil.example'],
    ['goo.gl outside /maps', 'https://goo.gl/AbCd'],
    ['the consent host', 'https://consent.google.com/ml'],
    ['a place id on another host', 'https://evil.example/?cid=123'],
  ])('refuses %s without any request', async (_name, vector) => {
    const link = typeof vector === 'function' ? vector() : vector;
    const { status, body } = await stack.post('/api/resolve-urls-batch', { urls: [link] });
    expect(status).toBe(200);
    expect(body.results).toEqual({});
    expect(body.failures).toEqual({ [link]: 'not_allowed' });
    expect(stack.upstream.calls).toHaveLength(0);
    expect(stack.google.requests).toHaveLength(0);
    expect(canary.hits()).toBe(0);
  });

  it("reads plain http on Google's own host as https (Takeout writes starred links so): only that host is asked", async () => {
    const link = 'http://www.google.com/maps/place/x';
    const { status, body } = await stack.post('/api/resolve-urls-batch', { urls: [link] });
    expect(status).toBe(200);
    expect(body.failures).not.toEqual({ [link]: 'not_allowed' });
    expect(stack.google.requests.map((request) => request.host)).toEqual(['www.google.com']);
    expectOnlyAllowlistedRequests();
  });

  it.each([
    ['to another host', 'leave'],
    ['to an http IP literal', 'leave-ip'],
    ['to an https IP literal', 'leave-https-ip'],
    ['down to http', 'leave-http'],
    ['to an odd port', 'leave-port'],
    ['through userinfo', 'leave-userinfo'],
    ['to a look-alike host', 'leave-lookalike'],
    ['through a scheme-relative URL', 'leave-relative'],
    ['to a name under a registry that sells subdomains', 'leave-registry'],
  ])('stops at a redirect %s: only the short link itself is requested', async (_name, code) => {
    const { body } = await stack.post('/api/resolve-urls-batch', {
      urls: [`https://maps.app.goo.gl/${code}`],
    });
    expect(body.results).toEqual({});
    expect(stack.google.requests.map((request) => `${request.host}${request.path}`)).toEqual([
      `maps.app.goo.gl/${code}`,
    ]);
    expectOnlyAllowlistedRequests();
  });

  it(`follows at most ${MAX_REDIRECTS} redirects`, async () => {
    const { body } = await stack.post('/api/resolve-urls-batch', {
      urls: ['https://maps.app.goo.gl/loop0'],
    });
    expect(body.results).toEqual({});
    expect(stack.google.requests.map((request) => request.path)).toEqual(
      Array.from({ length: MAX_REDIRECTS + 1 }, (_, hop) => `/loop${hop}`),
    );
    expectOnlyAllowlistedRequests();
  });

  it(`resolves a chain of exactly ${MAX_REDIRECTS} redirects`, async () => {
    const base = 'https://maps.app.goo.gl/five';
    for (let hop = 0; hop < MAX_REDIRECTS - 1; hop += 1) {
      stack.google.addRedirect(`${base}${hop}`, `${base}${hop + 1}`);
    }
    stack.google.addRedirect(`${base}${MAX_REDIRECTS - 1}`, 'https://www.google.com/maps?cid=4242');
    const { body } = await stack.post('/api/resolve-urls-batch', { urls: [`${base}0`] });
    expect(Object.keys(body.results as object)).toEqual([`${base}0`]);
    expect(stack.google.requests).toHaveLength(MAX_REDIRECTS + 1);
    expectOnlyAllowlistedRequests();
  });

  // Its own server: a refusal opens the breaker of the place-page path for the whole process.
  it('stops at a redirect to the consent wall and reports the link as throttled', async () => {
    const own = await startStack();
    try {
      const link = 'https://maps.app.goo.gl/consent';
      own.google.addRedirect(link, 'https://consent.google.com/ml?continue=x');
      const { body } = await own.post('/api/resolve-urls-batch', { urls: [link] });
      expect(body).toEqual({ results: {}, failures: { [link]: 'throttled' } });
      expect(own.google.requests.map((request) => `${request.host}${request.path}`)).toEqual([
        'maps.app.goo.gl/consent',
      ]);
    } finally {
      await own.close();
    }
  });
});
