import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAllowedFetchUrl, isGooglePlaceLink } from './allowlist.js';
import { GOOGLE_SUPPORTED_DOMAINS } from './google-domains.js';

describe("Google's list of its own domains", () => {
  it("is Google's published list, name for name", () => {
    // The repository's copy of Google's list (testkit's fixture, copied unchanged from
    // shared/data): google-domains.ts must not drift from it.
    const published = new URL(
      '../../../testkit/fixtures/google-domains/supported-domains.txt',
      import.meta.url,
    );
    const names = readFileSync(published, 'utf8')
      .split('\n')
      .map((line) => line.trim().replace(/^\./, ''))
      .filter(Boolean);
    expect([...GOOGLE_SUPPORTED_DOMAINS]).toEqual(names);
    expect(GOOGLE_SUPPORTED_DOMAINS).toHaveLength(187);
  });

  it('allows www. and maps. of every listed domain, and nothing else made of them', () => {
    for (const domain of GOOGLE_SUPPORTED_DOMAINS) {
      expect(isAllowedFetchUrl(new URL(`https://www.${domain}/maps/place/x`))).toBe(true);
      expect(isAllowedFetchUrl(new URL(`https://maps.${domain}/?cid=1`))).toBe(true);
      expect(isAllowedFetchUrl(new URL(`https://${domain}/maps/place/x`))).toBe(false);
      expect(isAllowedFetchUrl(new URL(`https://evil.${domain}/maps/place/x`))).toBe(false);
      expect(isAllowedFetchUrl(new URL(`https://www.${domain}.evil.example/maps`))).toBe(false);
    }
  });

  // Names a `google.<cc>` / `co.<cc>` / `com.<cc>` pattern would match, under registries where
  // anyone can buy the name: none is on Google's list, so none is fetched.
  it.each([
    'maps.google.com.de',
    'www.google.com.de',
    'www.google.co.nl',
    'maps.google.co.nl',
    'www.google.com.fr',
    'maps.google.co.de',
    'www.google.zz',
    'www.google.com.zz',
  ])('refuses the look-alike %s', (host) => {
    expect(isAllowedFetchUrl(new URL(`https://${host}/maps/place/x`))).toBe(false);
    expect(isGooglePlaceLink(new URL(`https://${host}/maps?cid=1`))).toBe(false);
  });
});

describe('isAllowedFetchUrl', () => {
  it.each([
    'https://www.google.com/maps',
    'https://www.google.com/maps/place/Eiffel+Tower/data=!4m2!3m1!1s0x1:0x2',
    'https://www.google.com:443/maps?cid=1',
    'https://www.google.de/maps/place/x',
    'https://www.google.co.uk/maps/place/x',
    'https://www.google.com.au/maps/place/x',
    'https://maps.google.com/?cid=123',
    'https://maps.google.co.jp/maps?cid=123',
    'https://maps.app.goo.gl/AbCdEf123',
    'https://goo.gl/maps/AbCdEf123',
  ])('allows %s', (url) => {
    expect(isAllowedFetchUrl(new URL(url))).toBe(true);
  });

  it.each([
    ['http', 'http://www.google.com/maps/place/x'],
    ['bare domain', 'https://google.com/maps/place/x'],
    ['sorry page', 'https://www.google.com/sorry/index?continue=x'],
    ['maps. sorry page', 'https://maps.google.com/sorry/index?continue=x'],
    ['odd port', 'https://www.google.com:8443/maps'],
    ['userinfo', 'https://user:pass@www.google.com/maps'],
    ['userinfo look-alike', 'https://www.google.com@evil.example/maps'],
    ['look-alike suffix', 'https://www.google.com.evil.example/maps'],
    ['look-alike prefix', 'https://wwwgoogle.com/maps'],
    ['sub-domain of another site', 'https://maps.google.com.evil.example/'],
    ['other host', 'https://evil.example/maps'],
    ['consent wall', 'https://consent.google.com/ml?continue=x'],
    ['Google without /maps', 'https://www.google.com/search?q=x'],
    ['/maps look-alike path', 'https://www.google.com/mapsevil'],
    ['goo.gl outside /maps', 'https://goo.gl/AbCd'],
    ['IPv4 literal', 'https://127.0.0.1/maps'],
    ['decimal IPv4', 'https://2130706433/maps'],
    ['hex IPv4', 'https://0x7f000001/maps'],
    ['IPv6 literal', 'https://[::1]/maps'],
    ['trailing-dot host', 'https://www.google.com./maps'],
    ['ftp', 'ftp://www.google.com/maps'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
  ])('refuses %s (%s)', (_name, url) => {
    expect(isAllowedFetchUrl(new URL(url))).toBe(false);
  });
});

describe('isGooglePlaceLink', () => {
  it.each([
    'http://maps.google.com/?cid=123',
    'https://www.google.com/search?q=x&ludocid=123',
    'https://www.google.co.uk/maps/place/x/data=!4m2!3m1!1s0x1:0x2',
  ])('accepts %s for a lookup by place id', (url) => {
    expect(isGooglePlaceLink(new URL(url))).toBe(true);
  });

  it.each([
    'https://evil.example/?cid=123',
    'http://maps.google.com:8080/?cid=123',
    'https://a@maps.google.com/?cid=123',
    'https://maps.app.goo.gl/x',
    'ftp://maps.google.com/?cid=123',
  ])('refuses %s', (url) => {
    expect(isGooglePlaceLink(new URL(url))).toBe(false);
  });
});
