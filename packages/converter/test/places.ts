/**
 * The places the format writers' tests feed them: one plain place to vary field by field, and the
 * fast-check arbitraries of the property tests (hostile text in every field, any coordinates).
 */
import fc from 'fast-check';
import type { MappedPlace } from '../src/core/kml.js';
import { isValidCoordinate } from '../src/core/latlng.js';
import { hostileText } from './read-formats.js';

/** The Louvre, with a Takeout link and its pin, unless `overrides` say otherwise. */
export const place = (overrides: Partial<MappedPlace> = {}): MappedPlace => ({
  title: 'Louvre',
  url: 'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
  coordinates: { lat: 48.8606111, lng: 2.337644 },
  ...overrides,
});

/**
 * Any latitude and longitude in range, the poles and the antimeridian included; never 0, 0, which
 * is Takeout's "no location" and which no writer writes (`isValidCoordinate`).
 */
export const anyLatLng = fc
  .record({
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lng: fc.double({ min: -180, max: 180, noNaN: true }),
  })
  .filter(({ lat, lng }) => isValidCoordinate(lat, lng));

/** A place's text fields, each hostile (see `hostileText`): title, note, comment, up to three tags, url. */
export const hostilePlaceText = fc.record({
  title: hostileText,
  note: hostileText,
  comment: hostileText,
  tags: fc.array(hostileText, { maxLength: 3 }),
  url: hostileText,
});
