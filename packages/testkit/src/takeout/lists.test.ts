import { describe, expect, it } from 'vitest';
import { cellsOf, parseList } from '../../test/parse-list.js';
import { generateTakeout, HEADER_ROWS, type GeneratedList, type PlaceListKind } from '../index.js';

const ALL_KINDS: PlaceListKind[] = [
  'pin',
  'search',
  'centre',
  'ftid',
  'cid',
  'ludocid',
  'q-address',
  'zero',
  'no-link',
];
/** True if the text holds a character XML 1.0 forbids (C0 controls but tab/LF/CR, U+FFFE/F). */
function forbiddenInXml(text: string): boolean {
  return [...text].some((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return (code < 0x20 && ![0x9, 0xa, 0xd].includes(code)) || code === 0xfffe || code === 0xffff;
  });
}
const seeds = [1, 2, 3, 42, 2024];

function placeLists(seed: number): GeneratedList[] {
  return generateTakeout({ seed }).lists.filter((l) => l.isPlaceList);
}

describe('each list parses back with a real CSV parser', () => {
  it.each(seeds)('seed %i', (seed) => {
    for (const list of generateTakeout({ seed }).lists) {
      const parsed = parseList(list);
      expect(parsed.errors).toEqual([]);
      expect(parsed.header.join(',')).toBe(HEADER_ROWS[list.header]);
      expect(parsed.rows).toEqual(list.places.map((p) => cellsOf(p, list.header)));
      expect(parsed.emptyRows).toBe(list.emptyRows);
      expect(parsed.descriptionRows).toEqual(
        list.description === undefined ? [] : [[list.description], ['']],
      );
      expect(list.csv.startsWith('\uFEFF')).toBe(list.bom);
      expect(list.csv.replaceAll('\r\n', '').includes('\r')).toBe(false);
      expect(list.csv.includes('\r\n')).toBe(list.crlf);
    }
  });

  it('draws header and layout from the seed for lists that do not fix them', () => {
    const lists = Array.from({ length: 40 }, (_, i) => ({ name: `L${i}`, places: 3 }));
    const generated = generateTakeout({ seed: 12, lists, includeNonPlaceLists: false }).lists;
    expect(new Set(generated.map((l) => l.header))).toEqual(new Set(['classic', 'tags', '2022']));
    expect(generated.some((l) => l.bom)).toBe(true);
    expect(generated.some((l) => l.crlf)).toBe(true);
    expect(generated.some((l) => l.description !== undefined)).toBe(true);
    for (const list of generated) expect(parseList(list).rows.length).toBe(3);
  });
});

describe('the default archive shows every real-world quirk', () => {
  it.each(seeds)('seed %i', (seed) => {
    const lists = placeLists(seed);
    const places = lists.flatMap((l) => l.places);
    expect(new Set(places.map((p) => p.kind))).toEqual(new Set(ALL_KINDS));
    expect(new Set(lists.map((l) => l.header))).toEqual(new Set(['classic', 'tags', '2022']));
    expect(lists.some((l) => l.description !== undefined)).toBe(true);
    expect(lists.some((l) => l.bom) && lists.some((l) => l.crlf)).toBe(true);

    const titles = places.map((p) => p.title);
    expect(
      titles.some((t) =>
        /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u.test(t),
      ),
    ).toBe(true);
    expect(titles.some((t) => /\p{Script=Arabic}/u.test(t))).toBe(true);
    expect(titles.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
    expect(titles.some((t) => /[&<>]/.test(t))).toBe(true);
    expect(titles.some((t) => t.includes('"'))).toBe(true);
    expect(titles.some((t) => /^[=+\-@]/.test(t))).toBe(true);

    const notes = places.map((p) => p.note);
    expect(notes.some((n) => n.includes('\n'))).toBe(true);
    expect(notes.some((n) => n.includes('"') && n.includes(','))).toBe(true);
    expect(notes.some((n) => forbiddenInXml(n))).toBe(true);
    expect(places.some((p) => p.comment !== '')).toBe(true);

    for (const list of lists.filter((l) => l.places.length > 0)) {
      expect(list.csv).toMatch(list.crlf ? /\r\n\r\n/ : /\n\n/);
      expect(list.csv).toMatch(
        new RegExp(`(^|\\n),{${HEADER_ROWS[list.header].split(',').length - 1}}\\r?\\n`),
      );
    }
  });

  it('puts every kind and text quirk in one list when it is large enough', () => {
    const list = generateTakeout({ seed: 4, lists: [{ name: 'Big enough', places: 25 }] }).lists[0];
    const kinds = new Set(list?.places.map((p) => p.kind));
    expect(kinds).toEqual(new Set(ALL_KINDS));
    expect(list?.places.some((p) => forbiddenInXml(p.note))).toBe(true);
  });

  it('shares a place of the first list with every other list', () => {
    const [first, ...rest] = placeLists(6);
    const firstUrls = new Set(first?.places.map((p) => p.url));
    for (const list of rest) expect(list.places.some((p) => firstUrls.has(p.url))).toBe(true);
  });

  it('writes the tags header with its ,,,, row and comment-less 2022 lists', () => {
    const lists = placeLists(1);
    const tags = lists.find((l) => l.header === 'tags');
    expect(tags?.csv.split('\n').slice(0, 2)).toEqual(['Title,Note,URL,Tags,Comment', ',,,,']);
    const old = lists.find((l) => l.header === '2022');
    expect(old?.places.every((p) => p.comment === '')).toBe(true);
  });
});

describe('without quirks', () => {
  it('follows the real mix: mostly ftid links, a few dropped pins', () => {
    const list = generateTakeout({
      seed: 10,
      quirks: false,
      lists: [{ name: 'Real mix', places: 20_000 }],
    }).lists[0];
    const count = (kind: PlaceListKind) => list?.places.filter((p) => p.kind === kind).length ?? 0;
    expect(count('ftid') / 20_000).toBeGreaterThan(0.94);
    expect(count('search') / 20_000).toBeGreaterThan(0.01);
    expect(count('search') / 20_000).toBeLessThan(0.03);
  });

  it('uses only the kinds asked for', () => {
    const list = generateTakeout({
      seed: 10,
      lists: [{ name: 'Only zero', places: 50, kinds: { zero: 1, 'no-link': 1 } }],
    }).lists[0];
    expect(new Set(list?.places.map((p) => p.kind))).toEqual(new Set(['zero', 'no-link']));
  });
});
