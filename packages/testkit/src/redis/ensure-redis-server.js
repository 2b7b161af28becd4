/**
 * Makes sure Debian's `redis-server` is installed before tests that start their own Redis run.
 * Plain JavaScript (types in `ensure-redis-server.d.ts`) so `scripts/ensure-redis.mjs` can run it
 * with bare Node before anything is compiled. Modelled on `apps/web/e2e/ensure-chromium.mjs`: only
 * the npm registry and Debian's archive are reachable here, so the project installs Debian's own
 * package, as root (CI machines run as root); without root it stops with a message saying how.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The program the tests start; Debian's `redis-server` package installs it in /usr/bin. */
export const REDIS_SERVER_COMMAND = 'redis-server';

/** How a person installs it by hand. */
const HOW_TO = 'sudo apt-get update && sudo apt-get install -y redis-server';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `redis-server` on `PATH` (or in /usr/bin, /usr/sbin), or undefined. */
export function findRedisServer() {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/bin', '/usr/sbin', '/usr/local/bin']) {
    const candidate = join(dir, REDIS_SERVER_COMMAND);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function run(command, args, log) {
  log(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with status ${result.status}`);
  }
}

/**
 * Returns the path of `redis-server`, installing Debian's package first when it is missing and
 * this process is root on a system with apt-get. Otherwise throws an error that says how to
 * install it.
 */
export function ensureRedisServer(options = {}) {
  const log = options.log ?? ((line) => console.log(`ensure-redis: ${line}`));
  const found = findRedisServer();
  if (found) return found;

  if (process.platform !== 'linux' || !isExecutable('/usr/bin/apt-get')) {
    throw new Error(
      `${REDIS_SERVER_COMMAND} is missing and this is not a Debian-like system with apt-get. ` +
        `Install Debian's redis-server package (${HOW_TO}) on a Debian or Ubuntu machine.`,
    );
  }
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(
      `${REDIS_SERVER_COMMAND} is missing and installing it needs root. Install it with:\n` +
        `  ${HOW_TO}\nthen run the tests again.`,
    );
  }
  try {
    run('apt-get', ['update'], log);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], log);
  } catch (error) {
    throw new Error(`could not install redis-server (${error.message}). Try: ${HOW_TO}`, {
      cause: error,
    });
  }
  const installed = findRedisServer();
  if (!installed) {
    throw new Error(`apt-get finished but ${REDIS_SERVER_COMMAND} is still missing.`);
  }
  log(`installed ${installed}`);
  return installed;
}
