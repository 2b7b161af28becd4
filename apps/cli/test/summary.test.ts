import { describe, expect, it } from 'vitest';
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
    expect(text).toContain('4,815  The lookup failed (network or timeout); try again');
    expect(text).toContain('696 of 5,629 places placed.');
    expect(text).toContain(
      'Tried to look up 1,200 places from this computer: 0 from the cache file, 1,039 requests to Google.',
    );
    expect(text).toContain(
      'Cannot reach Google (DNS found no address for www.google.com): check your connection, or run with --offline; 4,815 places were not looked up and are in the failed-places CSV.',
    );
  });
});
