import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildKml,
  KML_DOCUMENT_DESCRIPTION,
  KML_DOCUMENT_NAME,
  placeDescription,
  UNTITLED_PLACE_NAME,
  type MappedPlace,
} from './kml.js';
import { writeListFiles } from './formats/output.js';
import { stripForbiddenXmlChars } from './xml.js';
import { parseKml } from '@placeport/testkit';
import { htmlAsText } from '../../test/read-formats.js';

function parse(xml: string) {
  const parsed = parseKml(xml);
  expect(parsed.doc.getElementsByTagName('kml')).toHaveLength(1);
  return parsed;
}

const place = (overrides: Partial<MappedPlace> = {}): MappedPlace => ({
  title: 'Louvre',
  url: 'https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2',
  coordinates: { lat: 48.8606, lng: 2.3376 },
  ...overrides,
});

function htmlToText(html: string): string {
  return html
    .replace(/<br>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('buildKml', () => {
  it('writes the seed document: name, description, red pushpin style', () => {
    const { doc } = parse(buildKml([place()]));
    expect(doc.getElementsByTagName('name')[0]?.textContent).toBe(KML_DOCUMENT_NAME);
    expect(doc.getElementsByTagName('description')[0]?.textContent).toMatch(
      /converted from google maps saved places/i,
    );
    expect(doc.getElementsByTagName('href')[0]?.textContent).toMatch(/red-pushpin\.png$/);
    // The pushpin's tip, as Google's own styles anchor it: without it the icon's centre sits on
    // the place (KML's default hotSpot), and the pin's tip beside it.
    const hotSpot = doc.getElementsByTagName('hotSpot')[0];
    expect(hotSpot?.parentNode?.nodeName).toBe('IconStyle');
    expect(['x', 'y', 'xunits', 'yunits'].map((name) => hotSpot?.getAttribute(name))).toEqual([
      '20',
      '2',
      'pixels',
      'pixels',
    ]);
  });

  it('writes longitude first, and a real reader gets the place back', () => {
    const { geojson } = parse(buildKml([place()]));
    expect(geojson.features).toHaveLength(1);
    const [feature] = geojson.features;
    expect(feature?.geometry).toEqual({ type: 'Point', coordinates: [2.3376, 48.8606, 0] });
    expect(feature?.properties?.name).toBe('Louvre');
  });

  it('includes note, comment and link only when present', () => {
    expect(placeDescription(place({ note: 'n', comment: 'c' }))).toBe(
      'Note: n<br><br>Comment: c<br><br><a href="https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2">View on Google Maps</a>',
    );
    expect(placeDescription(place({ url: '' }))).toBe('');
    expect(
      parse(buildKml([place({ url: '' })])).doc.getElementsByTagName('description'),
    ).toHaveLength(1);
  });

  it('writes the tags in the balloon after the comment, "Tags: a, b", only when there are any', () => {
    expect(
      placeDescription(place({ note: 'n', comment: 'c', tags: ['🛴 Fun stores', 'A & <B>'] })),
    ).toBe(
      'Note: n<br><br>Comment: c<br><br>Tags: 🛴 Fun stores, A &amp; &lt;B&gt;<br><br><a href="https://www.google.com/maps/place/Louvre/data=!4m2!3m1!1s0x1:0x2">View on Google Maps</a>',
    );
    expect(placeDescription(place({ url: '', tags: ['x'] }))).toBe('Tags: x');
    expect(placeDescription(place({ url: '', tags: [] }))).toBe('');
  });

  it('carries the tags as data too, which a real reader gets back with the balloon', () => {
    const { doc, geojson } = parse(
      buildKml([
        place({ tags: ['🛴 Fun stores', '📚 Bookstores'] }),
        place({ title: 'Untagged', coordinates: { lat: 1, lng: 2 } }),
      ]),
    );
    const [tagged, untagged] = geojson.features;
    expect(tagged?.properties?.tags).toBe('🛴 Fun stores, 📚 Bookstores');
    const raw = tagged?.properties?.description as { value: string } | string;
    expect(htmlToText(typeof raw === 'object' ? raw.value : raw)).toContain(
      'Tags: 🛴 Fun stores, 📚 Bookstores',
    );
    expect(tagged?.geometry).toEqual({ type: 'Point', coordinates: [2.3376, 48.8606, 0] });
    expect(untagged?.properties).not.toHaveProperty('tags');
    // KML 2.2's order inside a Placemark: description, styleUrl, ExtendedData, then the geometry.
    const first = doc.getElementsByTagName('Placemark')[0]!;
    const children = Array.from({ length: first.childNodes.length }, (_, i) => first.childNodes[i])
      .filter((node) => node?.nodeType === 1)
      .map((node) => node!.nodeName);
    expect(children).toEqual(['name', 'description', 'styleUrl', 'ExtendedData', 'Point']);
    expect(doc.getElementsByTagName('Data')[0]?.getAttribute('name')).toBe('tags');
  });

  it('puts the places in a Folder named after the list, carrying its description, inside the seed Document', () => {
    const description = 'Ramen & more in Tokyo, 2024\n<spring>';
    const { doc, geojson } = parse(
      buildKml([place()], KML_DOCUMENT_NAME, { name: '東京 🍜 & "Bars"', description }),
    );
    const document = doc.getElementsByTagName('Document')[0]!;
    const own = (element: typeof document, tag: string) =>
      Array.from({ length: element.childNodes.length }, (_, i) => element.childNodes[i]).filter(
        (node) => node?.nodeName === tag,
      )[0]?.textContent;
    expect(own(document, 'name')).toBe(KML_DOCUMENT_NAME);
    expect(own(document, 'description')).toBe(KML_DOCUMENT_DESCRIPTION);
    const folders = doc.getElementsByTagName('Folder');
    expect(folders).toHaveLength(1);
    expect(folders[0]?.parentNode?.nodeName).toBe('Document');
    expect(own(folders[0]!, 'name')).toBe('東京 🍜 & "Bars"');
    // As HTML, like a placemark's balloon: readers render it, and the archive's text stays text.
    expect(own(folders[0]!, 'description')).toBe(
      'Ramen &amp; more in Tokyo, 2024<br>&lt;spring&gt;',
    );
    expect(folders[0]?.getElementsByTagName('Placemark')).toHaveLength(1);
    expect(geojson.features[0]?.properties?.name).toBe('Louvre');
    // Without a description the seed's structure is kept: placemarks directly in the Document.
    expect(
      parse(buildKml([place()], KML_DOCUMENT_NAME, { name: 'L' })).doc.getElementsByTagName(
        'Folder',
      ),
    ).toHaveLength(0);
    expect(parse(buildKml([place()])).doc.getElementsByTagName('Folder')).toHaveLength(0);
  });

  it('carries the balloon HTML in CDATA, even when the text holds "]]>"', () => {
    const { doc } = parse(buildKml([place({ note: 'a ]]> b' })]));
    const placemarkDescription = doc
      .getElementsByTagName('Placemark')[0]
      ?.getElementsByTagName('description')[0];
    expect(placemarkDescription?.textContent).toContain('Note: a ]]&gt; b');
  });

  it('never links to a non-web URL', () => {
    expect(placeDescription(place({ url: 'javascript:alert(1)' }))).toBe('');
  });

  it(`names an untitled place "${UNTITLED_PLACE_NAME}"`, () => {
    expect(parse(buildKml([place({ title: '  ' })])).geojson.features[0]?.properties?.name).toBe(
      UNTITLED_PLACE_NAME,
    );
  });

  // Found by the property below: XML 1.1 readers (and @xmldom/xmldom) read NEL and LINE
  // SEPARATOR as line ends. Written as character references they come back as they were; in the
  // balloon's HTML they are line breaks.
  it('keeps NEL, LINE and PARAGRAPH SEPARATOR in titles, and breaks lines at them in notes', () => {
    const { geojson } = parse(
      buildKml([place({ title: 'a\u0085b\u2028c\u2029d', note: 'd\u0085e\u2028f\u2029g' })]),
    );
    const properties = geojson.features[0]?.properties ?? {};
    expect(properties.name).toBe('a\u0085b\u2028c\u2029d');
    const raw = properties.description as string | { value: string } | undefined;
    const description = htmlToText(typeof raw === 'object' ? raw.value : (raw ?? ''));
    expect(description).toContain('Note: d\ne\nf\ng');
  });

  it('stays well-formed and gives back any title and note (property)', () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(text, text, (title, note) => {
        const { geojson } = parse(buildKml([place({ title, note })]));
        const properties = geojson.features[0]?.properties ?? {};
        const cleanTitle = stripForbiddenXmlChars(title).trim();
        // XML parsers normalise line ends to \n.
        const norm = (s: string) => s.replace(/\r\n?/g, '\n');
        expect(norm(String(properties.name))).toBe(norm(cleanTitle || UNTITLED_PLACE_NAME));
        // togeojson reports a CDATA description as { '@type': 'html', value }.
        const raw = properties.description as string | { value: string } | undefined;
        const description = htmlToText(typeof raw === 'object' ? raw.value : (raw ?? ''));
        expect(norm(description)).toContain(
          norm(
            `Note: ${stripForbiddenXmlChars(note)}`.replace(/\r?\n|[\u0085\u2028\u2029]/g, '\n'),
          ),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildKml with tags and a list description (property)', () => {
  it('stays well-formed and gives back any tag names and description', () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 30 });
    const norm = (s: string) => s.replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n');
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), text, (tags, description) => {
        const kml = buildKml([place({ tags })], KML_DOCUMENT_NAME, { name: 'L', description });
        const { doc, geojson } = parse(kml);
        const written = tags.map(stripForbiddenXmlChars).join(', ');
        expect(norm(String(geojson.features[0]?.properties?.tags ?? ''))).toBe(norm(written));
        const folder = doc.getElementsByTagName('Folder')[0];
        const folderDescription = folder
          ? folder.getElementsByTagName('description')[0]
          : undefined;
        if (stripForbiddenXmlChars(description)) {
          // The description is escaped HTML (line breaks as <br>): read back as text, it is whole.
          const html = folderDescription?.textContent ?? '';
          expect(html).not.toMatch(/<(?!br>)/);
          expect(norm(htmlAsText(html))).toBe(norm(stripForbiddenXmlChars(description)));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("a list's KML parts", () => {
  it('are named after the output name, and every part carries the list Folder', () => {
    const places = Array.from({ length: 3 }, (_, i) =>
      place({ title: `P${i}`, coordinates: { lat: 10, lng: i / 100 } }),
    );
    const parts = writeListFiles(
      { name: 'Food', outputName: 'Food (Older)', description: 'Eat' },
      places as MappedPlace[],
      'kml',
      2,
    );
    expect(parts.map((p) => p.fileName)).toEqual([
      'Food (Older) (part 1 of 2).kml',
      'Food (Older) (part 2 of 2).kml',
    ]);
    for (const [index, part] of parts.entries()) {
      const folder = parse(part.data as string).doc.getElementsByTagName('Folder')[0];
      // Each part names itself: apps that name a list from the file keep the parts apart.
      expect(folder?.getElementsByTagName('name')[0]?.textContent).toBe(
        `Food (part ${index + 1} of 2)`,
      );
      expect(folder?.getElementsByTagName('description')[0]?.textContent).toBe('Eat');
    }
    // GPX's metadata (Organic Maps' list name) and GeoJSON's name too; one file keeps the name.
    const gpx = writeListFiles({ name: 'Food' }, places as MappedPlace[], 'gpx', 2);
    expect(
      gpx.map((part) => /<metadata><name>([^<]*)<\/name>/.exec(part.data as string)?.[1]),
    ).toEqual(['Food (part 1 of 2)', 'Food (part 2 of 2)']);
    const geojson = writeListFiles({ name: 'Food' }, places as MappedPlace[], 'geojson', 2);
    expect(geojson.map((part) => JSON.parse(part.data as string).name)).toEqual([
      'Food (part 1 of 2)',
      'Food (part 2 of 2)',
    ]);
    const whole = writeListFiles({ name: 'Food' }, places as MappedPlace[], 'geojson', 3);
    expect(JSON.parse(whole[0]!.data as string).name).toBe('Food');
  });
});
