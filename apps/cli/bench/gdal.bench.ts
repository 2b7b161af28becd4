/**
 * `pnpm bench`: the CLI against GDAL on the same 50,000 points, whole processes, paired. The CLI
 * converts a Takeout-shaped ZIP whose links all carry coordinates (`placeport convert big.zip
 * --offline`); GDAL's `ogr2ogr` writes KML from a plain CSV of the same points (name, description,
 * lat, lon). Prints each side's medians (wall, CPU, peak memory) and the ratios CLI / GDAL (issue 19's
 * targets: wall and CPU ≤ 1.0, peak ≤ 2×), where the CLI's time goes, and the same at 500 places,
 * a typical export's size, where start-up is most of a run. Without `ogr2ogr` it installs `gdal-bin` with apt-get
 * when running as root, else says why it skips GDAL and prints the CLI's own figures.
 */
import { generateTakeout, type GeneratedPlace } from '@placeport/testkit';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchEnv,
  cleanUp,
  hasGnuTime,
  meanCpu,
  meanCpuRatio,
  medianOf,
  paired,
  pairedRatio,
  show,
  timeProcess,
  type PairedRuns,
  type ProcessFigures,
  type Side,
} from './processes.js';
import { profileRun } from './where-time-goes.js';

const PLACES = 50_000;
const ROUNDS = 11;
/** A typical export's size, where start-up is most of a run. */
const SMALL_PLACES = 500;
const SMALL_ROUNDS = 21;
const BIN = fileURLToPath(new URL('../bin/placeport.cjs', import.meta.url));
/** Decision 1's measurement: the same conversion, bytes in and bytes out (see its header). */
const BYTE_CORE = fileURLToPath(new URL('./byte-core-prototype.mjs', import.meta.url));

/** True when `ogr2ogr` runs, installing `gdal-bin` first when it is missing and we are root. */
function haveOgr2ogr(): { ok: true } | { ok: false; why: string } {
  const runs = () => spawnSync('ogr2ogr', ['--version'], { encoding: 'utf8' }).status === 0;
  if (runs()) return { ok: true };
  if (process.getuid?.() !== 0) {
    return { ok: false, why: 'ogr2ogr is missing and this is not root (apt-get install gdal-bin)' };
  }
  console.log('ogr2ogr is missing: installing gdal-bin with apt-get…');
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'gdal-bin'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    if (!install()) return { ok: false, why: 'apt-get could not install gdal-bin' };
  }
  return runs() ? { ok: true } : { ok: false, why: 'gdal-bin installed, but ogr2ogr does not run' };
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The points GDAL reads: every place of the archive with coordinates, as the CLI places it. */
function pointsCsv(places: readonly GeneratedPlace[]): { csv: string; count: number } {
  const rows = ['Name,Description,lat,lon'];
  for (const place of places) {
    if (!place.expected) continue;
    const { lat, lng } = place.expected;
    rows.push(`${csvField(place.title)},${csvField(place.note)},${lat},${lng}`);
  }
  return { csv: `${rows.join('\n')}\n`, count: rows.length - 1 };
}

async function placemarks(files: readonly string[]): Promise<number> {
  let count = 0;
  for (const file of files) count += (await readFile(file, 'utf8')).split('<Placemark').length - 1;
  return count;
}

/** The ratio of the two sides' median peak memory, undefined when it was not measured. */
function peakRatio(runs: PairedRuns): number | undefined {
  const [a, b] = [medianOf(runs[0], 'peakMb'), medianOf(runs[1], 'peakMb')];
  return a !== undefined && b ? a / b : undefined;
}

function line(name: string, runs: readonly ProcessFigures[]): string {
  return `  ${name.padEnd(10)} ${show(medianOf(runs, 'wallMs'), 's')} wall, ${show(medianOf(runs, 'cpuMs'), 's')} CPU, ${show(medianOf(runs, 'peakMb'), 'MB')} peak`;
}

/**
 * Both sides on the same `places` points: a Takeout-shaped ZIP whose links all carry coordinates
 * for the CLI (three lists, 60/30/10), a plain CSV of the same points for `ogr2ogr`.
 */
async function sides(places: number) {
  const want = Math.round(places * 0.6);
  const favourite = Math.round(places * 0.3);
  const takeout = generateTakeout({
    seed: 2026,
    coordinatesInUrls: true,
    lists: [
      { name: 'Want to go', places: want },
      { name: 'Favourite places', places: favourite },
      { name: 'Starred places', places: places - want - favourite },
    ],
  });
  const zip = path.join(dir, `takeout-${places}.zip`);
  await writeFile(zip, takeout.zip);
  const points = pointsCsv(
    takeout.lists.filter((list) => list.isPlaceList).flatMap((l) => l.places),
  );
  const csv = path.join(dir, `points-${places}.csv`);
  await writeFile(csv, points.csv);
  const out = path.join(dir, `out-${places}`);
  const cli: Side = {
    name: 'placeport',
    command: process.execPath,
    args: [BIN, 'convert', zip, '--offline', '--out', out],
    before: () => rm(out, { recursive: true, force: true }),
  };
  const kml = path.join(dir, `gdal-${places}.kml`);
  const gdal: Side = {
    name: 'ogr2ogr',
    command: 'ogr2ogr',
    args: ['-f', 'KML', kml, csv, '-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat'],
    before: () => rm(kml, { force: true }),
  };
  const cliKml = async () => (await readdir(out)).map((file) => path.join(out, file));
  const byteOut = path.join(dir, `byte-core-${places}`);
  const byteCore: Side = {
    name: 'byte core',
    command: process.execPath,
    args: [BYTE_CORE, zip, byteOut],
    before: () => rm(byteOut, { recursive: true, force: true }),
  };
  return { cli, gdal, out, kml, cliKml, points: points.count, byteCore, byteOut };
}

