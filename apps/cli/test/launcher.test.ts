/**
 * The launcher and the two bundles (`build.mjs`): help and wrong usage are answered by
 * `dist/placeport.cjs` alone, without the run's bundle; a launcher with nothing built says so.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from './support.js';

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
