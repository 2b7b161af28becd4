import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from './limits.js';
import { planFor } from './plan.js';

const FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CID = '16519582940102929223';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';

describe('planFor', () => {
  it('looks a Takeout ftid link up by place, on a page the resolver builds', () => {
    const plan = planFor(`https://www.google.com/maps/place/Hagia+Sophia/data=!4m2!3m1!1s${FTID}`);
    expect(plan).toMatchObject({
      kind: 'place',
      key: `cid:${CID}`,
      ids: { ftid: FTID, placeId: PLACE_ID },
    });
    expect(plan.kind === 'place' && plan.page.href).toBe(
      `https://www.google.com/maps/place/data=!4m2!3m1!1s${FTID}`,
    );
  });

  it('builds an https ?cid= page for old http and ludocid links, keyed like the ftid', () => {
    for (const link of [
      `http://maps.google.com/?cid=${CID}`,
      `https://www.google.com/search?q=Hagia+Sophia&ludocid=${CID}`,
    ]) {
      const plan = planFor(link);
      expect(plan).toMatchObject({ kind: 'place', key: `cid:${CID}`, ids: { cid: CID } });
      expect(plan.kind === 'place' && plan.page.href).toBe(
        `https://www.google.com/maps?cid=${CID}`,
      );
    }
  });

  it('answers links that already hold the pin or an explicit pair without any lookup', () => {
    expect(planFor('https://www.google.com/maps/place/x/data=!3d48.1!4d11.5')).toMatchObject({
      kind: 'known',
      coordinates: { lat: 48.1, lng: 11.5 },
    });
    expect(planFor('https://www.google.com/maps/search/?api=1&query=48.1,11.5')).toMatchObject({
      kind: 'known',
    });
  });

  it('follows short links as they are', () => {
    expect(planFor('https://maps.app.goo.gl/AbC')).toMatchObject({ kind: 'link' });
    expect(planFor('https://goo.gl/maps/AbC')).toMatchObject({ kind: 'link' });
  });

  it.each([
    'https://evil.example/?cid=123',
    `https://www.google.com.evil.example/maps/place/data=!4m2!3m1!1s${FTID}`,
    `https://maps.google.com.de/maps/place/data=!4m2!3m1!1s${FTID}`,
    'http://www.google.com.evil.example/maps/place/NoId',
    'not a url',
    'https://www.google.com/search?q=no+place',
    'https://www.google.com/maps?cid=12950491419829437962&query_place_id=ChIJCewJkL2LGGAR3Qmk0vCTGkg',
    `https://www.google.com/maps/place/${'x'.repeat(MAX_URL_LENGTH)}/data=!1s${FTID}`,
  ])('refuses %s', (link) => {
    expect(planFor(link)).toEqual({ kind: 'refused' });
  });
});
