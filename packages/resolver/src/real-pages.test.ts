import { type LatLng } from '@placeport/converter';
import { isPlausibleForFtid, placeIdsOf, type PlaceIds } from '@placeport/converter/internal';
import {
  ALL_PAGE_FORMS,
  coordinatesForCid,
  ftidForCid,
  genericPage,
  leanPage,
  LOCALIZED_PRODUCT_NAMES,
  PAGE_FORM_EVIDENCE,
  PAGE_LANGUAGES,
  placePage,
  REAL_PLACE_PAGES,
  REQUESTER_LOCATION,
} from '@placeport/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgePage, type Verdict } from './evidence.js';
import { readPage } from './page.js';

const REAL = REAL_PLACE_PAGES[0]!;
const RAI: LatLng = { lat: 44.4490541, lng: 26.0888398 };
const placeUrl = (ftid: string) =>
  new URL(`https://www.google.com/maps/place/data=!4m2!3m1!1s${ftid}`);
const idsOf = (link: string): PlaceIds => placeIdsOf(link) as PlaceIds;

describe('the real Dutch full page (packages/testkit/fixtures/google-pages)', () => {
  it('is read as a named place page holding the pin bound to its ftid', () => {
    const page = readPage(REAL.html());
    expect(page.productPage).toBe(false);
    expect(page.placeData).toContainEqual({ ftid: REAL.ftid, point: RAI });
  });

  it('gives the exact pin for its ftid, whatever its <title> says', () => {
    expect(REAL.html()).toContain('<title> Google Maps </title>');
    const verdict = judgePage({ ftid: REAL.ftid }, placeUrl(REAL.ftid), REAL.html());
    expect(verdict).toEqual({ point: RAI, strength: 'strong', source: 'place-data' });
  });

  it('gives the exact pin for a cid link, bound by the record whose ftid carries the cid', () => {
    const ids = idsOf(`http://maps.google.com/?cid=${REAL.cid}`);
    expect(ids.ftid).toBeUndefined();
    const verdict = judgePage(
      ids,
      new URL(`https://www.google.com/maps?cid=${REAL.cid}`),
      REAL.html(),
    );
    expect(verdict).toEqual({ point: RAI, strength: 'strong', source: 'place-data' });
  });

  it('gives nothing for another place, even one whose S2 cell is next door (not its camera)', () => {
    const nearby = `0x${REAL.ftid.slice(2, 18)}:0x1234`;
    expect(isPlausibleForFtid(nearby, RAI)).toBe(true);
    expect(judgePage({ ftid: nearby }, placeUrl(nearby), REAL.html())).toBe('other_place');
    const far = ftidForCid(77n);
    expect(judgePage({ ftid: far }, placeUrl(far), REAL.html())).toBe('other_place');
  });

  it("never takes a record someone wrote on the page (a name, a review) for the place's own", () => {
    const real = REAL.html();
    const at = real.indexOf(`${RAI.lat},${RAI.lng}]`);
    const before = (text: string) => real.slice(0, at - 40) + text + real.slice(at - 40);
    // Text in a JS string has its quotes escaped as Google's own record's are: the page then
    // binds the place to two spots, and a wrong pin is worse than none.
    const imitated = before(String.raw`Cafe [null,null,44.52,26.16],\"${REAL.ftid}\" `);
    expect(readPage(imitated).placeData.filter((record) => record.ftid === REAL.ftid)).toHaveLength(
      2,
    );
    expect(judgePage({ ftid: REAL.ftid }, placeUrl(REAL.ftid), imitated)).toBe('conflicting_data');
    // Its backslashes escaped too (\\\"), it is no record at all: the real pin stands.
    const escaped = before(String.raw`Cafe [null,null,44.52,26.16],\\\"${REAL.ftid}\\\" `);
    expect(judgePage({ ftid: REAL.ftid }, placeUrl(REAL.ftid), escaped)).toEqual({
      point: RAI,
      strength: 'strong',
      source: 'place-data',
    });
  });

  it('a place whose data names it is strong even when its names are the product name', () => {
    const html = REAL.html()
      .replaceAll('RAI - Romantic &amp; Intimate · ', '')
      .replace(
        /<meta content="[^"]*" itemprop="name">/,
        '<meta content="Google Maps" itemprop="name">',
      );
    expect(readPage(html).productPage).toBe(true);
    expect(judgePage({ ftid: REAL.ftid }, placeUrl(REAL.ftid), html)).toMatchObject({
      point: RAI,
      strength: 'strong',
    });
  });
});

