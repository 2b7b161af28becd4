/**
 * The published surface: every export of the main entry and of `./worker` has TSDoc in the shipped
 * `.d.ts` files (what an editor shows another project), and the main entry stays small. Reads the
 * built `dist/` (turbo builds the package before its tests).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
const ENTRIES = ['index.d.ts', 'worker/index.d.ts'];

/** Each export of an entry's declarations with its documentation text (empty when it has none). */
function documentedExports(entry: string): Map<string, string> {
  const program = ts.createProgram([dist(entry)], { noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(dist(entry))!)!;
  const docs = new Map<string, string>();
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    docs.set(symbol.name, ts.displayPartsToString(target.getDocumentationComment(checker)).trim());
  }
  return docs;
}

describe('the public API', () => {
  it('is built', () => {
    for (const entry of ENTRIES) expect(existsSync(dist(entry))).toBe(true);
  });

  it.each(ENTRIES)('%s: every export carries TSDoc', (entry) => {
    const docs = documentedExports(entry);
    expect(docs.size).toBeGreaterThan(5);
    const undocumented = [...docs].filter(([, text]) => text === '').map(([name]) => name);
    expect(undocumented).toEqual([]);
  });

  it('keeps the main entry small: the archive, writers, errors and data types', () => {
    const names = [...documentedExports('index.d.ts').keys()];
    expect(names).toEqual(
      expect.arrayContaining([
        'inspectArchive',
        'convertArchive',
        'zipRun',
        'buildKml',
        'buildKmz',
        'buildGpx',
        'buildGeoJson',
        'buildCoordinatesCsv',
        'buildFailedCsv',
        'ConverterError',
      ]),
    );
    expect(names.length).toBeLessThan(60);
    // Internals stay behind ./internal.
    for (const internal of ['convertLists', 'readArchive', 'escapeXml', 's2CellOfFtid']) {
      expect(names).not.toContain(internal);
    }
  });
});
