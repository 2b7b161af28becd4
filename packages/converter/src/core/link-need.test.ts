import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from './limits.js';
import { linkNeed, placeNeed } from './link-need.js';

const FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CID = '16519582940102929223';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';
const DATA = `data=!4m2!3m1!1s${FTID}`;

describe('linkNeed', () => {
  // The link forms of real Takeout exports (saved lists and Saved Places.json).
  it.each([
    ['ftid place URL', `https://www.google.com/maps/place/Hagia+Sophia/${DATA}`, `cid:${CID}`],
    [
      'ftid place URL on a country domain',
      `https://www.google.co.uk/maps/place/x/${DATA}`,
      `cid:${CID}`,
    ],
    ['?cid=', `https://maps.google.com/?cid=${CID}`, `cid:${CID}`],
    ['old http ?cid=', `http://maps.google.com/?cid=${CID}`, `cid:${CID}`],
    [
      'search?q=…&ludocid=',
      `https://www.google.com/search?q=Hagia+Sophia&ludocid=${CID}`,
      `cid:${CID}`,
    ],
    [
      'an address and ftid=',
      `http://maps.google.com/?q=Ermou+10,+Athens&ftid=${FTID}`,
      `cid:${CID}`,
    ],
    [
      'query_place_id=',
      `https://www.google.com/maps/search/?api=1&query=Hagia+Sophia&query_place_id=${PLACE_ID}`,
      `cid:${CID}`,
    ],
  ])('looks a place up by its id: %s', (_name, link, key) => {
    expect(linkNeed(link)).toMatchObject({ kind: 'lookup', by: 'place', key });
  });

  it.each([
    ['maps.app.goo.gl', 'https://maps.app.goo.gl/x'],
    ['goo.gl/maps', 'https://goo.gl/maps/x'],
    // Only the view: the resolver looks the place up (the converter places it by the view itself).
    ['the @ view only', 'https://www.google.com/maps/place/Somewhere/@48.1,11.5,17z'],
    // (0, 0) is no coordinate, and a query is something to look for: followed like any other.
    ['a search for 0,0 with a query', 'https://www.google.com/maps/search/0,0?q=Cafe+Nord'],
  ])('follows a Maps link without an id: %s', (_name, link) => {
    expect(linkNeed(link)).toEqual({
      kind: 'lookup',
      by: 'link',
      url: new URL(link),
      key: `url:${new URL(link).href}`,
    });
  });

  it.each([
    // Takeout writes the starred places' links over http; Google answers them over https.
    ['a starred place by its address', 'http://maps.google.com/?q=Oaxaca,+Mexico'],
    ['a short link', 'http://maps.app.goo.gl/x'],
    ['a place without an id', 'http://www.google.com/maps/place/NoId'],
  ])('reads http as https, then follows: %s', (_name, link) => {
    const https = new URL(link.replace(/^http:/, 'https:'));
    expect(linkNeed(link)).toEqual({
      kind: 'lookup',
      by: 'link',
      url: https,
      key: `url:${https.href}`,
    });
  });

  it.each([
    [
      '/maps/search/<lat>,<lng>',
      'https://www.google.com/maps/search/48.858370,+2.294481',
      48.85837,
      2.294481,
    ],
    ['the pin', `https://www.google.com/maps/place/x/data=!3d48.1!4d11.5`, 48.1, 11.5],
    ['api=1&query=', 'https://www.google.com/maps/search/?api=1&query=48.1,11.5', 48.1, 11.5],
    ['an old http ?q=<lat>,<lng>', 'http://maps.google.com/?q=48.1,11.5', 48.1, 11.5],
  ])('needs nothing when the link carries coordinates: %s', (_name, link, lat, lng) => {
    expect(linkNeed(link)).toEqual({
      kind: 'coordinates',
      coordinates: { lat, lng },
      placeId: undefined,
    });
  });

  it.each([
    // Look-alikes: names a `google.<…>` pattern would take, none of them Google's.
    ['a suffix look-alike', `https://maps.google.com.evil.example/maps/place/${DATA}`],
    [
      'a suffix look-alike of a country domain',
      `https://www.google.co.nl.example/maps/place/x/${DATA}`,
    ],
    ['google.com.de (anyone can buy it)', `https://maps.google.com.de/maps/place/x/${DATA}`],
    ['www.google.com.de', `https://www.google.com.de/maps?cid=${CID}`],
    ['www.google.co.nl (not on the list)', `https://www.google.co.nl/maps/place/x/${DATA}`],
    ['a look-alike carrying a pair', 'https://www.google.com.de/maps/search/48.1,11.5'],
    ['an IPv4 literal', `https://127.0.0.1/maps/place/x/${DATA}`],
    ['a decimal IPv4', `https://2130706433/maps?cid=${CID}`],
    ['an IPv6 literal', `https://[::1]/maps/place/x/${DATA}`],
    ['an odd port', `https://www.google.com:8443/maps/place/x/${DATA}`],
    ['an odd port over http', `http://maps.google.com:8080/?cid=${CID}`],
    ['userinfo', `https://user:pass@www.google.com/maps/place/x/${DATA}`],
    ['userinfo hiding the host', `https://www.google.com@evil.example/maps/place/x/${DATA}`],
    ['goo.gl outside /maps', 'https://goo.gl/x'],
    ['a look-alike over http', 'http://www.google.com.evil.example/maps/place/NoId'],
    ['Google without /maps or an id', 'https://www.google.com/search?q=no+place'],
    [
      'the consent wall',
      `https://consent.google.com/ml?continue=https://www.google.com/maps?cid=${CID}`,
    ],
    ['a web page', 'https://example.com/not-a-place'],
    [
      'ids that name two places',
      'https://www.google.com/maps?cid=12950491419829437962&query_place_id=ChIJCewJkL2LGGAR3Qmk0vCTGkg',
    ],
    ['two CIDs', `https://www.google.com/maps?cid=1&ludocid=2`],
    ['a malformed CID', 'https://www.google.com/maps?cid=12abc'],
    ['too long', `https://www.google.com/maps/place/${'x'.repeat(MAX_URL_LENGTH)}/${DATA}`],
    ['not a URL', 'Hagia Sophia, Istanbul'],
    ['empty', ''],
  ])('refuses %s (not_allowed)', (_name, link) => {
    expect(linkNeed(link)).toEqual({ kind: 'not_allowed' });
  });

  it(`takes a link of ${MAX_URL_LENGTH} characters`, () => {
    const base = `https://www.google.com/maps/place/${DATA}/`;
    const link = base + 'x'.repeat(MAX_URL_LENGTH - base.length);
    expect(linkNeed(link)).toMatchObject({ kind: 'lookup', by: 'place' });
    expect(linkNeed(`${link}x`)).toEqual({ kind: 'not_allowed' });
  });
});

