import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRedisServer } from './ensure-redis-server.js';

/** Options of {@link startRedis}. */
export interface StartRedisOptions {
  /**
   * `none` (the default): `--save '' --appendonly no`, nothing written to disk, so a restart
   * loses every key. `aof`: an append-only file fsynced on every write (`--appendonly yes
   * --appendfsync always`), so a killed server comes back with every write it acknowledged, as a
   * production Redis that persists does.
   */
  persistence?: 'none' | 'aof';
}

/** A private Redis for one test file, on loopback, in a temporary folder. */
export interface RedisServerHandle {
  /** `redis://127.0.0.1:<port>`, for ioredis or `REDIS_URL`. */
  url: string;
  port: number;
  /**
   * Kills the server by its pid (SIGKILL: an outage or a crash, no save on the way out) and
   * resolves once it has exited; clients see their connections drop. Keeps the folder, so with
   * `persistence: 'aof'` a {@link restart} finds every acknowledged write.
   */
  kill(): Promise<void>;
  /**
   * Starts the killed server again on the same port and folder, resolving once it answers PING.
   * Rejects if it is still running, or if another process took the port meanwhile.
   */
  restart(): Promise<void>;
  /**
   * Freezes the server (SIGSTOP): a hung Redis, whose connections stay open and whose commands get
   * no answer, as in a network partition that drops packets. {@link resume} thaws it; `kill` and
   * `stop` thaw it first.
   */
  pause(): void;
  /** Thaws a server {@link pause} froze (SIGCONT); its connections answer again. */
  resume(): void;
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

/** Sends `signal` to a server still running (nothing to one that exited). */
function signalServer(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!exited(child) && child.pid !== undefined) process.kill(child.pid, signal);
}

async function killByPid(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (exited(child) || child.pid === undefined) return;
  // A frozen server would hold a SIGTERM until thawed.
  process.kill(child.pid, 'SIGCONT');
  process.kill(child.pid, signal);
  if (await waitForExit(child, STOP_GRACE_MS)) return;
  if (!exited(child)) process.kill(child.pid, 'SIGKILL');
  await waitForExit(child, STOP_GRACE_MS);
}

/** The server's command line: loopback only, in `dir`, persisting only as asked. */
function serverArgs(port: number, dir: string, persistence: 'none' | 'aof'): string[] {
  const disk =
    persistence === 'aof'
      ? ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
      : ['--save', '', '--appendonly', 'no'];
  return ['--port', String(port), '--bind', '127.0.0.1', ...disk, '--dir', dir];
}

async function startOnce(program: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
      await killByPid(child, 'SIGTERM');
      throw new Error(`${program} on port ${port} did not answer PING:\n${output.trim()}`);
    }
  }
}

/** Servers still running, stopped when the test process exits without calling `stop()`. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) {
    if (child.pid !== undefined && !exited(child)) process.kill(child.pid, 'SIGKILL');
  }
});

/**
 * Starts Debian's `redis-server` on a free loopback port (`--bind 127.0.0.1`, in a temporary
 * folder, persisting nothing unless `persistence: 'aof'`) and resolves once it answers PING. Each
 * call is its own server, so test files never share state; `kill()` and `restart()` take it away
 * and bring it back on the same port, for fault tests. Run
 * `packages/testkit/scripts/ensure-redis.mjs` (or `ensureRedisServer()`) first to install it.
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServerHandle> {
  const program = findRedisServer();
  if (!program) {
    throw new Error(
      'redis-server is not installed. Run `node packages/testkit/scripts/ensure-redis.mjs` ' +
        "(as root it installs Debian's redis-server package) or `apt-get install -y redis-server`.",
    );
  }
  const persistence = options.persistence ?? 'none';
  const dir = await mkdtemp(join(tmpdir(), 'placeport-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const port = await freeLoopbackPort();
    const args = serverArgs(port, dir, persistence);
    let server: ChildProcess;
    try {
      server = await startOnce(program, args, port);
    } catch (error) {
      lastError = error;
      continue;
    }
    running.add(server);
    let stopped: Promise<void> | undefined;
    const end = async (signal: 'SIGTERM' | 'SIGKILL') => {
      await killByPid(server, signal);
      running.delete(server);
    };
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      kill: () => end('SIGKILL'),
      pause: () => signalServer(server, 'SIGSTOP'),
      resume: () => signalServer(server, 'SIGCONT'),
      restart: async () => {
        if (stopped) throw new Error(`redis-server on port ${port} was stopped for good`);
        if (!exited(server)) throw new Error(`redis-server on port ${port} is still running`);
        server = await startOnce(program, args, port);
        running.add(server);
      },
      stop: () => {
        stopped ??= (async () => {
          await end('SIGTERM');
          await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
