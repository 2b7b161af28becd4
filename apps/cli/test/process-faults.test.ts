/**
 * The CLI when its process and its streams misbehave, end to end with the built `placeport`: a
 * reader of its output that goes away (`2>&1 | head`, `--json | true`), the terminal closing
 * (SIGHUP), and a process ended in the middle of writing a file. Every assertion is on what the run
 * did, never on how long it took.
 */
import { generateTakeout, startFakeGoogle, type FakeGoogle } from '@placeport/testkit';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outFolderProblem, STALE_TEMPORARY_MS, writePlans, type ListPlan } from '../src/outputs.js';
import type { CliSummary } from '../src/summary.js';
import { run as runPlaceport, start, tempFolder, until, type RunEnvironment } from './support.js';

describe('a run whose process or output misbehaves', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('process-faults'));
    google = await startFakeGoogle();
  });

  afterAll(async () => {
    await google.close();
    await remove();
  });

  // Places named by id: 20 that answer, 10 that never do (only a signal ends their lookups).
  const takeout = generateTakeout({
    seed: 41,
    quirks: false,
    includeNonPlaceLists: false,
    lists: [
      { name: 'Quick', places: 20, kinds: { ftid: 1 } },
      { name: 'Stuck', places: 10, kinds: { ftid: 1 } },
    ],
  });

  async function workspace(name: string, extra?: RunEnvironment['extra']) {
    const home = path.join(dir, name);
    await mkdir(home, { recursive: true });
    const archive = path.join(home, 'takeout.zip');
    await writeFile(archive, takeout.zip);
    const where: RunEnvironment = {
      google: google.url,
      cacheHome: path.join(home, 'cache'),
      ...(extra ? { extra } : {}),
    };
    return { archive, out: path.join(home, 'out'), where, cache: path.join(home, 'cache') };
  }

  /** Starts a run whose Stuck places hang, and resolves once the Quick ones were all asked. */
  async function stuckRun(
    name: string,
    stdout: 'keep' | 'close' = 'keep',
    extra?: RunEnvironment['extra'],
  ) {
    const quick = new Set(takeout.lists[0]!.places.map((p) => p.cid)).size;
    for (const place of takeout.lists[1]!.places) google.setPlace(place.cid!, { hang: true });
    google.clearRequests();
    const ws = await workspace(name, extra);
    const run = start(['convert', ws.archive, '--out', ws.out, '--json'], ws.where);
    if (stdout === 'close') run.child.stdout!.destroy();
    await until(() => google.count() >= quick + 5);
    return { ...ws, ...run };
  }

  it('stderr closed by its reader (`2>&1 | head -1`): the run goes on silently, writes its files and its cache', async () => {
    const run = await stuckRun('stderr-closed');
    run.child.stderr!.destroy();
    // The interrupt's message is the next write to stderr: it meets the closed pipe (EPIPE), which
    // ended the process (exit 1, nothing written, every lookup lost) before.
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.interrupted).toBe('SIGINT');
    expect(summary.lists.map((list) => list.converted)).toEqual([20, 0]);
    expect((await readdir(run.out)).sort()).toEqual(
      summary.lists.flatMap((list) => list.files.map((file) => path.basename(file))).sort(),
    );
    expect(summary.cache?.saved).toBe(20);
    const cacheFile = JSON.parse(
      await readFile(path.join(run.cache, 'placeport', 'places-v1.json'), 'utf8'),
    ) as { entries: unknown[] };
    expect(cacheFile.entries).toHaveLength(20);
  });

  it('stdout closed before the summary (`--json | true`): no crash, the files written, exit as it would have', async () => {
    const ws = await workspace('stdout-closed');
    const run = start(['convert', ws.archive, '--out', ws.out, '--json', '--offline'], ws.where);
    run.child.stdout!.destroy();
    const result = await run.done;
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(result.code).toBe(0);
    expect((await readdir(ws.out)).sort()).toEqual([
      'Quick - failed-places.csv',
      'Stuck - failed-places.csv',
    ]);
  });

  it('SIGHUP (the terminal closed, an ssh session lost) stops the run as SIGTERM does: its work written, exit 129', async () => {
    const run = await stuckRun('hangup');
    run.child.kill('SIGHUP');
    const result = await run.done;
    expect(result.code).toBe(129);
    const summary = JSON.parse(result.stdout) as CliSummary;
    expect(summary.interrupted).toBe('SIGHUP');
    expect(summary.lists.map((list) => [list.converted, list.unplaced])).toEqual([
      [20, {}],
      [0, { interrupted: 10 }],
    ]);
    expect(summary.cache?.saved).toBe(20);
    expect(result.stderr).toContain('placeport: interrupted: looking up no more places');
    expect(result.stderr).toContain('send it again to stop at once');
  });

  /** The entries of the cache file under `cache`, or none while there is no whole file there. */
  async function cacheEntries(cache: string): Promise<number> {
    try {
      const file = await readFile(path.join(cache, 'placeport', 'places-v1.json'), 'utf8');
      return (JSON.parse(file) as { entries: unknown[] }).entries.length;
    } catch {
      return 0;
    }
  }

  it('a run killed outright (SIGKILL, a power cut) in the middle of its lookups keeps what it found in the cache file', async () => {
    // Saved every 50 ms instead of every 30 s, so the test need not wait half a minute.
    const run = await stuckRun('killed-mid-lookups', 'keep', { PLACEPORT_CACHE_SAVE_MS: '50' });
    while ((await cacheEntries(run.cache)) < 20) await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGKILL');
    // Killed in the middle of its lookups (no summary): the file was saved while they went on.
    expect((await run.done).stdout).toBe('');
    expect(await cacheEntries(run.cache)).toBe(20);
    // The next run looks up only the places the killed one had not found.
    for (const place of takeout.lists[1]!.places) google.setPlace(place.cid!, {});
    google.clearRequests();
    const again = await runPlaceport(
      ['convert', run.archive, '--out', `${run.out}-again`, '--json'],
      run.where,
    );
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout) as CliSummary;
    expect(summary.lists.map((list) => list.converted)).toEqual([20, 10]);
    expect(summary.lookups.cacheHits).toBe(20);
  });

  it('a cache file that cannot be saved during the lookups is said once; the run goes on and says it again at its end', async () => {
    const run = await stuckRun('unsaved-mid-lookups', 'keep', { PLACEPORT_CACHE_SAVE_MS: '20' });
    // A folder where the cache file goes: every save fails (EISDIR), loading found nothing there.
    await mkdir(path.join(run.cache, 'placeport', 'places-v1.json'), { recursive: true });
    await until(() => run.stderr().includes('could not be saved during the lookups'));
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr.match(/could not be saved during the lookups/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/could not be saved \(EISDIR\)/);
    expect((JSON.parse(result.stdout) as CliSummary).lists.map((list) => list.converted)).toEqual([
      20, 0,
    ]);
  });
});

