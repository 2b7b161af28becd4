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
