import { describe, expect, it } from 'vitest';
import { cacheKeyOf, canonicalFtid, namesPlace, placeIdsOf } from './ids.js';

const FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CID = '16519582940102929223';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';
// Two real landmarks: the Eiffel Tower's CID and Tokyo Tower's place id (both ftid-form ids).
const EIFFEL_CID = '12950491419829437962';
const TOKYO_PLACE_ID = 'ChIJCewJkL2LGGAR3Qmk0vCTGkg';

describe('placeIdsOf', () => {
  it('reads every form of one place and derives the rest', () => {
    const full = { ftid: FTID, cid: CID, placeId: PLACE_ID };
    expect(placeIdsOf(`https://www.google.com/maps/place/X/data=!4m2!3m1!1s${FTID}`)).toEqual(full);
    expect(
      placeIdsOf(`https://www.google.com/maps/search/?api=1&query=x&query_place_id=${PLACE_ID}`),
    ).toEqual(full);
    expect(placeIdsOf(`http://maps.google.com/?cid=${CID}`)).toEqual({ cid: CID });
    expect(placeIdsOf(`https://www.google.com/search?q=x&ludocid=${CID}`)).toEqual({ cid: CID });
    expect(
      placeIdsOf(`https://maps.google.com/?q=x&ftid=${FTID.toUpperCase().replace(/X/g, 'x')}`),
    ).toEqual(full);
    expect(placeIdsOf(`https://www.google.com/maps?cid=${CID}&query_place_id=${PLACE_ID}`)).toEqual(
      full,
    );
  });

  it('refuses a link whose ids name two places (the cache-poisoning link)', () => {
    expect(
      placeIdsOf(`https://www.google.com/maps?cid=${EIFFEL_CID}&query_place_id=${TOKYO_PLACE_ID}`),
    ).toBe('conflict');
    expect(placeIdsOf(`https://www.google.com/maps/place/data=!1s${FTID}?cid=1`)).toBe('conflict');
    expect(placeIdsOf(`https://www.google.com/maps/place/data=!1s${FTID}!1s0x1:0x2`)).toBe(
      'conflict',
    );
    expect(placeIdsOf(`https://www.google.com/maps?cid=1&ludocid=2`)).toBe('conflict');
  });

  it('refuses malformed ids instead of ignoring them', () => {
    expect(placeIdsOf('https://www.google.com/maps?cid=12abc')).toBe('conflict');
    expect(placeIdsOf('https://www.google.com/maps?cid=18446744073709551616')).toBe('conflict');
    expect(placeIdsOf('https://www.google.com/maps?query_place_id=not-an-id')).toBe('conflict');
  });

  it('names no place for links without ids', () => {
    expect(placeIdsOf('https://maps.app.goo.gl/AbC')).toBeUndefined();
    expect(placeIdsOf('https://www.google.com/maps/search/pizza')).toBeUndefined();
  });
});

describe('namesPlace, canonicalFtid and cacheKeyOf', () => {
  it('compares ftids by value and falls back to the CID', () => {
    expect(canonicalFtid('0x00ab:0x0001')).toBe('0xab:0x1');
    expect(namesPlace('0x00AB:0x01'.toLowerCase(), { ftid: '0xab:0x1' })).toBe(true);
    expect(namesPlace('0xab:0x2', { ftid: '0xab:0x1' })).toBe(false);
    expect(namesPlace(`0x99:0x${BigInt(CID).toString(16)}`, { cid: CID })).toBe(true);
    expect(namesPlace(FTID, {})).toBe(false);
  });

  it('keys by CID when known, else by place id', () => {
    expect(cacheKeyOf({ ftid: FTID, cid: CID, placeId: PLACE_ID })).toBe(`cid:${CID}`);
    expect(cacheKeyOf({ placeId: 'ChIJabcdefghijk' })).toBe('pid:ChIJabcdefghijk');
    expect(cacheKeyOf({})).toBeUndefined();
  });
});
