import { describe, expect, it } from 'vitest';
import { MAX_META_TAGS, MAX_PLACE_DATA, MAX_TAG_CHARS, readAttributes, readPage } from './page.js';

const NAME = '<meta content="Hagia Sophia" itemprop="name">';
const STATIC_MAP =
  'https://maps.google.com/maps/api/staticmap?center=41.0104%2C28.9800&amp;zoom=16&amp;size=900x900&amp;markers=41.008583%2C28.980175';

describe('readPage', () => {
  it('reads the static map: markers is the pin, never the center when markers exist', () => {
    const page = readPage(`<head>${NAME}<meta content="${STATIC_MAP}" property="og:image"></head>`);
    expect(page.staticMarker).toEqual({ lat: 41.008583, lng: 28.980175 });
    expect(page.staticCentre).toBeUndefined();
    expect(page.productPage).toBe(false);
    // Markers given as an address: no pin, and the center (where the map was framed) is no pin.
    const address = STATIC_MAP.replace(
      'markers=41.008583%2C28.980175',
      'markers=Calea%20Victoriei%20202',
    );
    const framed = readPage(`${NAME}<meta content="${address}" property="og:image">`);
    expect(framed.staticMarker).toBeUndefined();
    expect(framed.staticCentre).toBeUndefined();
    // No markers at all: the center is the one weak form the map gives.
    const bare = STATIC_MAP.replace('&amp;markers=41.008583%2C28.980175', '');
    expect(readPage(`${NAME}<meta content="${bare}" property="og:image">`).staticCentre).toEqual({
      lat: 41.0104,
      lng: 28.98,
    });
  });

  it("reads itemprop='image' with single quotes, attributes in any order, and styled markers", () => {
    const styled = STATIC_MAP.replace(
      'markers=41.008583%2C28.980175',
      'markers=color:red%7C41.5%2C29.5',
    );
    const page = readPage(`${NAME}<meta itemprop='image' content='${styled}'>`);
    expect(page.staticMarker).toEqual({ lat: 41.5, lng: 29.5 });
  });

  it('reads the camera of APP_INITIALIZATION_STATE with longitude first', () => {
    const html = `${NAME}<script>window.APP_INITIALIZATION_STATE=[[[1520.6,28.980175,41.008583],[0,0,0]]];</script>`;
    expect(readPage(html).camera).toEqual({ lat: 41.008583, lng: 28.980175 });
  });

  it('reads place data binding coordinates to an ftid, escaped or not', () => {
    const html = `${NAME}<script>x=[null,null,41.0085,28.9801],"0x14CAB9BE92FAF67D:0x9F1E6C6E1F2B3F0A";y="[null,null,1.5,2.5],\\"0x1:0x2\\""</script>`;
    expect(readPage(html).placeData).toEqual([
      { ftid: '0x14cab9be92faf67d:0x9f1e6c6e1f2b3f0a', point: { lat: 41.0085, lng: 28.9801 } },
      { ftid: '0x1:0x2', point: { lat: 1.5, lng: 2.5 } },
    ]);
  });

  it(`reads the first ${MAX_META_TAGS} <meta> tags, none after`, () => {
    const filler = (count: number) => '<meta charset="utf-8">'.repeat(count);
    const map = `<meta content="${STATIC_MAP}" property="og:image">`;
    // The last one read: its static map and name count.
    const atLimit = readPage(`${filler(MAX_META_TAGS - 2)}${NAME}${map}`);
    expect(atLimit.staticMarker).toEqual({ lat: 41.008583, lng: 28.980175 });
    expect(atLimit.productPage).toBe(false);
    // One past: not read, so the page has no name (its title is the product's) and no map.
    const past = readPage(`<title>Google Maps</title>${filler(MAX_META_TAGS)}${NAME}${map}`);
    expect(past.staticMarker).toBeUndefined();
    expect(past.productPage).toBe(true);
  });

  it(`skips a <meta> tag longer than ${MAX_TAG_CHARS} characters unread`, () => {
    const tag = (length: number) => {
      const head = `<meta content="${STATIC_MAP}&amp;x=`;
      const tail = '" property="og:image">';
      return `${head}${'y'.repeat(length - head.length - tail.length)}${tail}`;
    };
    expect(tag(MAX_TAG_CHARS + 1)).toHaveLength(MAX_TAG_CHARS + 1);
    // Its length counts from "<meta" to the character before its ">".
    expect(readPage(`${NAME}${tag(MAX_TAG_CHARS + 1)}`).staticMarker).toEqual({
      lat: 41.008583,
      lng: 28.980175,
    });
    expect(readPage(`${NAME}${tag(MAX_TAG_CHARS + 2)}`).staticMarker).toBeUndefined();
  });

  it(`keeps at most ${MAX_PLACE_DATA} place-data records`, () => {
    const record = '[null,null,1.5,2.5],"0x1:0x2"';
    expect(readPage(record.repeat(MAX_PLACE_DATA + 5)).placeData).toHaveLength(MAX_PLACE_DATA);
  });

  it.each([
    ['Google Maps itemprop', '<meta content="Google Maps" itemprop="name">'],
    [
      'lean page: og:title only',
      '<meta content="Google Maps" property="og:title"><title>Google Maps</title>',
    ],
    ['Japanese title with spaces', '<title> Google マップ </title>'],
    ['Russian', '<meta content="Google Карты" itemprop="name">'],
    ['Spanish', '<meta content="Mapas de Google" property="og:title">'],
    ['entity-encoded', '<meta content="Google&#32;Maps" itemprop="name">'],
    ['no name at all', '<script>window.APP_INITIALIZATION_STATE=[[[1,-0.1276,51.5072]]]</script>'],
  ])('recognises the generic or lean page (%s)', (_name, head) => {
    expect(readPage(`<html><head>${head}</head></html>`).productPage).toBe(true);
  });

  it('does not mistake a place whose title mentions the product for the generic page', () => {
    const html = '<title>Louvre - Google Maps</title><meta content="Louvre" itemprop="name">';
    expect(readPage(html).productPage).toBe(false);
  });

  it('ignores invalid or (0, 0) numbers', () => {
    const html = `${NAME}<script>window.APP_INITIALIZATION_STATE=[[[1,0,0]]]</script>[null,null,95,10],"0x1:0x2"`;
    const page = readPage(html);
    expect(page.camera).toBeUndefined();
    expect(page.placeData).toEqual([]);
  });
});

describe('readAttributes', () => {
  it('reads quoted, single-quoted and bare values, first one wins', () => {
    expect(
      readAttributes(` content="a &amp; b" itemprop='name' data-x=plain content="second"`),
    ).toEqual({
      content: 'a & b',
      itemprop: 'name',
      'data-x': 'plain',
    });
  });

  it('stops at an unclosed quote without reading past it', () => {
    expect(readAttributes(` property="og:image" content="unclosed`)).toEqual({
      property: 'og:image',
    });
  });
});
