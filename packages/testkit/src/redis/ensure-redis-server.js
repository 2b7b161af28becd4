/**
 * Makes sure Debian's `redis-server` is installed before tests that start their own Redis run.
 * Plain JavaScript (types in `ensure-redis-server.d.ts`) so `scripts/ensure-redis.mjs` can run it
 * with bare Node before anything is compiled; the installing is `../debian.js`'s.
 */
import { ensureDebianProgram, findProgram } from '../debian.js';

/** The program the tests start; Debian's `redis-server` package installs it in /usr/bin. */
export const REDIS_SERVER_COMMAND = 'redis-server';

/** The absolute path of `redis-server` on `PATH` (or in /usr/bin, /usr/sbin), or undefined. */
export function findRedisServer() {
  return findProgram(REDIS_SERVER_COMMAND);
}

/**
 * Returns the path of `redis-server`, installing Debian's package first when it is missing and
 * this process is root on a system with apt-get. Otherwise throws an error that says how to
 * install it.
 */
export function ensureRedisServer(options = {}) {
  return ensureDebianProgram({
    name: REDIS_SERVER_COMMAND,
    debianPackage: 'redis-server',
    find: findRedisServer,
    installArgs: ['--no-install-recommends'],
    log: options.log ?? ((line) => console.log(`ensure-redis: ${line}`)),
  });
}
