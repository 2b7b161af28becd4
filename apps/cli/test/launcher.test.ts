/**
 * The launcher and the two bundles (`build.mjs`): help and wrong usage are answered by
 * `dist/placeport.cjs` alone, without the run's bundle; a launcher with nothing built says so; a
 * run without lookups loads neither the lookups' chunks nor node:crypto (issue 19: start-up costs
 * only what the run uses).
 */
import { spawnSync } from 'node:child_process';
import { generateTakeout } from '@placeport/testkit';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, run as runBin } from './support.js';

const built = path.join(path.dirname(BIN), '../dist/placeport.cjs');
let scratch: string | undefined;

/** A copy of the package with only `files` of it (paths relative to the package). */
async function packageWith(files: Record<string, string>): Promise<string> {
  scratch = await mkdtemp(path.join(tmpdir(), 'placeport-launcher-'));
  for (const [target, source] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(scratch, target)), { recursive: true });
    await copyFile(source, path.join(scratch, target));
  }
  return path.join(scratch, 'bin/placeport.cjs');
}

function run(bin: string, args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { HOME: tmpdir() } });
}

afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe('the placeport launcher', () => {
  it('answers --help and wrong usage with the command-line bundle alone, never reading the run', async () => {
    const bin = await packageWith({ 'bin/placeport.cjs': BIN, 'dist/placeport.cjs': built });
    const help = run(bin, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^placeport — turn Google Maps saved places/);
    const wrong = run(bin, ['convert', 'takeout.zip', '--out', 'maps', '--format', 'shp']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(
      '--format must be one of kml, kmz, gpx, geojson, csv (got "shp")',
    );
    // A run needs the other bundle: without it the import fails (the package is broken).
    const convert = run(bin, ['convert', 'takeout.zip', '--out', 'maps']);
    expect(convert.status).not.toBe(0);
    expect(convert.stderr).toMatch(/main\.js/);
  });

  it('says the tool is not built yet (exit 2) when nothing is built', async () => {
    const bin = await packageWith({ 'bin/placeport.cjs': BIN });
    const result = run(bin, ['--help']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('the command-line tool is not built yet');
  });
});

/** What a run of `args` imports (module URLs) and which of Node's own modules it loads. */
async function loadsOf(args: string[]): Promise<{ imports: string[]; natives: string[] }> {
  const dir = await mkdtemp(path.join(scratch!, 'run-'));
  // The loader's resolve hook runs on a thread of its own in Node 20: it appends to a file.
  const imports = path.join(dir, 'imports.txt');
  const natives = path.join(dir, 'natives.json');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(imports)}, resolved.url + '\\n');
  return resolved;
}`;
  const preload = path.join(dir, 'preload.mjs');
  await writeFile(
    preload,
    `import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
process.on('exit', () => writeFileSync(${JSON.stringify(natives)}, JSON.stringify(process.moduleLoadList)));
`,
  );
  // No Google to reach: a run with lookups gets no answer, at once (a closed loopback port).
  const result = await runBin(args, {
    google: 'http://127.0.0.1:9',
    cacheHome: dir,
    extra: { NODE_OPTIONS: `--import ${preload}` },
  });
  expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/); // no stack trace
  return {
    imports: (await readFile(imports, 'utf8')).split('\n').filter(Boolean),
    natives: JSON.parse(await readFile(natives, 'utf8')) as string[],
  };
}

describe('what a run loads', () => {
  it('loads neither node:crypto nor the lookups when no place needs one (--offline)', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'placeport-loads-'));
    const archive = path.join(scratch, 'takeout.zip');
    // Links without coordinates: a run with lookups has them to look up.
    await writeFile(
      archive,
      generateTakeout({ seed: 3, lists: [{ name: 'Food', places: 20 }] }).zip,
    );
    const out = (name: string) => ['--out', path.join(scratch!, name)];
    const offline = await loadsOf(['convert', archive, ...out('offline'), '--offline']);
    const online = await loadsOf(['convert', archive, ...out('online')]);
    const chunks = (imports: string[]) => imports.filter((url) => url.includes('/dist/chunks/'));
    // The lookups' chunks (the resolver, undici, the cache file) are what the second run adds.
    const lookups = chunks(online.imports).filter((url) => !offline.imports.includes(url));
    expect(lookups.length).toBeGreaterThan(0);
    expect(offline.imports.some((url) => url.endsWith('/dist/main.js'))).toBe(true);
    expect(offline.natives).toContain('NativeModule zlib');
    expect(offline.natives).not.toContain('NativeModule crypto');
  });
});
