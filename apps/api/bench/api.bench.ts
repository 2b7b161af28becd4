/**
 * API benchmark (`pnpm --filter @placeport/api bench`):
 * 1. resolve 1,000 distinct places against the fake Google answering every page in 100 ms
 *    (wall time, upstream requests), then the same batch again (all cache hits);
 * 2. autocannon, run as a second process, against `create-payment-intent` (demo payments) and a
 *    cached resolve batch on loopback: requests per second and p99 latency.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ftidForCid, startFakeGoogle } from '@placeport/testkit';
import { buildApp } from '../src/app.js';
import { loadSettings } from '../src/config.js';
import { UPSTREAM_CONCURRENCY } from '@placeport/resolver';

const PLACES = 1_000;
const UPSTREAM_DELAY_MS = 100;
const LOAD_SECONDS = 5;
const LOAD_CONNECTIONS = 50;
const UNLIMITED = {
  globalPerMinute: 1e9,
  paymentPerMinute: 1e9,
  resolvePerMinute: 1e9,
  intentsPerHour: 1e9,
  intentsPerDay: 1e9,
};

const run = promisify(execFile);
const autocannonCli = join(
  dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);

function link(index: number): string {
  const ftid = ftidForCid(BigInt(0x1000 + index));
  return `https://www.google.com/maps/place/Bench+${index}/data=!4m2!3m1!1s${ftid}`;
}

interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  p50Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon in a child process (so the load generator does not share the server's event loop). */
async function load(url: string, body: unknown): Promise<LoadResult> {
  const { stdout } = await run(
    process.execPath,
    [
      autocannonCli,
      '--json',
      '-c',
      String(LOAD_CONNECTIONS),
      '-d',
      String(LOAD_SECONDS),
      '-m',
      'POST',
      '-H',
      'content-type=application/json',
      '-b',
      JSON.stringify(body),
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p99: number; p50: number };
    non2xx: number;
    errors: number;
  };
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const google = await startFakeGoogle({ delayMs: UPSTREAM_DELAY_MS });
  const settings = loadSettings({
    MAPS_UPSTREAM_ORIGIN: google.url,
    PLACES_API_ORIGIN: google.url,
  });
  const app = await buildApp({
    settings: { ...settings, webDist: undefined },
    rateLimits: UNLIMITED,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const intent = await post(base, '/api/create-payment-intent', { amount: (2 * PLACES) / 10 });
    const paymentIntentId = intent.paymentIntentId as string;
    await post(base, '/api/demo/authorize', { paymentIntentId });
    const urls = Array.from({ length: PLACES }, (_, i) => link(i));

    console.log(
      `Resolving ${PLACES} distinct places, fake upstream ${UPSTREAM_DELAY_MS} ms per page, concurrency ${UPSTREAM_CONCURRENCY}`,
    );
    let started = performance.now();
    const cold = await post(base, '/api/resolve-urls-batch', { urls, paymentIntentId });
    const coldMs = performance.now() - started;
    const coldRequests = google.requests.length;
    google.clearRequests();
    started = performance.now();
    const warm = await post(base, '/api/resolve-urls-batch', { urls, paymentIntentId });
    const warmMs = performance.now() - started;
    console.table({
      'first batch': {
        'wall time (ms)': Math.round(coldMs),
        resolved: Object.keys(cold.results as object).length,
        'upstream requests': coldRequests,
      },
      'same batch again': {
        'wall time (ms)': Math.round(warmMs),
        resolved: Object.keys(warm.results as object).length,
        'upstream requests': google.requests.length,
      },
    });

    console.log(
      `autocannon: ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s each, from a second process`,
    );
    const create = await load(`${base}/api/create-payment-intent`, { amount: 1.2 });
    const cached = await load(`${base}/api/resolve-urls-batch`, { urls: urls.slice(0, 4) });
    console.table({
      'POST /api/create-payment-intent (demo)': create,
      'POST /api/resolve-urls-batch (4 cached links)': cached,
    });
  } finally {
    await app.close();
    await google.close();
  }
}

await main();
