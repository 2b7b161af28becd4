import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from './csv.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ["it's <b>&</b>", "it's <b>&</b>"],
  ])('writes %j as %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});

describe('csvRow', () => {
  it('round-trips awkward fields through a real CSV parser', () => {
    const fields = ['Bar "Le Chat" & Co', 'line 1\nline 2, "quoted"', 'https://x/?a=1,2', ''];
    const parsed = Papa.parse<string[]>(csvRow(fields), { newline: '\n' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([fields]);
  });
});
