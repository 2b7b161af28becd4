import { coordinatesForCid, finalPlaceUrl, ftidForCid } from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { placeLink, pointOf, rig, type Rig } from './support.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

// The Eiffel Tower's CID and Tokyo Tower's place id, as in the poisoning report: two places.
const EIFFEL_CID = '12950491419829437962';
const TOKYO_PLACE_ID = 'ChIJCewJkL2LGGAR3Qmk0vCTGkg';

describe('the cache holds only strong answers, keyed by the id looked up', () => {
  it('refuses a link whose ids name two places, without a request, and leaves the cache alone', async () => {
    r = await rig();
    const poison = `https://www.google.com/maps?cid=${EIFFEL_CID}&query_place_id=${TOKYO_PLACE_ID}`;
    const outcome = await r.resolver.resolve([poison]);
    expect(outcome).toMatchObject({ results: {}, failures: { [poison]: 'not_allowed' } });
    expect(r.google.requests).toHaveLength(0);
    expect(r.cache.size).toBe(0);
  });

  it("answers Takeout's link of a place without a location (a search for 0,0) not_found, without a request", async () => {
    r = await rig();
    const nowhere = 'https://www.google.com/maps/search/0,0';
    const outcome = await r.resolver.resolve([nowhere]);
    expect(outcome).toMatchObject({ results: {}, failures: { [nowhere]: 'not_found' } });
    expect(outcome.report.details).toEqual({ no_location: 1 });
    expect(r.google.requests).toHaveLength(0);
  });

  it('answers a repeated place from the cache with no request', async () => {
    r = await rig();
    await r.resolver.resolve([placeLink(201)]);
    r.google.clearRequests();
    const again = await r.resolver.resolve([
      placeLink(201, 'Another name'),
      'http://maps.google.com/?cid=201',
    ]);
    expect(Object.values(again.results).map(pointOf)).toEqual([
      coordinatesForCid('201'),
      coordinatesForCid('201'),
    ]);
    expect(again.report.cacheHits).toBe(1);
    expect(r.google.requests).toHaveLength(0);
  });

  it("a pin in a short link's redirect beats a (wrong) cached answer", async () => {
    r = await rig();
    const truth = coordinatesForCid('202');
    await r.cache.set('cid:202', {
      coordinates: { lat: truth.lat + 0.01, lng: truth.lng },
      placeId: undefined,
    });
    const link = 'https://maps.app.goo.gl/pin202';
    r.google.addRedirect(link, finalPlaceUrl('Place', truth, ftidForCid(202n)));
    const outcome = await r.resolver.resolve([link]);
    expect(pointOf(outcome.results[link])).toEqual(truth);
    // It answers for that link alone: the cache keeps what a lookup of the id found.
    expect(r.cache.peek('cid:202')?.coordinates).toEqual({ lat: truth.lat + 0.01, lng: truth.lng });
  });

  it("a short link's redirect never decides the pin of another link to the place it names", async () => {
    r = await rig();
    const truth = coordinatesForCid('204');
    // Whoever made the link chose where it leads: here, the place's own ftid with a pin 10 km off.
    const chosen = { lat: Number((truth.lat + 0.09).toFixed(7)), lng: truth.lng };
    const link = 'https://maps.app.goo.gl/chosen204';
    r.google.addRedirect(link, finalPlaceUrl('Place', chosen, ftidForCid(204n)));
    expect(pointOf((await r.resolver.resolve([link])).results[link])).toEqual(chosen);
    expect(r.cache.peek('cid:204')).toBeUndefined();
    // Another person's link to that place is looked up, and gets Google's own answer.
    const outcome = await r.resolver.resolve([placeLink(204)]);
    expect(pointOf(outcome.results[placeLink(204)])).toEqual(truth);
    expect(outcome.report.cacheHits).toBe(0);
  });

  it('nothing a short link leads to is kept, however many hops later: a pin its maker chose never reaches another link', async () => {
    r = await rig();
    const truth = coordinatesForCid('220');
    const chosen = { lat: Number((truth.lat + 0.05).toFixed(7)), lng: truth.lng };
    const ftid = ftidForCid(220n);
    // The short link leads to an address naming the place without a pin, which Google (here, the
    // maker's choice of address) leads on to the place's URL with a pin 5 km off.
    const link = 'https://maps.app.goo.gl/poison220';
    const hop = `https://maps.google.com/maps?ftid=${ftid}&hl=en`;
    r.google.addRedirect(link, hop);
    r.google.addRedirect(hop, finalPlaceUrl('Place', chosen, ftid));
    expect(pointOf((await r.resolver.resolve([link])).results[link])).toEqual(chosen);
    expect(r.cache.peek('cid:220')).toBeUndefined();
    // Another person's links to that place get Google's own answer.
    const plain = ['https://maps.google.com/?cid=220', placeLink(220)];
    const outcome = await r.resolver.resolve(plain);
    expect(plain.map((url) => pointOf(outcome.results[url]))).toEqual([truth, truth]);
    expect(outcome.report.cacheHits).toBe(0);
  });

  it('a cached answer implausible for the ftid is not used: the place is looked up again', async () => {
    r = await rig();
    const truth = coordinatesForCid('203');
    await r.cache.set('cid:203', {
      coordinates: { lat: -truth.lat, lng: truth.lng + (truth.lng > 0 ? -90 : 90) },
      placeId: undefined,
    });
    const outcome = await r.resolver.resolve([placeLink(203)]);
    expect(pointOf(outcome.results[placeLink(203)])).toEqual(truth);
    expect(outcome.report.cacheHits).toBe(0);
  });
  it.each([
    ['0, 0', { lat: 0, lng: 0 }],
    ['out of range', { lat: 95, lng: 10 }],
  ])(
    'a cached point that is no place (%s) is looked up again, by ftid or by cid',
    async (_, bad) => {
      r = await rig();
      for (const cid of ['209', '210'])
        await r.cache.set(`cid:${cid}`, { coordinates: bad, placeId: undefined });
      const byCid = 'https://maps.google.com/?cid=210';
      const outcome = await r.resolver.resolve([placeLink(209), byCid]);
      expect(outcome.failures).toEqual({});
      expect(pointOf(outcome.results[placeLink(209)])).toEqual(coordinatesForCid('209'));
      expect(pointOf(outcome.results[byCid])).toEqual(coordinatesForCid('210'));
      expect(outcome.report.cacheHits).toBe(0);
    },
  );

  it('checks a cached answer against the ftid whatever the order of links to the place', async () => {
    r = await rig();
    const truth = coordinatesForCid('208');
    await r.cache.set('cid:208', {
      coordinates: { lat: -truth.lat, lng: truth.lng + (truth.lng > 0 ? -90 : 90) },
      placeId: undefined,
    });
    const byCid = 'https://maps.google.com/?cid=208';
    const outcome = await r.resolver.resolve([byCid, placeLink(208)]);
    expect(pointOf(outcome.results[byCid])).toEqual(truth);
    expect(pointOf(outcome.results[placeLink(208)])).toEqual(truth);
    expect(outcome.report.cacheHits).toBe(0);
  });
});

