/**
 * The published surface: every export of the main entry and of `./worker` has TSDoc in the shipped
 * `.d.ts` files (what an editor shows another project), the main entry stays small, and the
 * packages' exports offer their types to `import` only, as Node offers their code. Reads the
 * built `dist/` (turbo builds the package before its tests).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

describe('the exports of the packages other projects import', () => {
  /** Each package's directory, beside this one. */
  const PACKAGES = ['converter', 'resolver', 'contract'];
  const options = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };

  it.each(PACKAGES)(
    '@placeport/%s: TypeScript finds every entry for import and none for require (which Node refuses)',
    (name) => {
      const dir = fileURLToPath(new URL(`../../${name}/`, import.meta.url));
      const manifest = JSON.parse(readFileSync(`${dir}package.json`, 'utf8')) as {
        exports: Record<string, { import: { types: string; default: string } }>;
      };
      // A CommonJS file of the package itself, resolving the package by its name.
      const from = `${dir}x.cts`;
      for (const [entry, conditions] of Object.entries(manifest.exports)) {
        const specifier = `@placeport/${name}${entry.slice(1)}`;
        const resolve = (mode: ts.ResolutionMode) =>
          ts.resolveModuleName(specifier, from, options, ts.sys, undefined, undefined, mode)
            .resolvedModule?.resolvedFileName;
        expect(resolve(ts.ModuleKind.ESNext)).toBe(path.join(dir, conditions.import.types));
        expect({ specifier, required: resolve(ts.ModuleKind.CommonJS) }).toEqual({
          specifier,
          required: undefined,
        });
      }
    },
  );
});
