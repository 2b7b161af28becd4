import { describe, expect, it } from 'vitest';
import { readEnvironment } from '../src/config.js';
import { emptyStats } from '../src/lookups.js';
import { formatSummary, type CliSummary } from '../src/summary.js';

/** One list of 5,629 places, 4,815 of them not reachable, on a machine without Google. */
function offTheNetwork(): CliSummary {
  const unplaced = { unavailable: 4_815, no_link: 118 };
  return {
    outDir: 'out',
    lists: [
      {
        name: 'Everything',
        path: 'Takeout/Saved/Everything.csv',
        total: 5_629,
        converted: 696,
        skipped: 4_933,
        resolved: 0,
        unplaced,
        files: ['out/Everything.kml', 'out/Everything - failed-places.csv'],
      },
    ],
    totals: { total: 5_629, converted: 696, skipped: 4_933, unplaced },
    lookups: {
      ...emptyStats('local'),
      links: 1_200,
      upstreamRequests: { pages: 1_039, places: 0 },
      unreachable: { cause: 'DNS found no address for www.google.com' },
    },
    cache: null,
  };
}

describe('the summary a person reads', () => {
  it('writes counts as people do (4,815), and says lookups were tried when Google was out of reach', () => {
    const text = formatSummary(offTheNetwork());
    expect(text).toContain('✓ Everything: 696 of 5,629 places placed, 4,933 without coordinates:');
    expect(text).toContain(
      '4,815  The lookup failed (network, timeout or server error); try again',
    );
    expect(text).toContain('696 of 5,629 places placed.');
    expect(text).toContain(
      'Tried to look up 1,200 distinct places from this computer: 0 from the cache file, 1,039 requests to Google.',
    );
    expect(text).toContain(
      'Cannot reach Google (DNS found no address for www.google.com); 4,815 places were not looked up and are in the failed-places CSV. Check your connection, then give those back to placeport convert to look them up (a retry needs no --force).',
    );
  });
});

describe('where the files are', () => {
  it('names the folder when a file was written, and says none was when none was', () => {
    expect(formatSummary(offTheNetwork()).split('\n').at(-1)).toBe('Files are in out');
    const nothing = offTheNetwork();
    nothing.lists[0]!.files = [];
    expect(formatSummary(nothing).split('\n').at(-1)).toBe('No file was written to out.');
  });
});

describe('a failed-places CSV that could not be written', () => {
  it('is not pointed to as holding those places; the list is marked ✗ with the reason', () => {
    const summary = offTheNetwork();
    const [list] = summary.lists;
    list!.files = ['out/Everything.kml'];
    list!.notWritten = [
      { file: 'out/Everything - failed-places.csv', reason: 'the disk is full (ENOSPC)' },
    ];
    const text = formatSummary(summary);
    expect(text).toContain('✗ Everything: 696 of 5,629 places placed');
    expect(text).toContain('    out/Everything - failed-places.csv: the disk is full (ENOSPC)');
    expect(text).toContain(
      '4,933 places without coordinates (listed in the failed-places CSVs, with the reason, but for the lists whose CSV could not be written: ✗ above):',
    );
    // Written, the plain sentence.
    expect(formatSummary(offTheNetwork())).toContain(
      '4,933 places without coordinates (listed in the failed-places CSVs, with the reason):',
    );
  });
});

