import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { buildFailedCsv } from './failed-csv.js';
import { parseSavedPlacesCsv } from './csv.js';

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

  it.each(['=SUM(A1)', '+1', '-1', '@cmd', '\tx', '\rx'])('neutralises the formula %j', (cell) => {
    const rows = Papa.parse<string[]>(buildFailedCsv([{ title: cell, url: 'u' }]).slice(1), {
      skipEmptyLines: true,
    }).data;
    expect(rows[1]?.[0]).toBe(`'${cell}`);
  });

  it('can be uploaded again: the converter reads it back', () => {
    const csv = buildFailedCsv([
      { title: 'Café', note: 'n', url: 'https://www.google.com/maps/place/x', comment: 'c' },
    ]);
    expect(parseSavedPlacesCsv(csv).places).toEqual([
      { title: 'Café', note: 'n', url: 'https://www.google.com/maps/place/x', comment: 'c' },
    ]);
  });
});
