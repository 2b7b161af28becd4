import Papa from 'papaparse';
import type { GeneratedList, GeneratedPlace } from '../src/index.js';

/** What a list's text parses back to with a real CSV parser. */
export interface ParsedList {
  descriptionRows: string[][];
  header: string[];
  /** Data rows with at least one non-empty cell. */
  rows: string[][];
  /** Rows between header and end whose cells are all empty (the final newline not counted). */
  emptyRows: number;
  errors: Papa.ParseError[];
}

/** Parses a generated list's text (BOM stripped, its own line ending) with PapaParse. */
export function parseList(list: GeneratedList): ParsedList {
  const text = list.bom ? list.csv.slice(1) : list.csv;
  const { data, errors } = Papa.parse<string[]>(text, { newline: list.crlf ? '\r\n' : '\n' });
  const headerAt = data.findIndex((row) => row.includes('Title') && row.includes('URL'));
  const after = data.slice(headerAt + 1);
  const blank = (row: string[]) => row.every((cell) => cell === '');
  return {
    descriptionRows: data.slice(0, headerAt),
    header: data[headerAt] ?? [],
    rows: after.filter((row) => !blank(row)),
    emptyRows: after.filter(blank).length - 1,
    errors,
  };
}

/** The cells a place must produce under a header. */
export function cellsOf(place: GeneratedPlace, header: GeneratedList['header']): string[] {
  switch (header) {
    case 'classic':
      return [place.title, place.note, place.url, place.comment];
    case 'tags':
      return [place.title, place.note, place.url, '', place.comment];
    case '2022':
      return [place.title, place.note, place.url];
  }
}
