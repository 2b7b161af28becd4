#!/usr/bin/env node
/**
 * Makes sure Debian's `redis-server` is installed before the tests that start their own Redis
 * (`startRedis()` from @placeport/testkit). Installs it with apt-get when missing and running as
 * root; otherwise stops with a message saying how. Plain Node, so it runs before anything else.
 */
import { ensureRedisServer } from '../src/redis/ensure-redis-server.js';

try {
  ensureRedisServer();
} catch (error) {
  console.error(`ensure-redis: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
