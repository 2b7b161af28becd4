import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childElementNames, readGpx, xmlLineEnds } from '../../../test/read-formats.js';
import { anyLatLng, hostilePlaceText, place } from '../../../test/places.js';
import { KML_DOCUMENT_NAME, UNTITLED_PLACE_NAME } from '../kml.js';
import { formatDegrees } from '../latlng.js';
import { buildGpx, GPX_NAMESPACE } from './gpx.js';
import { cleanText, placeName } from './place-text.js';

/** GPX 1.1's `wptType` sequence (gpx.xsd): a waypoint's children must appear in this order. */
const WPT_ORDER = [
  'ele',
  'time',
  'magvar',
  'geoidheight',
  'name',
  'cmt',
  'desc',
  'src',
  'link',
  'sym',
  'type',
  'fix',
  'sat',
  'hdop',
  'vdop',
  'pdop',
  'ageofdgpsdata',
  'dgpsid',
  'extensions',
];
const GPX_ORDER = ['metadata', 'wpt', 'rte', 'trk', 'extensions'];
const METADATA_ORDER = ['name', 'desc', 'author', 'copyright', 'link', 'time', 'keywords'];

/** Whether `names` follow `order` (each known, never going back). */
function inSchemaOrder(names: readonly string[], order: readonly string[]): boolean {
  let at = 0;
  for (const name of names) {
    const index = order.indexOf(name);
    if (index < at) return false;
    at = index;
  }
  return true;
}

