import {
  distanceMetres,
  s2CellOfFtid,
  WEAK_EVIDENCE_MAX_METRES,
} from '@placeport/converter/internal';
import { s2CellIdFor } from '@placeport/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgePage } from './evidence.js';

const latLng = fc.record({
  lat: fc.double({ min: -85, max: 85, noNaN: true }),
  lng: fc.double({ min: -179.999, max: 179.999, noNaN: true }),
});

function ftidAt(point: { lat: number; lng: number }, level: number, cid: bigint): string {
  return `0x${s2CellIdFor(point, level).toString(16)}:0x${cid.toString(16)}`;
}

const fixed = (value: number) => value.toFixed(6);

/** A page carrying only weak evidence at `point`, in one of the weak forms. */
function weakPage(form: number, point: { lat: number; lng: number }): string {
  const pair = `${fixed(point.lat)}%2C${fixed(point.lng)}`;
  const name = '<meta content="Somewhere" itemprop="name">';
  switch (form % 3) {
    case 0:
      return `${name}<meta property="og:image" content="https://maps.google.com/maps/api/staticmap?markers=${pair}">`;
    case 1:
      return `${name}<meta property="og:image" content="https://maps.google.com/maps/api/staticmap?center=${pair}">`;
    default:
      return `${name}<script>window.APP_INITIALIZATION_STATE=[[[1000,${fixed(point.lng)},${fixed(point.lat)}]]]</script>`;
  }
}

describe('plausibility of weak evidence', () => {
  it('never accepts a weak answer more than 20 km (plus the cell radius) from the ftid cell (property)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        latLng,
        latLng,
        fc.integer({ min: 10, max: 20 }),
        fc.integer({ min: 0, max: 2 }),
        fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (place, elsewhere, level, form, cid, nearness) => {
          const ftid = ftidAt(place, level, cid);
          // Half the cases land near the place, the rest anywhere on Earth.
          const candidate = {
            lat: place.lat + (elsewhere.lat - place.lat) * nearness * (cid % 2n === 0n ? 0.001 : 1),
            lng: place.lng + (elsewhere.lng - place.lng) * nearness * (cid % 2n === 0n ? 0.001 : 1),
          };
          const verdict = judgePage(
            { ftid },
            new URL('https://www.google.com/maps/place/x'),
            weakPage(form, candidate),
          );
          if (typeof verdict === 'string') return;
          const cell = s2CellOfFtid(ftid)!;
          accepted += 1;
          expect(verdict.strength).toBe('weak');
          expect(distanceMetres(cell.centre, verdict.point)).toBeLessThanOrEqual(
            WEAK_EVIDENCE_MAX_METRES + cell.radiusMetres,
          );
        },
      ),
      { numRuns: 500 },
    );
    // The property is not vacuous: near answers are accepted.
    expect(accepted).toBeGreaterThan(50);
  });

  it('accepts a weak answer at the place itself, and refuses the same answer without an ftid', () => {
    const place = { lat: 48.85837, lng: 2.294481 };
    const ftid = ftidAt(place, 14, 42n);
    const page = weakPage(0, place);
    const url = new URL('https://www.google.com/maps/place/x');
    expect(judgePage({ ftid }, url, page)).toMatchObject({
      strength: 'weak',
      source: 'static-marker',
    });
    expect(judgePage({ cid: '42' }, url, page)).toBe('implausible');
  });

  it('reads the final URL pin before any page check, only when it names the ftid: another place’s pin is no evidence', () => {
    const place = { lat: 35.6585, lng: 139.7454 };
    const ftid = ftidAt(place, 15, 7n);
    const generic = '<meta content="Google Maps" itemprop="name">';
    const named = new URL(
      `https://www.google.com/maps/place/T/data=!4m5!3m4!1s${ftid}!8m2!3d35.6585!4d139.7454`,
    );
    expect(judgePage({ ftid }, named, generic)).toMatchObject({
      strength: 'strong',
      source: 'url-pin',
    });
    const other = new URL(
      'https://www.google.com/maps/place/T/data=!4m5!3m4!1s0x1:0x2!8m2!3d35.6585!4d139.7454',
    );
    expect(judgePage({ ftid }, other, generic)).toBe('product_page');
    // At the place itself, yet another place's: not bound to the wanted one, so not used at all.
    expect(judgePage({ ftid }, other, '<meta content="Tower" itemprop="name">')).toBe(
      'no_evidence',
    );
  });

  it('binds no pin to the place when the URL writes it in the query, writes several, or names several places', () => {
    const place = { lat: 35.6585, lng: 139.7454 };
    const ftid = ftidAt(place, 15, 7n);
    const named = '<meta content="Tower" itemprop="name">';
    const judged = (url: string) => judgePage({ ftid }, new URL(url), named);
    // The place's ftid in the query, a pin in another parameter: someone's text, not Google's pin.
    expect(judged(`https://maps.google.com/maps?ftid=${ftid}&x=!3d35.6585!4d139.7454`)).toBe(
      'no_evidence',
    );
    // The place's ftid and pin, then another place's ftid and pin: the last pin is the other's.
    expect(
      judged(
        `https://www.google.com/maps/place/T/data=!1s${ftid}!8m2!3d35.6585!4d139.7454!1s0x1:0x2!3d48.8584!4d2.2945`,
      ),
    ).toBe('no_evidence');
    // The place's ftid, then two pins that differ.
    expect(
      judged(
        `https://www.google.com/maps/place/T/data=!1s${ftid}!8m2!3d35.6585!4d139.7454!3d48.8584!4d2.2945`,
      ),
    ).toBe('no_evidence');
    // One ftid, one pin (written twice the same): bound.
    expect(
      judged(
        `https://www.google.com/maps/place/T/data=!1s${ftid}!8m2!3d35.6585!4d139.7454!3d35.6585!4d139.7454`,
      ),
    ).toMatchObject({ strength: 'strong', source: 'url-pin', point: place });
  });
});
