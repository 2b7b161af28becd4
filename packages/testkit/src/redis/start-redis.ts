import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRedisServer } from './ensure-redis-server.js';

/** A private Redis for one test file: loopback only, nothing written to disk. */
export interface RedisServerHandle {
  /** `redis://127.0.0.1:<port>`, for ioredis or `REDIS_URL`. */
  url: string;
  port: number;
  /** Stops the server by its pid (SIGTERM, then SIGKILL if it lingers) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Hang guards only: a healthy redis-server answers PING within milliseconds, and a test's outcome
 * never depends on these (they stay below vitest's hook timeout of `UNDER_LOAD`).
 */
const READY_TIMEOUT_MS = 60_000;
const PING_INTERVAL_MS = 25;
const STOP_GRACE_MS = 10_000;
/** A free port can be taken by someone else between finding and binding it: try again. */
const START_ATTEMPTS = 3;
/** The last bytes of the server's output, quoted when it fails to start. */
const OUTPUT_TAIL_BYTES = 4_000;

/** A port that was free on 127.0.0.1 a moment ago. */
async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True when a Redis on `port` answers PING with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(PING_INTERVAL_MS * 40, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function killByPid(child: ChildProcess): Promise<void> {
  if (exited(child) || child.pid === undefined) return;
  process.kill(child.pid, 'SIGTERM');
  if (await waitForExit(child, STOP_GRACE_MS)) return;
  if (!exited(child)) process.kill(child.pid, 'SIGKILL');
  await waitForExit(child, STOP_GRACE_MS);
}

async function startOnce(program: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    program,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_BYTES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const failed = await Promise.race([
      spawnError,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), PING_INTERVAL_MS)),
    ]);
    if (failed) throw new Error(`could not start ${program}: ${failed.message}`);
    if (exited(child)) {
      throw new Error(`${program} on port ${port} exited at start:\n${output.trim()}`);
    }
    if (await pings(port)) return child;
    if (Date.now() > deadline) {
      await killByPid(child);
      throw new Error(`${program} on port ${port} did not answer PING:\n${output.trim()}`);
    }
  }
}

/** Servers still running, stopped when the test process exits without calling `stop()`. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function stopAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) {
      if (child.pid !== undefined && !exited(child)) process.kill(child.pid, 'SIGKILL');
    }
  });
}

/**
 * Starts Debian's `redis-server` on a free loopback port (`--bind 127.0.0.1 --save '' --appendonly
 * no`, in a temporary folder) and resolves once it answers PING. Each call is its own server, so
 * test files never share state. Run `packages/testkit/scripts/ensure-redis.mjs` (or
 * `ensureRedisServer()`) first to install it.
 */
export async function startRedis(): Promise<RedisServerHandle> {
  const program = findRedisServer();
  if (!program) {
    throw new Error(
      'redis-server is not installed. Run `node packages/testkit/scripts/ensure-redis.mjs` ' +
        "(as root it installs Debian's redis-server package) or `apt-get install -y redis-server`.",
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'placeport-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const port = await freeLoopbackPort();
    let child: ChildProcess;
    try {
      child = await startOnce(program, port, dir);
    } catch (error) {
      lastError = error;
      continue;
    }
    running.add(child);
    stopAllOnExit();
    const server = child;
    let stopped: Promise<void> | undefined;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: () => {
        stopped ??= (async () => {
          await killByPid(server);
          running.delete(server);
          await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