describe('placeNeed', () => {
  it("places by the file's or the link's own coordinates first, the @ view and any host included", () => {
    const lookAlike = `https://maps.google.com.de/maps/place/x/${DATA}`;
    expect(placeNeed({ url: lookAlike, coordinates: { lat: 1, lng: 2 } })).toEqual({
      kind: 'coordinates',
      coordinates: { lat: 1, lng: 2 },
    });
    expect(placeNeed({ url: 'https://www.google.com/maps/place/x/@48.1,11.5,17z' })).toEqual({
      kind: 'coordinates',
      coordinates: { lat: 48.1, lng: 11.5 },
    });
    expect(placeNeed({ url: 'https://www.google.com.de/maps/search/48.1,11.5' })).toEqual({
      kind: 'coordinates',
      coordinates: { lat: 48.1, lng: 11.5 },
    });
  });

  it("takes Takeout's link of a place without a location (a search for 0,0) for no lookup, by the resolver's rule too", () => {
    expect(linkNeed('https://www.google.com/maps/search/0,0')).toEqual({ kind: 'no_location' });
    expect(linkNeed('https://www.google.com.evil.example/maps/search/0,0')).toEqual({
      kind: 'not_allowed',
    });
  });

  it("takes Takeout's link of a place without a location (a search for 0,0) as not found, without a lookup", () => {
    for (const url of [
      'https://www.google.com/maps/search/0,0',
      'http://www.google.com/maps/search/0.0,-0.0/',
      'https://www.google.de/maps/search/0,0',
    ]) {
      expect(placeNeed({ url })).toEqual({ kind: 'unplaced', reason: 'not_found' });
    }
    // The file's own coordinates still place it; a real pair, a query or a look-alike host is not it.
    expect(
      placeNeed({ url: 'https://www.google.com/maps/search/0,0', coordinates: { lat: 1, lng: 2 } }),
    ).toEqual({ kind: 'coordinates', coordinates: { lat: 1, lng: 2 } });
    expect(placeNeed({ url: 'https://www.google.com/maps/search/0,0.5' }).kind).toBe('coordinates');
    expect(placeNeed({ url: 'https://www.google.com/maps/search/0,0?q=Cafe+Nord' }).kind).toBe(
      'lookup',
    );
    expect(placeNeed({ url: 'https://www.google.com.evil.example/maps/search/0,0' })).toEqual({
      kind: 'unplaced',
      reason: 'not_allowed',
    });
  });

  it('knows the search for 0,0 however it is spelt: a + or a space after the comma, decimals, a query after it, a starred place’s ?q=0,0', () => {
    for (const url of [
      'https://www.google.com/maps/search/0,+0',
      'https://www.google.com/maps/search/0.0,+0.0',
      'https://www.google.com/maps/search/0,%200',
      'https://www.google.com/maps/search/-0.000000,0.000000/',
      'https://www.google.com/maps/search/0,0?entry=ttu',
      'http://maps.google.com/?q=0,0',
      'https://maps.google.com/maps?q=0.0,+0.0&hl=en',
    ]) {
      expect({ url, need: placeNeed({ url }) }).toEqual({
        url,
        need: { kind: 'unplaced', reason: 'not_found' },
      });
    }
    // A pair that is not zero, a search for words beside it, or a place's id: not that link.
    expect(placeNeed({ url: 'https://www.google.com/maps/search/0,+0.5' }).kind).toBe(
      'coordinates',
    );
    expect(placeNeed({ url: 'https://maps.google.com/?q=0,0&query=Cafe+Nord' }).kind).toBe(
      'lookup',
    );
    expect(placeNeed({ url: 'https://maps.google.com/?q=0,0&cid=42' }).kind).toBe('lookup');
    expect(placeNeed({ url: 'https://maps.google.com/?q=Cafe+Nord' }).kind).toBe('lookup');
  });

  it('takes the @ view for the place only where nothing better exists or it lies near the ftid', () => {
    // FTID's place is in Limassol: a view there places it; a view over Sydney is no pin for it.
    expect(
      placeNeed({ url: `https://www.google.com/maps/place/x/@34.6707,33.0425,17z/${DATA}` }),
    ).toEqual({
      kind: 'coordinates',
      coordinates: { lat: 34.6707, lng: 33.0425 },
    });
    expect(
      placeNeed({ url: `https://www.google.com/maps/place/x/@-33.8568,151.2153,17z/${DATA}` }),
    ).toEqual({
      kind: 'lookup',
      key: `cid:${CID}`,
    });
    // Named by a cid alone, the place's cell is unknown: it is looked up.
    expect(
      placeNeed({ url: `https://maps.google.com/maps/@41.0086,28.9802,17z?cid=${CID}` }),
    ).toEqual({
      kind: 'lookup',
      key: `cid:${CID}`,
    });
    // A map view naming no place: the view is all there is.
    expect(placeNeed({ url: 'https://www.google.com/maps/@-33.8568,151.2153,15z' })).toEqual({
      kind: 'coordinates',
      coordinates: { lat: -33.8568, lng: 151.2153 },
    });
  });

  it("otherwise needs a lookup under linkNeed's key, or says why it cannot be placed", () => {
    expect(placeNeed({ url: `https://www.google.com/maps/place/x/${DATA}` })).toEqual({
      kind: 'lookup',
      key: `cid:${CID}`,
    });
    expect(placeNeed({ url: `https://maps.google.com.de/maps/place/x/${DATA}` })).toEqual({
      kind: 'unplaced',
      reason: 'not_allowed',
    });
    expect(placeNeed({ url: '  ' })).toEqual({ kind: 'unplaced', reason: 'no_link' });
  });
});