describe('short links', () => {
  it('follow hops to the place and, once a hop names an ftid, use its place data', async () => {
    r = await rig();
    const link = 'https://maps.app.goo.gl/hop204';
    r.google.addRedirect(link, placeLink(204, 'Somewhere'));
    const outcome = await r.resolver.resolve([link]);
    expect(pointOf(outcome.results[link])).toEqual(coordinatesForCid('204'));
  });

  it('once a hop names an ftid, the Places API answers for it (with a key)', async () => {
    r = await rig({ apiKey: true });
    const link = 'https://maps.app.goo.gl/api205';
    r.google.addRedirect(link, placeLink(205, 'X'));
    const outcome = await r.resolver.resolve([link]);
    expect(pointOf(outcome.results[link])).toEqual(coordinatesForCid('205'));
    expect(outcome.report.sources).toEqual({ 'places-api': 1 });
    expect(outcome.report.upstreamRequests).toEqual({ pages: 1, places: 1 });
  });

  it('a hop carrying an explicit pair answers at once, without another request', async () => {
    r = await rig();
    const link = 'https://maps.app.goo.gl/pair';
    r.google.addRedirect(link, 'https://www.google.com/maps/search/48.858370,+2.294481');
    const outcome = await r.resolver.resolve([link]);
    expect(pointOf(outcome.results[link])).toEqual({ lat: 48.85837, lng: 2.294481 });
    expect(r.google.requests).toHaveLength(1);
  });

  it("never takes another place's pin for the place an earlier hop named", async () => {
    r = await rig();
    const link = 'https://maps.app.goo.gl/moved210';
    r.google.addRedirect(link, placeLink(210, 'A'));
    // A's place URL leads on to B's, far away, with B's pin.
    const far = { lat: 48.8584, lng: 2.2945 };
    r.google.addRedirect(placeLink(210, 'A'), finalPlaceUrl('B', far, ftidForCid(211n)));
    const outcome = await r.resolver.resolve([link]);
    expect(outcome.results[link]).toBeUndefined();
    expect(outcome.failures[link]).toBe('not_found');
  });

  it("never takes another place's pin for the place, however near", async () => {
    r = await rig();
    const a = coordinatesForCid('212');
    const link = 'https://maps.app.goo.gl/near212';
    r.google.addRedirect(link, placeLink(212, 'A'));
    // A's place URL leads on to B's, 1 km away, with B's pin: B's, not A's, whatever the distance.
    const near = { lat: Number((a.lat + 0.009).toFixed(7)), lng: a.lng };
    r.google.addRedirect(placeLink(212, 'A'), finalPlaceUrl('B', near, ftidForCid(213n)));
    const outcome = await r.resolver.resolve([link]);
    expect(outcome.results[link]).toBeUndefined();
    expect(outcome.failures[link]).toBe('not_found');
    expect(r.cache.size).toBe(0);
  });

  it('a transient 404 of a short link is tried once more and succeeds', async () => {
    r = await rig();
    const link = 'https://maps.app.goo.gl/flaky206';
    r.google.addRedirect(
      link,
      finalPlaceUrl('P', coordinatesForCid('206'), ftidForCid(206n)),
      302,
      { failTimes: 1 },
    );
    const outcome = await r.resolver.resolve([link]);
    expect(pointOf(outcome.results[link])).toEqual(coordinatesForCid('206'));
    expect(r.google.requests.filter((request) => request.host === 'maps.app.goo.gl')).toHaveLength(
      2,
    );
  });

  it('retries one transient failure per lookup, not one per hop: a failing chain costs no more than its hops and one', async () => {
    r = await rig();
    // Six short links in a chain, each failing once before it answers.
    const hops = Array.from({ length: 6 }, (_, i) => `https://maps.app.goo.gl/chain${i}`);
    hops.forEach((hop, i) =>
      r!.google.addRedirect(hop, hops[i + 1] ?? placeLink(215, 'End'), 302, { failTimes: 1 }),
    );
    const outcome = await r.resolver.resolve([hops[0]!]);
    expect(outcome.failures[hops[0]!]).toBe('unavailable');
    // The first hop twice, the second once: 12 requests before.
    expect(r.google.requests).toHaveLength(3);
    expect(outcome.report.upstreamRequests.pages).toBe(3);

    // A chain with one flaky hop still gets its retry, whichever hop it is.
    const steady = 'https://maps.app.goo.gl/steady216';
    const flaky = 'https://maps.app.goo.gl/flaky216';
    r.google.addRedirect(steady, flaky);
    r.google.addRedirect(
      flaky,
      finalPlaceUrl('P', coordinatesForCid('216'), ftidForCid(216n)),
      302,
      {
        failTimes: 1,
      },
    );
    const second = await r.resolver.resolve([steady]);
    expect(pointOf(second.results[steady])).toEqual(coordinatesForCid('216'));
  });

  it('a short link that keeps failing is reported unavailable after one retry', async () => {
    r = await rig();
    const link = 'https://maps.app.goo.gl/broken207';
    r.google.addRedirect(link, placeLink(207), 302, { failTimes: 5 });
    const outcome = await r.resolver.resolve([link]);
    expect(outcome.failures[link]).toBe('unavailable');
    expect(r.google.requests).toHaveLength(2);
  });
});
