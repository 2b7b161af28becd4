/**
 * The main entry, loaded in Node, pulls in only the package's declared dependencies (and never
 * comlink, which only `./worker` needs): a Node user's install and memory hold nothing the worker
 * glue wants. Loads the built `dist/` in a child Node with a resolve hook recording every import.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const scratch = mkdtempSync(path.join(tmpdir(), 'converter-imports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Resolved {
  specifier: string;
  url: string;
}

/** Every import resolved while Node loads `entry` (a file of `dist/`). */
function importsOf(entry: string): Resolved[] {
  const file = path.join(scratch, `${entry.replaceAll('/', '-')}.jsonl`);
  const hooks = pathToFileURL(path.join(root, 'test/record-imports.mjs')).href;
  const target = pathToFileURL(path.join(root, 'dist', entry)).href;
  const script = [
    "import { register } from 'node:module';",
    `register(${JSON.stringify(hooks)}, { data: { file: ${JSON.stringify(file)} } });`,
    `await import(${JSON.stringify(target)});`,
  ].join('\n');
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe' });
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Resolved);
}

/** The name in the nearest package.json above `file` (a workspace package, linked from its folder). */
function workspacePackageOf(file: string): string {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name;
  }
  return file;
}

/** The package a resolved module belongs to: `dist` for the converter's own files, `node` for Node's. */
function packageOf(url: string): string {
  if (url.startsWith('node:')) return 'node';
  const file = fileURLToPath(url);
  const at = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (at < 0) return file.startsWith(path.join(root, 'dist')) ? 'dist' : workspacePackageOf(file);
  const [scope, name] = file.slice(at + '/node_modules/'.length).split(path.sep);
  return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
}

describe('the main entry in Node', () => {
  it('loads only the converter and its declared dependencies, never comlink', () => {
    const packages = new Set(importsOf('index.js').map(({ url }) => packageOf(url)));
    packages.delete('dist');
    // Node's own modules install nothing (fflate's Node build asks for `module`).
    packages.delete('node');
    const declared = Object.keys(manifest.dependencies).filter((name) => name !== 'comlink');
    expect([...packages].filter((name) => !declared.includes(name))).toEqual([]);
    expect(packages.has('comlink')).toBe(false);
    // What the main entry is for: the writers, the archive reader and the CSV parser; the shared
    // messages, reasons and limits.
    expect([...packages].sort()).toEqual(['@placeport/contract', 'fflate', 'papaparse', 'valibot']);
  });

  it('is the worker entry that brings comlink', () => {
    const specifiers = importsOf('worker/index.js').map(({ specifier }) => specifier);
    expect(specifiers).toContain('comlink');
  });
});
