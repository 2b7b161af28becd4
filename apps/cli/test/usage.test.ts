import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../src/usage.js';

const convert = (api: string) =>
  parseCommandLine(
    ['convert', 'takeout.zip', '--out', 'maps', '--api', api],
    {
      googleMapsApiKey: undefined,
    },
    '/cache/places-v1.json',
  );

describe('--api', () => {
  it('takes the API’s root, with or without its slash', () => {
    for (const base of ['http://127.0.0.1:8080', 'https://placeport.example/']) {
      expect(convert(base)).toMatchObject({ lookups: { kind: 'api', apiBase: base } });
    }
  });

  it('refuses a user name or password as wrong usage, without echoing the password', () => {
    for (const base of ['http://user:s3cret@127.0.0.1:8080', 'http://s3cret@127.0.0.1:8080/']) {
      expect(() => convert(base)).toThrow(UsageError);
      expect(() => convert(base)).toThrow(/must not hold a user name or password/);
      expect(() => convert(base)).not.toThrow(/s3cret/);
    }
  });

  it("refuses a port fetch never connects to (the Fetch standard's bad ports), which would only read as unreachable", () => {
    for (const port of [1, 25, 6000, 6667, 10080]) {
      expect(() => convert(`http://127.0.0.1:${port}`)).toThrow(
        `--api port ${port} is one fetch never connects to (kept for other services by the Fetch standard): run the PlacePort API on another port, such as 8080`,
      );
    }
    for (const port of [80, 443, 3000, 5999, 6001, 8080]) {
      expect(() => convert(`http://127.0.0.1:${port}`)).not.toThrow();
    }
  });

  it('refuses a path, a query or a fragment (the API serves /api/… at its root), naming the root', () => {
    for (const base of [
      'http://127.0.0.1:8080/placeport/',
      'http://127.0.0.1:8080/api',
      'http://127.0.0.1:8080/?key=1',
      'http://127.0.0.1:8080/#top',
    ]) {
      expect(() => convert(base)).toThrow(
        "--api must be the API's root, without a path, query or fragment (it serves /api/… there), e.g. http://127.0.0.1:8080",
      );
    }
  });
});

describe('options that take one value', () => {
  const parse = (...args: string[]) =>
    parseCommandLine(
      ['convert', 'takeout.zip', ...args],
      { googleMapsApiKey: undefined },
      '/cache/places-v1.json',
    );

  it('refuses one given twice, rather than keep the last without a word', () => {
    expect(() => parse('--out', 'a', '--out', 'b')).toThrow(
      '--out was given 2 times: give it once',
    );
    expect(() => parse('--out', 'a', '--cache-file', 'x', '--cache-file=y')).toThrow(
      '--cache-file was given 2 times: give it once',
    );
    // --list and --format are the ones given as often as wanted.
    expect(
      parse('--out', 'a', '--list', 'A', '--list', 'B', '--format', 'kml', '--format', 'gpx'),
    ).toMatchObject({
      lists: ['A', 'B'],
      formats: ['kml', 'gpx'],
    });
  });

  it('refuses --cache-file where no cache file is used, as --google-maps-api-key is', () => {
    expect(() =>
      parse('--out', 'a', '--api', 'http://127.0.0.1:8080', '--cache-file', 'c.json'),
    ).toThrow('--cache-file is for lookups from this computer; it does nothing with --api');
    expect(() => parse('--out', 'a', '--offline', '--cache-file', 'c.json')).toThrow(
      '--cache-file is for lookups from this computer; it does nothing with --offline',
    );
    expect(parse('--out', 'a', '--cache-file', 'c.json')).toMatchObject({ cacheFile: 'c.json' });
  });
});
