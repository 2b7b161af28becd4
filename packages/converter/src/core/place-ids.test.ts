import { describe, expect, it } from 'vitest';
import {
  cidFromFtid,
  extractPlaceRef,
  ftidFromPlaceId,
  placeIdFromFtid,
  placeKey,
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

  it.each([
    [
      'Takeout place URL',
      `https://www.google.com/maps/place/Caf%C3%A9/data=!4m2!3m1!1s${FTID}`,
      { ftid: FTID, cid: CID, placeId: PLACE_ID },
    ],
    [
      'upper-case ftid',
      `https://www.google.com/maps/place/x/data=!4m2!3m1!1s${FTID.toUpperCase().replace(/X/g, 'x')}`,
      { ftid: FTID, cid: CID, placeId: PLACE_ID },
    ],
    [
      'ftid= parameter',
      `https://maps.google.com/?q=1+Main+St&ftid=${FTID}`,
      { ftid: FTID, cid: CID, placeId: PLACE_ID },
    ],
    ['?cid=', `http://maps.google.com/?cid=${CID}`, { cid: CID }],
    ['ludocid=', `https://www.google.com/search?q=Cafe&ludocid=${CID}`, { cid: CID }],
    [
      'query_place_id=',
      `https://www.google.com/maps/search/?api=1&query=Cafe&query_place_id=${PLACE_ID}`,
      { placeId: PLACE_ID },
    ],
  ])('reads %s', (_name, url, expected) => {
    expect(extractPlaceRef(url)).toEqual(expected);
  });

  it.each([
    ['dropped pin', 'https://www.google.com/maps/search/48.85,2.29'],
    ['CID over 64 bits', 'http://maps.google.com/?cid=99999999999999999999'],
    ['CID zero', 'http://maps.google.com/?cid=0'],
    ['web page', 'https://example.com/page'],
  ])('finds no place in %s', (_name, url) => {
    expect(extractPlaceRef(url)).toBeUndefined();
  });

  it('gives one key to every URL form of the same place', () => {
    const keys = [
      `https://www.google.com/maps/place/x/data=!4m2!3m1!1s${FTID}`,
      `http://maps.google.com/?cid=${CID}`,
      `https://www.google.com/search?q=x&ludocid=${CID}`,
    ].map((url) => placeKey(extractPlaceRef(url)));
    expect(new Set(keys)).toEqual(new Set([`cid:${CID}`]));
    expect(placeKey(undefined)).toBeUndefined();
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
