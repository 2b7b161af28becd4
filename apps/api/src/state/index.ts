import { MemoryStateStore } from './memory-store.js';
import { RedisStateStore } from './redis-store.js';
import type { StateClock, StateStore } from './store.js';

export * from './store.js';
export { MemoryStateStore, MEMORY_LIMITS, type MemoryLimits } from './memory-store.js';
export { RedisStateStore, redactRedisUrl } from './redis-store.js';

/** Options of {@link createStateStore}. */
export interface StateStoreOptions {
  /** `REDIS_URL`: when set, the state is shared through that Redis; otherwise it stays in process. */
  redisUrl?: string | undefined;
  /** Time for the in-process store (tests inject one); Redis keeps time itself. */
  clock?: StateClock | undefined;
  /** Told once when Redis becomes unavailable after start, with the first error (no password). */
  onRedisUnavailable?: (error: Error | undefined) => void;
  /** Told once when Redis answers again. */
  onRedisAvailable?: () => void;
}

/**
 * The API's shared state: Redis when `redisUrl` is given (several instances behind a load
 * balancer), the in-process memory store otherwise (the embedded default). Rejects with a clear
 * error when the Redis server cannot be reached, so the API fails at start, not on a request.
 */
export async function createStateStore(options: StateStoreOptions = {}): Promise<StateStore> {
  if (options.redisUrl) {
    return RedisStateStore.connect(options.redisUrl, {
      ...(options.onRedisUnavailable ? { onUnavailable: options.onRedisUnavailable } : {}),
      ...(options.onRedisAvailable ? { onAvailable: options.onRedisAvailable } : {}),
    });
  }
  return new MemoryStateStore(options.clock ? { clock: options.clock } : {});
}
