/**
 * Starts the real API (`node apps/api/dist/server.js`) as a child process on a random loopback
 * port, serving the built web app, and stops it again. Only the settings given here reach it: the
 * API's own variables are removed from the inherited environment first, so a stray Stripe key on
 * the machine can never turn a demo run into a Stripe one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built web app the API serves at `/`. */
export const WEB_DIST = join(WEB_ROOT, 'dist');
/** The API's built entry point. */
export const API_SERVER = join(WEB_ROOT, '..', 'api', 'dist', 'server.js');

/** Every setting `apps/api/src/config.ts` reads; none is inherited from the outer environment. */
const API_SETTINGS = [
  'PORT',
  'HOST',
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_API_BASE',
  'GOOGLE_MAPS_API_KEY',
  'MAPS_UPSTREAM_ORIGIN',
  'PLACES_API_ORIGIN',
  'CONTACT_EMAIL',
  'PRODUCT_NAME',
  'WEB_DIST',
  'CORS_ORIGIN',
  'RATE_LIMIT_FACTOR',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'DEMO_PAYMENTS',
  'PAYER_COOKIE_SECRET',
  'SETTLE_AFTER_MINUTES',
  'FREE_LINKS_PER_DAY',
  'REDIS_URL',
];

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
const LISTENING = /PlacePort API listening on (http:\/\/[^\s"]+)/;

/** A running API process. */
export interface ApiProcess {
  /** `http://127.0.0.1:<port>`: the page and the API at one address. */
  url: string;
  /** What the process printed so far (pino JSON lines and stderr), also kept in `logFile`. */
  log(): string;
  stop(): Promise<void>;
}

function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of API_SETTINGS) delete env[name];
  return env;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForHealth(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`${url}/api/health`);
      const body = (await response.json()) as { ok?: boolean };
      if (response.ok && body.ok === true) return;
    } catch {
      // Not answering yet.
    }
    if (Date.now() > deadline) throw new Error(`${url}/api/health did not answer { ok: true }`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts the API with these settings (on top of port 0, loopback, the web app and test-friendly
 * rate limits) and resolves once `GET /api/health` answers `{ ok: true }`.
 */
export async function startApi(
  settings: Record<string, string>,
  logFile?: string,
): Promise<ApiProcess> {
  if (!existsSync(API_SERVER)) {
    throw new Error(
      `${API_SERVER} is missing: build the API first (pnpm --filter @placeport/api build).`,
    );
  }
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `${WEB_DIST} is missing: build the web app first (pnpm --filter @placeport/web build).`,
    );
  }
  const child = spawn(process.execPath, [API_SERVER], {
    env: {
      ...inheritedEnv(),
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIST,
      RATE_LIMIT_FACTOR: '100',
      LOG_LEVEL: 'info',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const file = logFile ? createWriteStream(logFile) : null;
  const log = () => lines.join('\n');
  const deadline = Date.now() + START_TIMEOUT_MS;

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The API did not start in ${START_TIMEOUT_MS} ms:\n${log()}`)),
      START_TIMEOUT_MS,
    );
    const onData = (stream: 'out' | 'err') => (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const entry = stream === 'err' ? `[stderr] ${line}` : line;
        lines.push(entry);
        file?.write(`${entry}\n`);
        const found = LISTENING.exec(line);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      }
    };
    child.stdout!.on('data', onData('out'));
    child.stderr!.on('data', onData('err'));
    child.once('exit', (code, signal) => {
      const entry = `[exit] ${signal ?? code}`;
      lines.push(entry);
      file?.write(`${entry}\n`);
      clearTimeout(timer);
      reject(new Error(`The API exited (${signal ?? code}) before listening:\n${log()}`));
    });
  });

  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited(child);
    clearTimeout(force);
    file?.end();
  }

  try {
    await waitForHealth(url, deadline);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, log, stop };
}
