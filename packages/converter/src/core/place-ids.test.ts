import { describe, expect, it } from 'vitest';
import {
  cacheKeyOf,
  canonicalFtid,
  cidFromFtid,
  ftidFromPlaceId,
  namesPlace,
  placeIdFromFtid,
  placeIdsOf,
} from './place-ids.js';

const FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';
const CID = '16519582940102929223';

describe('place ids', () => {
  it('derives the known place id and CID from an ftid (product.md pair)', () => {
    expect(placeIdFromFtid(FTID)).toBe(PLACE_ID);
    expect(cidFromFtid(FTID)).toBe(CID);
  });

  it('keeps CIDs above 2^53 exact', () => {
    expect(cidFromFtid('0x1:0xffffffffffffffff')).toBe('18446744073709551615');
  });
});

describe('ftidFromPlaceId', () => {
  it('inverts placeIdFromFtid on the known pair and on arbitrary ids', () => {
    expect(ftidFromPlaceId(PLACE_ID)).toBe(FTID);
    // Google's documentation example (Google Sydney) is of the same form.
    expect(ftidFromPlaceId('ChIJN1t_tDeuEmsRUsoyG83frY4')).toBe(
      '0x6b12ae37b47f5b37:0x8eaddfcd1b32ca52',
    );
    for (const ftid of [
      '0x1:0x2',
      '0xffffffffffffffff:0xffffffffffffffff',
      '0x487604ce176ac979:0x42af85654e23a0b4',
    ]) {
      expect(ftidFromPlaceId(placeIdFromFtid(ftid)!)).toBe(ftid);
    }
  });

  it('gives nothing for place ids of another form', () => {
    expect(ftidFromPlaceId('GhIJQWDl0CIeQUARxks3icF8U8A')).toBeUndefined();
    expect(ftidFromPlaceId('ChIJN1t_tDeuEmsRUsoyG83frY4AA')).toBeUndefined();
    expect(ftidFromPlaceId('ChIJ')).toBeUndefined();
    expect(ftidFromPlaceId('not a place id at all')).toBeUndefined();
  });
});

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
    // A repeated parameter names every one of its values, not only the first.
    expect(placeIdsOf(`https://maps.google.com/?cid=1234&cid=${EIFFEL_CID}`)).toBe('conflict');
    expect(
      placeIdsOf(
        `https://www.google.com/maps/search/?api=1&query=x&query_place_id=${TOKYO_PLACE_ID}&query_place_id=ChIJD7fiBh9u5kcRYJSMaMOCCwQ`,
      ),
    ).toBe('conflict');
    expect(placeIdsOf(`https://maps.google.com/?cid=${EIFFEL_CID}&cid=${EIFFEL_CID}`)).toEqual(
      placeIdsOf(`https://maps.google.com/?cid=${EIFFEL_CID}`),
    );
  });

  it('refuses malformed ids instead of ignoring them', () => {
    expect(placeIdsOf('https://www.google.com/maps?cid=12abc')).toBe('conflict');
    expect(placeIdsOf('https://www.google.com/maps?cid=18446744073709551616')).toBe('conflict');
    expect(placeIdsOf('https://www.google.com/maps?query_place_id=not-an-id')).toBe('conflict');
  });

  it('gives one key to every link form of the same place', () => {
    const keys = [
      `https://www.google.com/maps/place/Caf%C3%A9/data=!4m2!3m1!1s${FTID}`,
      `http://maps.google.com/?cid=${CID}`,
      `https://www.google.com/search?q=x&ludocid=${CID}`,
      `https://www.google.com/maps/search/?api=1&query=x&query_place_id=${PLACE_ID}`,
    ].map((link) => {
      const ids = placeIdsOf(link);
      return ids && ids !== 'conflict' ? cacheKeyOf(ids) : ids;
    });
    expect(new Set(keys)).toEqual(new Set([`cid:${CID}`]));
  });

  it('names no place for links without ids', () => {
    expect(placeIdsOf('https://maps.app.goo.gl/AbC')).toBeUndefined();
    expect(placeIdsOf('https://www.google.com/maps/search/pizza')).toBeUndefined();
    expect(placeIdsOf('https://www.google.com/maps/search/48.85,2.29')).toBeUndefined();
    expect(placeIdsOf('https://example.com/page')).toBeUndefined();
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
