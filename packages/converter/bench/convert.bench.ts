/**
 * `pnpm bench`: converts generated Takeout archives of 10,000 and 100,000 places (coordinates in the
 * URLs, so no resolution) and prints, per size: wall and CPU time, places per second, peak memory, and
 * the "floor" (unzip + CSV parse alone) with the ratio converter/floor. The archive is generated once and
 * each measurement runs in a fresh process reading it from disk, so peak RSS is the conversion's own.
 * Last, how long a 300 MB zip bomb takes to be refused (the unit tests prove it is never inflated).
 */
import { generateTakeout, makeZipBomb } from '@placeport/testkit';
import { unzipSync } from 'fflate';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { readArchive } from '../src/inspect.js';
import { convertLists } from '../src/pipeline.js';

const SIZES = [10_000, 100_000];
const RUNS = 5;

interface Measurement {
  wallMs: number;
  cpuMs: number;
  converted: number;
  maxRssMb: number;
}

function archiveOf(places: number): Uint8Array {
  const want = Math.round(places * 0.6);
  const favourite = Math.round(places * 0.3);
  return generateTakeout({
    seed: 2026,
    coordinatesInUrls: true,
    lists: [
      { name: 'Want to go', places: want },
      { name: 'Favourite places', places: favourite },
      { name: 'Starred places', places: places - want - favourite },
    ],
  }).zip;
}

async function measure(mode: 'converter' | 'floor', file: string): Promise<Measurement> {
  const zip = new Uint8Array(readFileSync(file));
  const cpu = process.cpuUsage();
  const started = performance.now();
  let converted = 0;
  if (mode === 'floor') {
    const files = unzipSync(zip, { filter: (f) => f.name.toLowerCase().endsWith('.csv') });
    const decoder = new TextDecoder();
    for (const bytes of Object.values(files)) {
      converted += Papa.parse(decoder.decode(bytes), { skipEmptyLines: 'greedy' }).data.length;
    }
  } else {
    const results = await convertLists(readArchive(zip));
    converted = results.reduce((sum, result) => sum + result.stats.converted, 0);
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    converted,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function spawnMeasure(mode: string, file: string): Measurement {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, mode, file], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as Measurement;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2);
  if ((mode === 'converter' || mode === 'floor') && file) {
    process.stdout.write(JSON.stringify(await measure(mode, file)));
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'placeport-bench-'));
  try {
    console.log(
      `converter benchmark: median of ${RUNS} runs, each in a fresh process; peak = max RSS`,
    );
    for (const size of SIZES) {
      const archive = path.join(dir, `takeout-${size}.zip`);
      writeFileSync(archive, archiveOf(size));
      const conv = Array.from({ length: RUNS }, () => spawnMeasure('converter', archive));
      const floor = Array.from({ length: RUNS }, () => spawnMeasure('floor', archive));
      if (conv.some((run) => run.converted !== size))
        throw new Error(`expected ${size} places converted`);
      const [cw, cc, fw, fc] = [
        median(conv.map((r) => r.wallMs)),
        median(conv.map((r) => r.cpuMs)),
        median(floor.map((r) => r.wallMs)),
        median(floor.map((r) => r.cpuMs)),
      ];
      console.log(
        `${fmt(size)} places: converter ${fmt(cw)} ms wall / ${fmt(cc)} ms CPU, ${fmt((size / cw) * 1000)} places/s, ` +
          `peak ${fmt(Math.max(...conv.map((r) => r.maxRssMb)))} MB | floor ${fmt(fw)} ms wall / ${fmt(fc)} ms CPU, ` +
          `peak ${fmt(Math.max(...floor.map((r) => r.maxRssMb)))} MB | ratio ${(cw / fw).toFixed(2)} wall, ${(cc / fc).toFixed(2)} CPU`,
      );
    }
    const bomb = makeZipBomb(300 * 1024 * 1024);
    const refusals = Array.from({ length: RUNS }, () => {
      const started = performance.now();
      try {
        readArchive(bomb);
      } catch {
        return performance.now() - started;
      }
      throw new Error('the zip bomb was not refused');
    });
    console.log(`300 MB zip bomb refused in ${median(refusals).toFixed(2)} ms (median of ${RUNS})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
