import { extractCoordinates } from '@placeport/converter';
import { placeIdFromFtid } from '@placeport/converter/internal';
import { LOCALIZED_PRODUCT_NAMES, PLACES_API_FAILURES, REAL_PLACE_PAGES } from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './support.js';

const REAL = REAL_PLACE_PAGES[0]!;
/** Where the page puts the place: 44.4490541, 26.0888398 (the fixtures' README). */
const RAI = REAL.point;

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function resolve(urls: string[]) {
  const { status, body } = await stack!.post('/api/resolve-urls-batch', { urls });
  expect(status).toBe(200);
  return body as { results: Record<string, string>; failures: Record<string, string> };
}

const pointOf = (resolved: string | undefined) =>
  resolved ? extractCoordinates(resolved)?.coordinates : undefined;

describe('POST /api/resolve-urls-batch on the real Dutch full page', () => {
  it('without a key, the page gives the exact pin', async () => {
    stack = await startStack();
    const { results, failures } = await resolve([REAL.link]);
    expect(failures).toEqual({});
    expect(pointOf(results[REAL.link])).toEqual(RAI);
    expect(results[REAL.link]).toContain(`query_place_id=${placeIdFromFtid(REAL.ftid)}`);
  });

  it.each(PLACES_API_FAILURES)(
    'with a key, the Places API answering %s falls back to the page',
    async (_status, placesApi) => {
      stack = await startStack({ placesApiKey: true });
      stack.google.setPlace(REAL.cid, { placesApi });
      const { results } = await resolve([REAL.link]);
      expect(pointOf(results[REAL.link])).toEqual(RAI);
      const paths = stack.google.requests.map((request) => request.path);
      expect(paths.some((path) => path.startsWith('/v1/places/'))).toBe(true);
      expect(paths.some((path) => path.includes(REAL.ftid))).toBe(true);
    },
  );

  it('a localized generic page, a lean page and a page naming another ftid give nothing', async () => {
    // Every page's numbers sit on this very street, next to the requested places' S2 cell.
    stack = await startStack({ google: { requesterLocation: RAI } });
    const generic = `https://www.google.com/maps/place/data=!4m2!3m1!1s${REAL.ftid.slice(0, 18)}:0x11`;
    const lean = `https://www.google.com/maps/place/data=!4m2!3m1!1s${REAL.ftid.slice(0, 18)}:0x12`;
    const other = `https://www.google.com/maps/place/data=!4m2!3m1!1s${REAL.ftid.slice(0, 18)}:0x13`;
    stack.google.setPlace('17', { genericName: LOCALIZED_PRODUCT_NAMES[1] });
    stack.google.setPlace('18', { form: 'lean' });
    stack.google.setPlace('19', { body: REAL.html() });
    const { results, failures } = await resolve([generic, lean, other]);
    expect(results).toEqual({});
    expect(failures).toEqual({ [generic]: 'not_found', [lean]: 'not_found', [other]: 'not_found' });
  });
});