/** One list's plan of `files` files, each written by `content`, into `outDir`. */
function planOf(outDir: string, files: Array<() => Iterable<string>>): ListPlan {
  return {
    path: 'Saved/Plan.csv',
    files: files.map((content, i) => ({ target: path.join(outDir, `file-${i}.kml`), content })),
  };
}

describe('writing files', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('writing'));
  });

  afterAll(async () => {
    await remove();
  });

  it('says what is wrong with an --out that is a dangling symbolic link, or links in a loop', async () => {
    const dangling = path.join(dir, 'dangling');
    await symlink(path.join(dir, 'not-there'), dangling);
    expect(await outFolderProblem(dangling)).toBe(
      `--out ${dangling} is a symbolic link to ${path.join(dir, 'not-there')}, which does not exist: make that folder, or give another --out folder`,
    );
    const loop = path.join(dir, 'loop');
    await symlink(loop, loop);
    expect(await outFolderProblem(loop)).toBe(
      `--out ${loop} cannot be used: its symbolic links lead round in a loop (ELOOP)`,
    );
  });

  it('lets the process hear a signal between two files (writing itself is synchronous)', async () => {
    const order: string[] = [];
    const file = (name: string) =>
      function* () {
        order.push(name);
        yield `<kml>${name}</kml>`;
      };
    setImmediate(() => order.push('turn'));
    const outDir = path.join(dir, 'turns');
    const done = await writePlans(
      [planOf(outDir, [file('a'), file('b'), file('c')])],
      outDir,
      false,
    );
    expect(done.get('Saved/Plan.csv')!.files).toHaveLength(3);
    // The event loop turned before the last file was written, as it does between every two.
    expect(order.indexOf('turn')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('turn')).toBeLessThan(order.indexOf('c'));
  });

  it("removes a killed run's temporary files once an hour old, and nothing else", async () => {
    const outDir = path.join(dir, 'stale');
    await mkdir(outDir, { recursive: true });
    const names = {
      stale: '.placeport-4242-3.tmp',
      fresh: '.placeport-4243-1.tmp',
      mine: '.placeport-notes.tmp',
      folder: '.placeport-4244-1.tmp',
    };
    for (const name of [names.stale, names.fresh, names.mine]) {
      await writeFile(path.join(outDir, name), 'half a file');
    }
    await mkdir(path.join(outDir, names.folder));
    const old = (Date.now() - STALE_TEMPORARY_MS - 60_000) / 1000;
    for (const name of [names.stale, names.mine, names.folder]) {
      await utimes(path.join(outDir, name), old, old);
    }
    const file = function* () {
      yield '<kml/>';
    };
    await writePlans([planOf(outDir, [file])], outDir, false);
    expect((await readdir(outDir)).sort()).toEqual(
      [names.fresh, names.folder, names.mine, 'file-0.kml'].sort(),
    );
  });

  it('a file whose writing fails half way leaves neither the file nor its temporary one', async () => {
    const outDir = path.join(dir, 'failing');
    function* failing() {
      yield '<kml>';
      throw new Error('the writer failed');
    }
    const done = await writePlans([planOf(outDir, [failing])], outDir, false);
    expect(done.get('Saved/Plan.csv')!.notWritten).toEqual([
      { file: path.join(outDir, 'file-0.kml'), reason: 'the writer failed' },
    ]);
    expect(await readdir(outDir)).toEqual([]);
  });

  /** Runs writePlans in a child process whose second file's writing ends the process (`how`). */
  function writeAndDie(outDir: string, how: 'exit' | 'kill'): Promise<number | null> {
    const outputs = fileURLToPath(new URL('../src/outputs.ts', import.meta.url));
    const script = `
      import { writePlans } from ${JSON.stringify(outputs)};
      const big = 'x'.repeat(200_000);
      function* whole() { yield '<kml>whole</kml>'; }
      function* cut() { yield big; yield big; ${how === 'exit' ? 'process.exit(130)' : "process.kill(process.pid, 'SIGKILL')"}; yield big; }
      await writePlans([{ path: 'Saved/Plan.csv', files: [
        { target: ${JSON.stringify(path.join(outDir, 'whole.kml'))}, content: whole },
        { target: ${JSON.stringify(path.join(outDir, 'cut.kml'))}, content: cut },
      ] }], ${JSON.stringify(outDir)}, false);
    `;
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: path.dirname(outputs) },
      );
      child.on('close', (code) => resolve(code));
    });
  }

  it('a process that exits in the middle of a file (an uncaught error, process.exit) leaves no part of it', async () => {
    const outDir = path.join(dir, 'exit');
    expect(await writeAndDie(outDir, 'exit')).toBe(130);
    expect(await readdir(outDir)).toEqual(['whole.kml']);
    expect(await readFile(path.join(outDir, 'whole.kml'), 'utf8')).toBe('<kml>whole</kml>');
  });

  it('a process killed in the middle of a file (SIGKILL, a power cut) never leaves it under its name', async () => {
    const outDir = path.join(dir, 'killed');
    await writeAndDie(outDir, 'kill');
    const left = await readdir(outDir);
    expect(left).toContain('whole.kml');
    expect(left).not.toContain('cut.kml');
    // What is left of it is hidden, and named as what it is.
    expect(left.filter((name) => name !== 'whole.kml')).toEqual([
      expect.stringMatching(/^\.placeport-\d+-\d+\.tmp$/),
    ]);
  });
});