describe('buildGpx', () => {
  it('writes a GPX 1.1 document by PlacePort, with the list in its metadata', () => {
    const { doc } = readGpx(
      buildGpx([place()], { name: 'Want to go', description: 'Trips & <ideas>' }),
    );
    const root = doc.documentElement!;
    expect(root.nodeName).toBe('gpx');
    expect(root.namespaceURI).toBe(GPX_NAMESPACE);
    expect(root.getAttribute('version')).toBe('1.1');
    expect(root.getAttribute('creator')).toBe('PlacePort');
    expect(inSchemaOrder(childElementNames(root), GPX_ORDER)).toBe(true);
    const metadata = doc.getElementsByTagName('metadata')[0]!;
    expect(childElementNames(metadata)).toEqual(['name', 'desc']);
    expect(inSchemaOrder(childElementNames(metadata), METADATA_ORDER)).toBe(true);
    expect(metadata.getElementsByTagName('name')[0]?.textContent).toBe('Want to go');
    expect(metadata.getElementsByTagName('desc')[0]?.textContent).toBe('Trips & <ideas>');
    // Without a list, the seed's document name; without a description, no <desc>.
    const bare = readGpx(buildGpx([place()])).doc.getElementsByTagName('metadata')[0]!;
    expect(childElementNames(bare)).toEqual(['name']);
    expect(bare.getElementsByTagName('name')[0]?.textContent).toBe(KML_DOCUMENT_NAME);
  });

  it('gives a real reader every field back: name, lat/lon, note, comment, tags, link', () => {
    const { geojson, doc } = readGpx(
      buildGpx([
        place({
          note: 'Line one\nline two',
          comment: 'Go early',
          tags: ['🛴 Fun stores', 'A & <B>'],
        }),
        place({ title: 'Sydney', url: '', coordinates: { lat: -33.8688, lng: 151.2093 } }),
      ]),
    );
    expect(geojson.features).toHaveLength(2);
    const [louvre, sydney] = geojson.features;
    expect(louvre?.geometry).toEqual({ type: 'Point', coordinates: [2.337644, 48.8606111] });
    // The link ends the description too: Organic Maps reads <desc> and no <link>.
    expect(louvre?.properties).toMatchObject({
      name: 'Louvre',
      desc: 'Note: Line one\nline two\n\nComment: Go early\n\nTags: 🛴 Fun stores, A & <B>\n\nhttps://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
      links: [
        {
          href: 'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
          text: 'View on Google Maps',
        },
      ],
    });
    expect(sydney?.geometry).toEqual({ type: 'Point', coordinates: [151.2093, -33.8688] });
    expect(sydney?.properties).toEqual({ name: 'Sydney' });
    const wpt = doc.getElementsByTagName('wpt')[0]!;
    expect(wpt.getAttribute('lat')).toBe('48.8606111');
    expect(wpt.getAttribute('lon')).toBe('2.337644');
  });

  it("keeps each waypoint's children in the schema's order (name, desc, link), with no type", () => {
    // No <type>: OsmAnd files a waypoint under its type, scattering a list over its tag sets.
    const { doc } = readGpx(buildGpx([place({ note: 'n', comment: 'c', tags: ['t'] })]));
    const wpt = doc.getElementsByTagName('wpt')[0]!;
    expect(childElementNames(wpt)).toEqual(['name', 'desc', 'link']);
    expect(inSchemaOrder(childElementNames(wpt), WPT_ORDER)).toBe(true);
    const link = wpt.getElementsByTagName('link')[0]!;
    expect(childElementNames(link)).toEqual(['text']);
  });

  it('links only http(s) URLs, in <link> and in <desc>', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '', 'www.google.com']) {
      const { geojson } = readGpx(buildGpx([place({ url, note: 'n' })]));
      expect(geojson.features[0]?.properties).not.toHaveProperty('links');
      expect(geojson.features[0]?.properties?.desc).toBe('Note: n');
    }
    const bare = readGpx(buildGpx([place({ url: 'https://maps.app.goo.gl/abc' })])).geojson;
    expect(bare.features[0]?.properties?.desc).toBe('https://maps.app.goo.gl/abc');
  });

  it(`names an untitled place "${UNTITLED_PLACE_NAME}" and rounds to 7 decimals`, () => {
    const { geojson } = readGpx(
      buildGpx([place({ title: ' \t ', coordinates: { lat: 12.345678949, lng: -0.00000004 } })]),
    );
    expect(geojson.features[0]?.properties?.name).toBe(UNTITLED_PLACE_NAME);
    expect(geojson.features[0]?.geometry).toEqual({
      type: 'Point',
      coordinates: [0, 12.3456789],
    });
  });

  it('writes the antimeridian as -180, since GPX longitudes stop short of 180', () => {
    const { doc } = readGpx(
      buildGpx([
        place({ coordinates: { lat: -16.5, lng: 180 } }),
        place({ coordinates: { lat: 90, lng: -180 } }),
      ]),
    );
    const wpts = doc.getElementsByTagName('wpt');
    expect(wpts[0]?.getAttribute('lon')).toBe('-180');
    expect(wpts[1]?.getAttribute('lat')).toBe('90');
    expect(wpts[1]?.getAttribute('lon')).toBe('-180');
  });

  it('keeps NEL, LINE and PARAGRAPH SEPARATOR as written, and tabs and line breaks inside a link', () => {
    const url = 'https://example.com/a\tb\nc';
    const { geojson } = readGpx(
      buildGpx([place({ title: 'a\u0085b\u2028c\u2029d', note: 'd\u0085e\u2028f\u2029g', url })]),
    );
    const properties = geojson.features[0]?.properties ?? {};
    expect(properties.name).toBe('a\u0085b\u2028c\u2029d');
    expect(properties.desc).toBe('Note: d\u0085e\u2028f\u2029g\n\nhttps://example.com/a\tb\nc');
    expect((properties.links as Array<{ href: string }>)[0]?.href).toBe(url);
  });

  it('stays well-formed and gives back any title, note, comment, tags and link (property)', () => {
    fc.assert(
      fc.property(hostilePlaceText, ({ title, note, comment, tags, url: path }) => {
        const url = `https://www.google.com/maps/${path}`;
        const { geojson, doc } = readGpx(buildGpx([place({ title, note, comment, tags, url })]));
        expect(geojson.features).toHaveLength(1);
        const properties = geojson.features[0]?.properties ?? {};
        expect(properties.name).toBe(xmlLineEnds(placeName(title)));
        const desc = String(properties.desc ?? '');
        if (cleanText(note)) expect(desc).toContain(xmlLineEnds(`Note: ${cleanText(note)}`));
        if (cleanText(comment)) {
          expect(desc).toContain(xmlLineEnds(`Comment: ${cleanText(comment)}`));
        }
        const tagLine = cleanText(tags.join(', '));
        if (tags.length > 0 && tagLine) {
          expect(desc).toContain(xmlLineEnds(`Tags: ${tagLine}`));
        }
        expect(desc.endsWith(xmlLineEnds(cleanText(url)))).toBe(true);
        expect(properties).not.toHaveProperty('type');
        expect((properties.links as Array<{ href: string }>)[0]?.href).toBe(cleanText(url));
        const wpt = doc.getElementsByTagName('wpt')[0]!;
        expect(inSchemaOrder(childElementNames(wpt), WPT_ORDER)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('writes any coordinates as 7-decimal numbers a reader gets back (property)', () => {
    fc.assert(
      fc.property(anyLatLng, ({ lat: la, lng: ln }) => {
        const { geojson } = readGpx(buildGpx([place({ coordinates: { lat: la, lng: ln } })]));
        const lon = formatDegrees(ln) === '180' ? -180 : Number(formatDegrees(ln));
        expect(geojson.features[0]?.geometry).toEqual({
          type: 'Point',
          coordinates: [lon, Number(formatDegrees(la))],
        });
      }),
      { numRuns: 200 },
    );
  });
});
