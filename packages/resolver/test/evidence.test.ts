import { distanceMetres } from '@placeport/converter/internal';
import {
  coordinatesForCid,
  LOCALIZED_PRODUCT_NAMES,
  REQUESTER_LOCATION,
  STATIC_MAP_CENTRE_OFFSET_METRES,
} from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { placeLink, pointOf, rig, type Rig } from './support.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

async function resolveOne(link: string) {
  const outcome = await r!.resolver.resolve([link]);
  return { point: pointOf(outcome.results[link]), failure: outcome.failures[link], outcome };
}

describe('evidence read from each real page form', () => {
  it('full page: the place data bound to the ftid, not the camera 300–800 m away', async () => {
    r = await rig({ google: { pageForm: 'place-data' } });
    const { point, outcome } = await resolveOne(placeLink(101));
    expect(point).toEqual(coordinatesForCid('101'));
    expect(outcome.report.sources).toEqual({ 'place-data': 1 });
    expect(r.cache.peek('cid:101')?.coordinates).toEqual(coordinatesForCid('101'));
  });

  it('static map: markers is the pin; center (200 m off) is never used when markers exist', async () => {
    r = await rig({ google: { pageForm: 'og-image' } });
    const { point, outcome } = await resolveOne(placeLink(102));
    expect(point).toEqual(coordinatesForCid('102'));
    expect(outcome.report.sources).toEqual({ 'static-marker': 1 });
    expect(STATIC_MAP_CENTRE_OFFSET_METRES).toBeGreaterThan(100);
  });

  it('weak answers are used near the ftid cell but never cached', async () => {
    r = await rig({ google: { pageForm: 'app-state' } });
    const { point, outcome } = await resolveOne(placeLink(103));
    expect(point).toEqual(coordinatesForCid('103'));
    expect(outcome.report.sources).toEqual({ camera: 1 });
    expect(r.cache.size).toBe(0);
  });

  it('final URL: a pin in a place URL naming the ftid is strong and cached', async () => {
    r = await rig({ google: { pageForm: 'final-url' } });
    const { point } = await resolveOne(placeLink(104));
    expect(point).toEqual(coordinatesForCid('104'));
    expect(r.cache.size).toBe(1);
  });

  it('a lean page (what cloud addresses get) gives nothing: not the London camera', async () => {
    r = await rig({ google: { pageForm: 'lean' } });
    const { point, failure, outcome } = await resolveOne(placeLink(105));
    expect(point).toBeUndefined();
    expect(failure).toBe('not_found');
    expect(outcome.report.details).toEqual({ product_page: 1 });
  });

  it.each(LOCALIZED_PRODUCT_NAMES)('the generic page named %j gives nothing', async (name) => {
    r = await rig();
    r.google.setPlace('106', { genericName: name });
    const { point, failure, outcome } = await resolveOne(placeLink(106));
    expect(point).toBeUndefined();
    expect(failure).toBe('not_found');
    expect(JSON.stringify(outcome)).not.toContain(String(REQUESTER_LOCATION.lat));
  });

  it('a weak answer far from the ftid cell is refused (a camera in another country)', async () => {
    r = await rig({ google: { pageForm: 'app-state' } });
    const place = coordinatesForCid('107');
    const far = { lat: place.lat > 0 ? place.lat - 1 : place.lat + 1, lng: place.lng };
    expect(distanceMetres(place, far)).toBeGreaterThan(100_000);
    r.google.setPlace('107', { coordinates: far });
    const { point, failure, outcome } = await resolveOne(placeLink(107));
    expect(point).toBeUndefined();
    expect(failure).toBe('not_found');
    expect(outcome.report.details).toEqual({ implausible: 1 });
  });

  it('strong evidence is trusted however far it is from the cell (large features)', async () => {
    r = await rig({ google: { pageForm: 'place-data' } });
    const place = coordinatesForCid('108');
    const far = { lat: place.lat > 0 ? place.lat - 2 : place.lat + 2, lng: place.lng };
    r.google.setPlace('108', { coordinates: far });
    expect((await resolveOne(placeLink(108))).point).toEqual(far);
  });

  it('a link without an ftid takes only strong evidence', async () => {
    r = await rig({ google: { pageForm: 'app-state' } });
    const link = 'http://maps.google.com/?cid=109';
    expect((await resolveOne(link)).failure).toBe('not_found');
    r.google.setPlace('109', { form: 'place-data' });
    expect((await resolveOne(link)).point).toEqual(coordinatesForCid('109'));
  });

  it('with an API key, the Places API answers first, by the place id', async () => {
    r = await rig({ apiKey: true });
    const { point, outcome } = await resolveOne(placeLink(110));
    expect(point).toEqual(coordinatesForCid('110'));
    expect(outcome.report.sources).toEqual({ 'places-api': 1 });
    expect(r.google.requests.map((request) => request.path)).toEqual([
      expect.stringMatching(/^\/v1\/places\/ChIJ/),
    ]);
  });
});
