import { describe, expect, it } from 'vitest';
import { isGenericPage, readPlacePage } from './page.js';

const PLACE_URL = new URL('https://www.google.com/maps?cid=123');
const NAME = '<meta content="Hagia Sophia" itemprop="name">';
const STATIC_MAP =
  'https://maps.google.com/maps/api/staticmap?center=41.008583%2C28.980175&amp;zoom=16&amp;size=900x900&amp;markers=41.008583%2C28.980175';

describe('readPlacePage', () => {
  it('reads the og:image static map centre', () => {
    const html = `<head>${NAME}<meta content="${STATIC_MAP}" property="og:image"></head>`;
    expect(readPlacePage(PLACE_URL, html)).toEqual({
      coordinates: { lat: 41.008583, lng: 28.980175 },
      source: 'image',
    });
  });

  it("reads itemprop='image' with single quotes and attributes in any order", () => {
    const html = `<head>${NAME}<meta itemprop='image' content='${STATIC_MAP}'></head>`;
    expect(readPlacePage(PLACE_URL, html)?.coordinates).toEqual({ lat: 41.008583, lng: 28.980175 });
  });

  it('reads APP_INITIALIZATION_STATE with longitude first', () => {
    const html = `${NAME}<script>window.APP_INITIALIZATION_STATE=[[[1520.6,28.980175,41.008583],[0,0,0]]];</script>`;
    expect(readPlacePage(PLACE_URL, html)).toEqual({
      coordinates: { lat: 41.008583, lng: 28.980175 },
      source: 'app-state',
    });
  });

  it('prefers the pin in the final URL over the page', () => {
    const finalUrl = new URL(
      'https://www.google.com/maps/place/X/@41,28,17z/data=!3d41.0086!4d28.9802',
    );
    const html = `${NAME}<meta content="${STATIC_MAP}" property="og:image">`;
    expect(readPlacePage(finalUrl, html)).toEqual({
      coordinates: { lat: 41.0086, lng: 28.9802 },
      source: 'url-pin',
    });
  });

  it('falls back to the view of a /maps/place/ URL only when nothing better exists', () => {
    const finalUrl = new URL('https://www.google.com/maps/place/X/@41.0085,28.9801,17z');
    expect(readPlacePage(finalUrl, NAME)).toEqual({
      coordinates: { lat: 41.0085, lng: 28.9801 },
      source: 'url-view',
    });
    expect(
      readPlacePage(new URL('https://www.google.com/maps/@41.0085,28.9801,17z'), NAME),
    ).toBeUndefined();
  });

  it('never uses the numbers of the generic "Google Maps" page', () => {
    const generic = `<title>Google Maps</title><meta content="Google Maps" itemprop="name"><meta content="${STATIC_MAP}" property="og:image"><script>window.APP_INITIALIZATION_STATE=[[[1,13.4,52.5]]]</script>`;
    expect(isGenericPage(generic)).toBe(true);
    expect(readPlacePage(PLACE_URL, generic)).toBeUndefined();
    expect(
      isGenericPage(
        '<title>Google Maps</title><script>APP_INITIALIZATION_STATE=[[[1,2,3]]]</script>',
      ),
    ).toBe(true);
  });

  it('ignores invalid or (0, 0) numbers', () => {
    const html = `${NAME}<script>window.APP_INITIALIZATION_STATE=[[[1,0,0]]]</script><script>x=[[[1,200,95]]]</script>`;
    expect(readPlacePage(PLACE_URL, html)).toBeUndefined();
    expect(
      readPlacePage(PLACE_URL, `${NAME}APP_INITIALIZATION_STATE=[[[1,200,95]]]`),
    ).toBeUndefined();
  });
});
