import { PLACES_API_FAILURES, REAL_PLACE_PAGES } from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { pointOf, rig, type Rig } from './support.js';

const REAL = REAL_PLACE_PAGES[0]!;
/** Where the page puts the place: 44.4490541, 26.0888398 (the fixtures' README). */
const RAI = REAL.point;

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('a real full place page served by the fake Google', () => {
  it('an ftid link resolves to the exact pin from the page, and the answer is cached', async () => {
    r = await rig();
    const outcome = await r.resolver.resolve([REAL.link]);
    expect(pointOf(outcome.results[REAL.link])).toEqual(RAI);
    expect(outcome.report.sources).toEqual({ 'place-data': 1 });
    expect(r.cache.peek(`cid:${REAL.cid}`)?.coordinates).toEqual(RAI);
  });

  it('a cid link and the short link the page was captured from resolve to the same pin', async () => {
    r = await rig();
    r.google.addRedirect(
      REAL.shortLink,
      `https://www.google.com/maps/place/RAI/data=!4m2!3m1!1s${REAL.ftid}?utm_source=mstt_1`,
    );
    const cidLink = `http://maps.google.com/?cid=${REAL.cid}`;
    const outcome = await r.resolver.resolve([cidLink, REAL.shortLink]);
    expect(pointOf(outcome.results[cidLink])).toEqual(RAI);
    expect(pointOf(outcome.results[REAL.shortLink])).toEqual(RAI);
  });

  it.each(PLACES_API_FAILURES)(
    'with a key, the Places API answering %s falls back to the page',
    async (_status, placesApi) => {
      r = await rig({ apiKey: true });
      r.google.setPlace(REAL.cid, { placesApi });
      const outcome = await r.resolver.resolve([REAL.link]);
      expect(pointOf(outcome.results[REAL.link])).toEqual(RAI);
      expect(outcome.report.sources).toEqual({ 'place-data': 1 });
      const paths = r.google.requests.map((request) => request.path);
      expect(paths[0]).toMatch(/^\/v1\/places\/ChIJ/);
      expect(paths.at(-1)).toContain(REAL.ftid);
    },
  );

  it('with a key that works, the Places API answers the same pin first', async () => {
    r = await rig({ apiKey: true });
    const outcome = await r.resolver.resolve([REAL.link]);
    expect(pointOf(outcome.results[REAL.link])).toEqual(RAI);
    expect(outcome.report.sources).toEqual({ 'places-api': 1 });
  });

  it('served for another place in the same city, it gives nothing: not its camera', async () => {
    r = await rig();
    const other = `0x${REAL.ftid.slice(2, 18)}:0x1234`;
    r.google.setPlace('4660', { body: REAL.html() });
    const link = `https://www.google.com/maps/place/Elsewhere/data=!4m2!3m1!1s${other}`;
    const outcome = await r.resolver.resolve([link]);
    expect(outcome.results[link]).toBeUndefined();
    expect(outcome.failures[link]).toBe('not_found');
    expect(outcome.report.details).toEqual({ other_place: 1 });
  });
});
