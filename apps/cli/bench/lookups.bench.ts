/**
 * `pnpm bench` for the CLI: `placeport convert` on a 10,000-place archive whose links all need a
 * lookup, from "this computer", against the fake Google serving real-shaped full pages (product
 * title, the place's data inside an escaped JS string among nearby places' records) with 100 ms of
 * latency on every answer. Prints places resolved (want all), wall time, rate and requests sent.
 */
import { generateTakeout, startFakeGoogle } from '@placeport/testkit';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliSummary } from '../src/summary.js';

const PLACES = 10_000;
const LATENCY_MS = 100;
const BIN = fileURLToPath(new URL('../bin/placeport.cjs', import.meta.url));

const dir = await mkdtemp(path.join(tmpdir(), 'placeport-bench-'));
const google = await startFakeGoogle({ delayMs: LATENCY_MS });
try {
  const takeout = generateTakeout({
    seed: 2026,
    includeNonPlaceLists: false,
    lists: [{ name: 'Everywhere', places: PLACES, kinds: { ftid: 1 } }],
  });
  const archive = path.join(dir, 'takeout.zip');
  await writeFile(archive, takeout.zip);
  const started = performance.now();
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, 'convert', archive, '--out', path.join(dir, 'out'), '--json', '--no-cache'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: {
          PLACEPORT_MAPS_ORIGIN: google.url,
          PLACEPORT_PLACES_API_ORIGIN: google.url,
          XDG_CACHE_HOME: path.join(dir, 'cache'),
        },
      },
      (error, out, stderr) => (error ? reject(new Error(stderr || String(error))) : resolve(out)),
    );
  });
  const seconds = (performance.now() - started) / 1000;
  const summary = JSON.parse(stdout) as CliSummary;
  const distinct = new Set(takeout.lists[0]!.places.map((place) => place.ftid)).size;
  console.log(
    `cli lookups: ${PLACES.toLocaleString('en-US')} places (${distinct.toLocaleString('en-US')} distinct ftids), real-shaped full pages at ${LATENCY_MS} ms`,
  );
  console.log(
    `  resolved ${summary.totals.converted.toLocaleString('en-US')} of ${summary.totals.total.toLocaleString('en-US')} (unplaced: ${JSON.stringify(summary.totals.unplaced)})`,
  );
  console.log(
    `  ${seconds.toFixed(1)} s wall, ${(summary.totals.converted / seconds).toFixed(0)} places a second; requests: ${summary.lookups.upstreamRequests.pages} pages, ${summary.lookups.upstreamRequests.places} Places API (the fake counted ${google.requests.length})`,
  );
} finally {
  await google.close();
  await rm(dir, { recursive: true, force: true });
}
