/** The program the tests start; Debian's `redis-server` package installs it in /usr/bin. */
export declare const REDIS_SERVER_COMMAND: 'redis-server';

/** The absolute path of `redis-server` on `PATH` (or in /usr/bin, /usr/sbin), or undefined. */
export declare function findRedisServer(): string | undefined;

/**
 * Returns the path of `redis-server`, installing Debian's package first (`apt-get update`, then
 * `apt-get install -y redis-server`) when it is missing and this process is root on a system with
 * apt-get. Otherwise throws an error that says how to install it.
 */
export declare function ensureRedisServer(options?: { log?: (line: string) => void }): string;