describe('generic and lean pages give nothing', () => {
  it.each(LOCALIZED_PRODUCT_NAMES)('a generic page named %j', (name) => {
    const ftid = ftidForCid(5n, REQUESTER_LOCATION);
    expect(judgePage({ ftid }, placeUrl(ftid), genericPage(REQUESTER_LOCATION, name))).toBe(
      'product_page',
    );
  });

  it('the localized generic page (itemprop name "Google マップ") next to the place', () => {
    const ftid = ftidForCid(6n);
    const html = genericPage(coordinatesForCid(6n), 'Google マップ');
    expect(judgePage({ ftid }, placeUrl(ftid), html)).toBe('product_page');
  });

  it('a lean page whose camera sits on the place', () => {
    const ftid = ftidForCid(7n);
    expect(judgePage({ ftid }, placeUrl(ftid), leanPage(coordinatesForCid(7n)))).toBe(
      'product_page',
    );
  });

  it('the <title> alone never makes a named page generic', () => {
    const html =
      '<title> Google マップ </title><meta content="東京タワー · 港区" itemprop="name"><script>window.APP_INITIALIZATION_STATE=[[[1000,139.7454,35.6585]]]</script>';
    expect(readPage(html).productPage).toBe(false);
    expect(readPage('<title> Google マップ </title>').productPage).toBe(true);
  });
});

const cids = fc.bigInt({ min: 1n, max: (1n << 64n) - 1n });

/** Every page the fake Google can serve for a request, and what it may truthfully answer. */
const served = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    cid: cids,
    form: fc.constantFrom(...ALL_PAGE_FORMS),
    language: fc.constantFrom(...PAGE_LANGUAGES),
  }),
  fc.record({
    kind: fc.constant('generic' as const),
    name: fc.constantFrom(...LOCALIZED_PRODUCT_NAMES),
  }),
  fc.record({ kind: fc.constant('real' as const) }),
);

describe('any page the fake Google serves (property)', () => {
  it('answers either bound to the requested id (strong) or within 20 km of its S2 cell (weak), never a generic camera', () => {
    fc.assert(
      fc.property(served, cids, fc.boolean(), fc.boolean(), (page, otherCid, askOther, byCid) => {
        let html: string;
        let own: { ftid: string; point: LatLng } | undefined;
        if (page.kind === 'place') {
          const point = coordinatesForCid(page.cid);
          const ftid = ftidForCid(page.cid);
          html = placePage(
            { name: 'Café "Ω" & <b>', point, ftid, language: page.language },
            page.form,
            REQUESTER_LOCATION,
          );
          own = { ftid, point };
        } else if (page.kind === 'real') {
          html = REAL.html();
          own = { ftid: REAL.ftid, point: RAI };
        } else {
          html = genericPage(REQUESTER_LOCATION, page.name);
        }
        // The page is asked for its own place, or served for another one.
        const wantedFtid = own && !askOther ? own.ftid : ftidForCid(otherCid);
        const cid = BigInt(wantedFtid.split(':')[1]!).toString(10);
        const wanted: PlaceIds = byCid ? { cid } : { ftid: wantedFtid, cid };
        const verdict = judgePage(wanted, placeUrl(wantedFtid), html);
        if (page.kind === 'place' && !askOther && !byCid && page.form !== 'final-url') {
          // The fake's own page, asked for its own place, answers as its form promises (a
          // final-url page carries its pin in the redirect, not in the page).
          const promised = PAGE_FORM_EVIDENCE[page.form];
          if (promised === 'none') expect(verdict).toBe('product_page');
          else expect(verdict).toMatchObject({ point: own!.point, strength: promised });
        }
        if (typeof verdict === 'string') return;
        const answer: Verdict = verdict;
        expect(answer.point).not.toEqual(REQUESTER_LOCATION);
        if (answer.strength === 'strong') {
          expect(own && wantedFtid === own.ftid).toBe(true);
          expect(answer.point).toEqual(own!.point);
        } else {
          expect(wanted.ftid).toBeDefined();
          expect(isPlausibleForFtid(wanted.ftid!, answer.point)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("every real-shaped full page, in every language, gives its place's exact pin", () => {
    for (const language of PAGE_LANGUAGES) {
      for (const cid of [1n, 42n, 16519582940102929223n]) {
        const point = coordinatesForCid(cid);
        const ftid = ftidForCid(cid);
        const html = placePage(
          { name: 'Some Place', point, ftid, language },
          'place-data',
          REQUESTER_LOCATION,
        );
        expect(readPage(html).productPage).toBe(false);
        expect(judgePage({ ftid }, placeUrl(ftid), html)).toEqual({
          point,
          strength: 'strong',
          source: 'place-data',
        });
      }
    }
  });
});
