/**
 * `pnpm bench`: converts generated Takeout archives of 10,000 and 100,000 places (coordinates in the
 * URLs) and prints wall time, places per second, peak memory, and the "floor" (unzip + CSV parse
 * alone) with the ratio converter/floor. Each measurement runs in its own process so peak RSS is its own.
 */
import { generateTakeout } from '@placeport/testkit';
import { execFileSync } from 'node:child_process';
import { unzipSync } from 'fflate';
import Papa from 'papaparse';
import { fileURLToPath } from 'node:url';
import { readArchive } from '../src/inspect.js';
import { convertLists } from '../src/pipeline.js';

const SIZES = [10_000, 100_000];
const RUNS = 3;

function archiveOf(places: number): Uint8Array {
  const lists = [
    { name: 'Want to go', places: Math.round(places * 0.6) },
    { name: 'Favourite places', places: Math.round(places * 0.3) },
    {
      name: 'Starred places',
      places: places - Math.round(places * 0.6) - Math.round(places * 0.3),
    },
  ];
  return generateTakeout({ seed: 2026, coordinatesInUrls: true, lists }).zip;
}

async function measure(
  mode: 'converter' | 'floor',
  places: number,
): Promise<{ ms: number; converted: number }> {
  const zip = archiveOf(places);
  const started = performance.now();
  let converted = 0;
  if (mode === 'floor') {
    const files = unzipSync(zip, { filter: (f) => f.name.toLowerCase().endsWith('.csv') });
    const decoder = new TextDecoder();
    for (const bytes of Object.values(files))
      converted += Papa.parse(decoder.decode(bytes), { skipEmptyLines: 'greedy' }).data.length;
  } else {
    const lists = readArchive(zip);
    const results = await convertLists(lists);
    converted = results.reduce((sum, r) => sum + r.stats.converted, 0);
  }
  return { ms: performance.now() - started, converted };
}

async function child(mode: 'converter' | 'floor', places: number): Promise<void> {
  const { ms, converted } = await measure(mode, places);
  process.stdout.write(
    JSON.stringify({ ms, converted, maxRssMb: process.resourceUsage().maxRSS / 1024 }),
  );
}

function spawnMeasure(
  mode: string,
  places: number,
): { ms: number; converted: number; maxRssMb: number } {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), mode, String(places)],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as { ms: number; converted: number; maxRssMb: number };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const [mode, places] = process.argv.slice(2);
  if (mode === 'converter' || mode === 'floor') return child(mode, Number(places));
  console.log(
    `converter benchmark — ${RUNS} runs each, median; peak = max RSS of the measuring process (generation included)`,
  );
  for (const size of SIZES) {
    const conv = Array.from({ length: RUNS }, () => spawnMeasure('converter', size));
    const floor = Array.from({ length: RUNS }, () => spawnMeasure('floor', size));
    const convMs = median(conv.map((r) => r.ms));
    const floorMs = median(floor.map((r) => r.ms));
    if (conv[0]!.converted !== size)
      throw new Error(`expected ${size} converted, got ${conv[0]!.converted}`);
    console.log(
      [
        `${size.toLocaleString('en-US')} places:`,
        `converter ${convMs.toFixed(0)} ms (${Math.round((size / convMs) * 1000).toLocaleString('en-US')} places/s, peak ${Math.max(...conv.map((r) => r.maxRssMb)).toFixed(0)} MB)`,
        `floor ${floorMs.toFixed(0)} ms (peak ${Math.max(...floor.map((r) => r.maxRssMb)).toFixed(0)} MB)`,
        `ratio ${(convMs / floorMs).toFixed(2)}`,
      ].join('  '),
    );
  }
}

await main();
