import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kmlPoints, type GeneratedPlace } from '@placeport/testkit';
import { ConverterError } from '@placeport/converter';
import { stripForbiddenXmlChars, UNTITLED_PLACE_NAME } from '@placeport/converter/internal';

/** The built launcher, as `npx placeport` runs it (`pnpm build` first; turbo does it before tests). */
export const BIN = fileURLToPath(new URL('../bin/placeport.cjs', import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Where the child looks things up and keeps its cache. `google` is a fake Google's URL (a closed
 * loopback port when a test expects no lookup at all): no test ever reaches the real Google.
 */
export interface RunEnvironment {
  google: string;
  cacheHome: string;
  /** More variables (or `undefined` to remove one), e.g. `GOOGLE_MAPS_API_KEY`. */
  extra?: Record<string, string | undefined>;
}

/** The child's environment: only what is given here (nothing of this process's). */
function childEnv(where: RunEnvironment): Record<string, string> {
  const env: Record<string, string> = {
    PLACEPORT_MAPS_ORIGIN: where.google,
    PLACEPORT_PLACES_API_ORIGIN: where.google,
    // The retry rounds' pauses (5, 10, 20 s) are the converter's to test; here they would only wait.
    PLACEPORT_RETRY_DELAY_MS: '100',
    XDG_CACHE_HOME: where.cacheHome,
  };
  for (const [name, value] of Object.entries(where.extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Runs the built `placeport` in a child process, with only the environment given here (nothing of
 * this process's: no stray GOOGLE_MAPS_API_KEY, proxy or cache folder); stderr is a pipe, not a
 * terminal.
 */
export function run(args: string[], where: RunEnvironment): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', env: childEnv(where), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * Starts the built `placeport` as {@link run} does, and hands back the child (to send it a signal)
 * with its outcome to come, and what it wrote on stderr so far. `code` is the exit code, or 128 + the signal's number when a signal
 * ended it without a code of its own.
 */
export function start(
  args: string[],
  where: RunEnvironment,
): { child: ChildProcess; done: Promise<RunResult>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: childEnv(where),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<RunResult>((resolve) => {
    child.on('close', (code, signal) => {
      const bySignal = signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1;
      resolve({ code: code ?? bySignal, stdout, stderr });
    });
  });
  return { child, done, stderr: () => stderr };
}

/** What a stand-in API answers to one request. */
export interface StandInAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/**
 * A local stand-in for the PlacePort API on a free loopback port, at `url`. Each request is read
 * whole, then `answer` is given its path and the `urls` of its JSON body (none when the body is
 * not one); an answer of undefined leaves the request open (an API that never answers).
 */
export async function startStandInApi(
  answer: (request: { path: string; urls: string[] }) => StandInAnswer | undefined,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let urls: string[] = [];
      try {
        urls = (JSON.parse(body) as { urls?: string[] }).urls ?? [];
      } catch {
        // Not a resolve request's body: answered with no links.
      }
      const answered = answer({ path: req.url ?? '', urls });
      if (answered === undefined) return;
      res.writeHead(answered.status, answered.headers);
      res.end(answered.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * Resolves once `condition` holds, checking every few milliseconds: waiting for what another
 * process does, without a wall-clock bound of its own (the test's timeout only stops a hang).
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The lookups' progress lines a child wrote on stderr (not a terminal), as done and total. */
export function progressLines(stderr: string): Array<{ done: number; total: number }> {
  return [...stderr.matchAll(/^Looking up places: (\d+) \/ (\d+)/gm)].map((match) => ({
    done: Number(match[1]),
    total: Number(match[2]),
  }));
}

/** A fresh temporary folder, and the way to remove it. */
export async function tempFolder(
  prefix: string,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `placeport-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The name a placemark gets for a title (forbidden characters dropped, untitled named). */
export const expectedName = (title: string) =>
  stripForbiddenXmlChars(title).trim() || UNTITLED_PLACE_NAME;

/** Where a correct run puts a place: its URL's own pin, else where Google says it is. */
export function expectedPoint(
  place: GeneratedPlace,
): { name: string; lngLat: number[] } | undefined {
  const where = place.expected ?? place.resolvable;
  return where ? { name: expectedName(place.title), lngLat: [where.lng, where.lat] } : undefined;
}

/** Each placemark of a KML file (parsed with a real XML parser) as name and `[lng, lat]`. */
export async function readKmlFile(file: string) {
  return kmlPoints(await readFile(file, 'utf8'));
}

/** A loopback address nothing listens on: lookups sent there fail at once, never reach Google. */
export const NOWHERE = 'http://127.0.0.1:9';

/**
 * What a promise was refused with: a ConverterError as its code and message (the error itself for
 * anything else); undefined when it was kept.
 */
export function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string } | unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) =>
      error instanceof ConverterError ? { code: error.code, message: error.message } : error,
  );
}
