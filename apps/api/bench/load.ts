/**
 * Load generation for the API benchmark: autocannon always runs as a second process, so the load
 * generator never shares the server's event loop.
 * - {@link loadFor}: the autocannon CLI for a duration, one fixed body (and cookie) for every
 *   request.
 * - {@link loadEach}: `capture-load.mjs`, autocannon's programmatic API with a body per request
 *   (`requests[].setupRequest`), for exactly as many requests as asked.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const autocannonCli = join(
  dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);
const captureLoad = fileURLToPath(new URL('./capture-load.mjs', import.meta.url));

/** What one load run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

/** The part of autocannon's JSON result the benchmark reads. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
  duration: number;
}

function resultOf(result: AutocannonResult, perSecond: number): LoadResult {
  return {
    requestsPerSecond: Math.round(perSecond),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    seconds: result.duration,
  };
}

/** One POST body and cookie for every request, for `seconds`, through the autocannon CLI. */
export async function loadFor(
  url: string,
  body: unknown,
  options: { connections: number; seconds: number; cookie?: string },
): Promise<LoadResult> {
  const headers = ['-H', 'content-type=application/json'];
  if (options.cookie) headers.push('-H', `cookie=${options.cookie}`);
  const { stdout } = await run(
    process.execPath,
    [
      autocannonCli,
      '--json',
      '-c',
      String(options.connections),
      '-d',
      String(options.seconds),
      '-m',
      'POST',
      ...headers,
      '-b',
      JSON.stringify(body),
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as AutocannonResult;
  return resultOf(result, result.requests.average);
}

/**
 * Exactly `amount` POSTs, each with its own body from `bodies` (which must hold spares: autocannon
 * builds each connection's next request ahead), all with one cookie. Requests per second are the
 * total over the run's duration.
 */
export async function loadEach(
  url: string,
  bodies: string[],
  options: { connections: number; amount: number; cookie: string },
): Promise<LoadResult & { bodiesUsed: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'placeport-bench-'));
  try {
    const job = join(dir, 'job.json');
    await writeFile(job, JSON.stringify({ url, bodies, ...options }));
    const { stdout } = await run(process.execPath, [captureLoad, job], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = JSON.parse(stdout) as AutocannonResult & { bodiesUsed: number };
    return {
      ...resultOf(result, result.requests.total / result.duration),
      bodiesUsed: result.bodiesUsed,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line for a load result. */
export function describeLoad(label: string, result: LoadResult): string {
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    `${label}: ${count(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms ` +
    `(${count(result.total)} requests in ${result.seconds} s, ${result.non2xx} non-2xx, ${result.errors} errors)`
  );
}