describe('what the summary says of an API that failed, and of a proxy', () => {
  /** 8 places, none placed, looked up through an API at `api`. */
  function throughApi(lookups: Partial<CliSummary['lookups']>): CliSummary {
    const unplaced = { unavailable: 8 };
    return {
      outDir: 'out',
      lists: [
        {
          name: 'Trip',
          path: 'Takeout/Saved/Trip.csv',
          total: 8,
          converted: 0,
          skipped: 8,
          resolved: 0,
          unplaced,
          files: ['out/Trip - failed-places.csv'],
        },
      ],
      totals: { total: 8, converted: 0, skipped: 8, unplaced },
      lookups: { ...emptyStats('api'), api: 'http://api.example', apiRequests: 3, ...lookups },
      cache: null,
    };
  }

  it('names the statuses, most requests first, and points at the address for a 404', () => {
    expect(formatSummary(throughApi({ apiErrors: { 503: 1, 404: 2 } }))).toContain(
      'The PlacePort API at http://api.example answered 404 to 2 requests and 503 to 1 request; check the --api address, then give the failed-places CSVs back to placeport convert, or without --api to look them up from this computer (a retry needs no --force).',
    );
  });

  it('says when what answered is not a PlacePort API', () => {
    expect(
      formatSummary(throughApi({ notAnApi: { requests: 3, detail: 'not JSON, text/html' } })),
    ).toContain(
      'The server at http://api.example answered something that is not a PlacePort API to 3 requests (not JSON, text/html): check the --api address',
    );
  });

  it('after a refusal, points to what works with files already written: the CSVs back, or --force', () => {
    const refused = throughApi({
      refused: { status: 402, message: 'The free lookups are used up.' },
    });
    expect(formatSummary(refused)).toContain(
      'The PlacePort API refused the lookups (402: The free lookups are used up.). Places it did not look up are in the failed-places CSVs. To look them up from your own computer instead, give those CSVs back to placeport convert without --api (a retry needs no --force), or run the same command without --api and with --force.',
    );
    const local = offTheNetwork();
    delete local.lookups.unreachable;
    local.cache = { file: 'places-v1.json', loaded: 0, saved: 12 };
    const text = formatSummary(local);
    expect(text).toContain(
      'Some lookups were refused by Google or failed (in the failed-places CSVs): give those back to placeport convert later (a retry needs no --force), or run the same command again with --force. Places already found are in the cache file and are not looked up again.',
    );
    expect(text).not.toContain('run the same command again later');
  });

  it('names the proxy the lookups went through, or the one set that they could not use, when they could not get through', () => {
    const text = formatSummary(
      throughApi({ unreachable: { cause: 'connection refused' }, proxy: 'HTTPS_PROXY' }),
    );
    expect(text).toContain(
      "The lookups went through the proxy in HTTPS_PROXY (unless NO_PROXY names the API's host): check that it is running and lets the API through",
    );
    const local = offTheNetwork();
    local.lookups.proxy = 'http_proxy';
    expect(formatSummary(local)).toContain(
      'The lookups went through the proxy in http_proxy: check that it is running and lets Google through',
    );
    delete local.lookups.proxy;
    local.lookups.proxyUnsupported = 'ALL_PROXY';
    expect(formatSummary(local)).toContain(
      'ALL_PROXY is set, but placeport goes only through http(s) proxies given in HTTPS_PROXY or HTTP_PROXY: its lookups went straight to Google.',
    );
    expect(formatSummary(offTheNetwork())).not.toContain('prox');
  });

  it('reads the proxy variables as curl and npm do', () => {
    const proxies = (env: Record<string, string>) => readEnvironment(env).proxies;
    // Lower case first; an http proxy serves https origins when no https one is given.
    expect(
      proxies({
        https_proxy: 'http://a:3128',
        HTTPS_PROXY: 'http://b:3128',
        HTTP_PROXY: 'http://c:8080',
      }),
    ).toEqual({
      https: { variable: 'https_proxy', url: 'http://a:3128' },
      http: { variable: 'HTTP_PROXY', url: 'http://c:8080' },
    });
    expect(proxies({ HTTP_PROXY: 'http://c:8080', no_proxy: 'localhost' })).toEqual({
      https: { variable: 'HTTP_PROXY', url: 'http://c:8080' },
      http: { variable: 'HTTP_PROXY', url: 'http://c:8080' },
      noProxy: 'localhost',
    });
    expect(proxies({ HTTP_PROXY: ' ' })).toEqual({});
    // A SOCKS proxy, or ALL_PROXY alone, is not gone through, and named.
    expect(proxies({ HTTPS_PROXY: 'socks5://s:1080' })).toEqual({ unsupported: 'HTTPS_PROXY' });
    expect(proxies({ all_proxy: 'socks5://s:1080' })).toEqual({ unsupported: 'all_proxy' });
    expect(proxies({ ALL_PROXY: 'http://p:3128', HTTPS_PROXY: 'http://q:3128' })).toEqual({
      https: { variable: 'HTTPS_PROXY', url: 'http://q:3128' },
    });
    expect(proxies({ HTTPS_PROXY: 'http://[not a url' })).toEqual({ unsupported: 'HTTPS_PROXY' });
    // Without a scheme, as curl reads it: an http proxy.
    expect(proxies({ HTTPS_PROXY: 'proxy.example:3128' })).toEqual({
      https: { variable: 'HTTPS_PROXY', url: 'http://proxy.example:3128' },
    });
  });
});