/**
 * Decision 1 in figures: the byte-level prototype against ogr2ogr, paired as the CLI was, after
 * checking that it wrote placeport's files byte for byte (else its figures would measure less work).
 */
async function byteCoreFigures(big: Awaited<ReturnType<typeof sides>>): Promise<void> {
  const runs = await paired(ROUNDS, big.byteCore, big.gdal);
  const theirs = (await readdir(big.out)).sort();
  const mine = (await readdir(big.byteOut)).sort();
  let same = theirs.length === mine.length && theirs.every((name, i) => name === mine[i]);
  for (const name of same ? theirs : []) {
    const [a, b] = await Promise.all(
      [big.out, big.byteOut].map((folder) => readFile(path.join(folder, name))),
    );
    same &&= a!.equals(b!);
  }
  console.log(
    `A byte-level core (decision 1; prototype bench/byte-core-prototype.mjs, this archive only), ${ROUNDS} paired runs:`,
  );
  if (!same) {
    console.log(`  its ${mine.length} files differ from placeport's ${theirs.length}: no figures`);
    return;
  }
  console.log(`  ${theirs.length} files, each the same bytes as placeport's`);
  console.log(line('byte core', runs[0]));
  console.log(
    `  ratio byte core / ogr2ogr: wall ${show(pairedRatio(runs, 'wallMs'), '×')}, CPU ${show(pairedRatio(runs, 'cpuMs'), '×')}, peak memory ${show(peakRatio(runs), '×')}`,
  );
}

const dir = await mkdtemp(path.join(tmpdir(), 'placeport-gdal-'));
try {
  const ogr = haveOgr2ogr();
  const big = await sides(PLACES);
  console.log(
    `\nThe CLI against GDAL: ${PLACES.toLocaleString('en-US')} places in a Takeout ZIP (${big.points.toLocaleString('en-US')} with coordinates), whole processes${hasGnuTime ? '' : ' (no /usr/bin/time: wall time only)'}`,
  );
  if (ogr.ok) {
    const runs = await paired(ROUNDS, big.cli, big.gdal);
    console.log(
      `  placemarks written: placeport ${await placemarks(await big.cliKml())}, ogr2ogr ${await placemarks([big.kml])}`,
    );
    console.log(`Medians of ${ROUNDS} paired runs:`);
    console.log(line('placeport', runs[0]));
    console.log(line('ogr2ogr', runs[1]));
    console.log(
      `  ratio placeport / ogr2ogr: wall ${show(pairedRatio(runs, 'wallMs'), '×')}, CPU ${show(pairedRatio(runs, 'cpuMs'), '×')} (target ≤ 1.00×), peak memory ${show(peakRatio(runs), '×')} (target ≤ 2.00×)`,
    );
    const phases = profileRun(big.cli.args, benchEnv(), () =>
      rmSync(big.out, { recursive: true, force: true }),
    );
    if ('failed' in phases) {
      console.log(`  (no profile of where the time goes: ${phases.failed})`);
    } else {
      const total = phases.reduce((sum, [, ms]) => sum + ms, 0);
      console.log(
        `Where placeport's time goes (one more run under V8's profiler, main thread only: ${Math.round(total)} ms sampled):`,
      );
      for (const [phase, ms] of phases) {
        console.log(
          `  ${phase.padEnd(48)} ${String(Math.round(ms)).padStart(4)} ms  ${String(Math.round((100 * ms) / total)).padStart(2)}%`,
        );
      }
    }
    await byteCoreFigures(big);
    // Most exports hold hundreds of places, not tens of thousands: there start-up is most of a run.
    const small = await sides(SMALL_PLACES);
    const smallRuns = await paired(SMALL_ROUNDS, small.cli, small.gdal);
    console.log(
      `The same at ${SMALL_PLACES} places, ${SMALL_ROUNDS} paired runs (CPU as means: GNU time counts it in 10 ms steps):`,
    );
    console.log(
      `  placeport ${show(medianOf(smallRuns[0], 'wallMs'), 's')} wall, ${show(meanCpu(smallRuns[0]), 's')} CPU; ogr2ogr ${show(medianOf(smallRuns[1], 'wallMs'), 's')} wall, ${show(meanCpu(smallRuns[1]), 's')} CPU`,
    );
    console.log(
      `  ratio placeport / ogr2ogr: wall ${show(pairedRatio(smallRuns, 'wallMs'), '×')}, CPU ${show(meanCpuRatio(smallRuns), '×')}`,
    );
  } else {
    console.log(`  skipping GDAL: ${ogr.why}`);
    await timeProcess(big.cli);
    const runs: ProcessFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await timeProcess(big.cli));
    console.log(`Medians of ${ROUNDS} runs:`);
    console.log(line('placeport', runs));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await cleanUp();
}
