/**
 * The packages as another project gets them: `pnpm pack` of the contract, the converter, the
 * resolver and this CLI, the converter's tarball contents checked, then an install of the tarballs
 * into a scratch project (npm, as a stranger would) that imports the converter's public API and
 * runs the `placeport` bin. Needs the four packages built (turbo's `placeport#test` depends on the builds)
 * and the npm registry for their third-party dependencies.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTakeout } from '@placeport/testkit';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const PACKAGES = {
  contract: path.join(root, 'packages/contract'),
  converter: path.join(root, 'packages/converter'),
  resolver: path.join(root, 'packages/resolver'),
  cli: path.join(root, 'apps/cli'),
};

/** How to run pnpm here: the one running this test when there is one, else the pinned version. */
async function pnpmCommand(): Promise<[string, string[]]> {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(path.basename(execPath)) && /\.c?js$/.test(execPath)) {
    return [process.execPath, [execPath]];
  }
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  return ['npx', ['--yes', manifest.packageManager.split('+')[0]!]];
}

let scratch: string;
const tarballs: Record<keyof typeof PACKAGES, string> = {
  contract: '',
  converter: '',
  resolver: '',
  cli: '',
};

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'placeport-pack-'));
  const packs = path.join(scratch, 'tarballs');
  await mkdir(packs);
  const [pnpm, prefix] = await pnpmCommand();
  for (const [name, dir] of Object.entries(PACKAGES) as Array<[keyof typeof PACKAGES, string]>) {
    const before = new Set(await readdir(packs));
    await run(pnpm, [...prefix, 'pack', '--pack-destination', packs], { cwd: dir });
    const made = (await readdir(packs)).find((file) => !before.has(file));
    if (!made) throw new Error(`pnpm pack made no tarball for ${name}`);
    tarballs[name] = path.join(packs, made);
  }
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function listTarball(file: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', file]);
  return stdout.split('\n').filter(Boolean);
}

describe('the packed converter', () => {
  it('holds its built code, types for every entry and the README, and no tests or sources', async () => {
    const files = await listTarball(tarballs.converter);
    for (const entry of ['index', 'internal', 'worker/index', 'worker/entry']) {
      expect(files).toContain(`package/dist/${entry}.js`);
      expect(files).toContain(`package/dist/${entry}.d.ts`);
    }
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/package.json');
    expect(files.filter((file) => /\.test\.|\/test\/|\/src\/|\/bench\//.test(file))).toEqual([]);
  });

  it('holds no module left from an earlier build: every built file has its source (contract, converter, resolver)', async () => {
    for (const name of ['contract', 'converter', 'resolver'] as const) {
      const built = (await listTarball(tarballs[name]))
        .filter((file) => file.startsWith('package/dist/') && file.endsWith('.js'))
        .map((file) => file.slice('package/dist/'.length, -'.js'.length));
      expect(built.length).toBeGreaterThan(0);
      const sources = await Promise.all(
        built.map((module) =>
          readFile(path.join(PACKAGES[name], 'src', `${module}.ts`)).then(
            () => null,
            () => module,
          ),
        ),
      );
      expect(sources.filter((module) => module !== null)).toEqual([]);
    }
  });

  it('names real versions, not workspace or catalog ones, in the packed manifests', async () => {
    for (const file of Object.values(tarballs)) {
      const { stdout } = await run('tar', ['-xzOf', file, 'package/package.json']);
      expect(stdout).not.toMatch(/workspace:|catalog:/);
    }
  });
});

describe('a scratch project that installs the tarballs', () => {
  let project: string;

  beforeAll(async () => {
    project = path.join(scratch, 'project');
    await mkdir(project);
    const file = (tarball: string) => `file:${tarball}`;
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'scratch',
        private: true,
        type: 'module',
        dependencies: {
          '@placeport/converter': file(tarballs.converter),
          '@placeport/resolver': file(tarballs.resolver),
          placeport: file(tarballs.cli),
        },
        // The CLI and the resolver name the converter by version, the converter the contract; point
        // them at the tarballs too.
        overrides: {
          '@placeport/contract': file(tarballs.contract),
          '@placeport/converter': file(tarballs.converter),
          '@placeport/resolver': file(tarballs.resolver),
        },
      }),
    );
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      { cwd: project },
    );
    const archive = generateTakeout({
      seed: 7,
      lists: [
        { name: 'Want to go', places: 30 },
        { name: 'Food', places: 30 },
      ],
      includeNonPlaceLists: false,
      savedPlacesJson: { format: 'new', places: 20 },
    });
    await writeFile(path.join(project, 'takeout.zip'), archive.zip);
  });

  it('imports the public API and converts an archive to every format', async () => {
    await writeFile(
      path.join(project, 'use.mjs'),
      `import { readFile } from 'node:fs/promises';
import { convertArchive, inspectArchive, OUTPUT_FORMATS, zipRun } from '@placeport/converter';
const bytes = new Uint8Array(await readFile('takeout.zip'));
const { lists } = inspectArchive(bytes);
const run = await convertArchive(bytes, { formats: OUTPUT_FORMATS });
const zip = zipRun(run.lists, 'gpx');
console.log(JSON.stringify({
  lists: lists.map((list) => [list.name, list.rowCount]),
  totals: run.totals,
  files: run.files.map((file) => file.fileName),
  zipBytes: zip.reduce((sum, chunk) => sum + chunk.length, 0),
}));
`,
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: project });
    const out = JSON.parse(stdout) as {
      lists: Array<[string, number]>;
      totals: { total: number; converted: number };
      files: string[];
      zipBytes: number;
    };
    expect(out.lists).toEqual([
      ['Want to go', 30],
      ['Food', 30],
      ['Saved Places', 20],
    ]);
    expect(out.totals.total).toBe(80);
    expect(out.totals.converted).toBeGreaterThan(0);
    for (const extension of ['.kml', '.kmz', '.gpx', '.geojson', '.csv']) {
      expect(out.files.some((name) => name.endsWith(extension))).toBe(true);
    }
    expect(out.zipBytes).toBeGreaterThan(0);
  });

  it('types the public API for TypeScript users', async () => {
    const types = await readFile(
      path.join(project, 'node_modules/@placeport/converter/dist/index.d.ts'),
      'utf8',
    );
    expect(types).toMatch(/inspectArchive/);
    expect(types).toMatch(/convertArchive/);
  });

  it('runs the placeport bin', async () => {
    const bin = path.join(project, 'node_modules/.bin/placeport');
    const { stdout } = await run(
      bin,
      ['convert', 'takeout.zip', '--out', 'out', '--offline', '--format', 'gpx', '--json'],
      { cwd: project },
    );
    const summary = JSON.parse(stdout) as { lists: Array<{ files: string[] }> };
    const written = summary.lists.flatMap((list) => list.files);
    expect(written.some((file) => file.endsWith('.gpx'))).toBe(true);
    const gpx = await readFile(
      written.find((file) => file.endsWith('.gpx'))!,
      'utf8',
    );
    expect(gpx).toContain('<gpx');
  });
});
