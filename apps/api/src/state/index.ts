import { MemoryStateStore } from './memory-store.js';
import { RedisStateStore, type RedisStateStoreOptions } from './redis-store.js';
import type { StateClock, StateStore } from './store.js';

export * from './store.js';
export { MemoryStateStore } from './memory-store.js';
export { RedisStateStore } from './redis-store.js';

/** Options of {@link createStateStore}: Redis's (told when it goes away and comes back), and: */
export interface StateStoreOptions extends RedisStateStoreOptions {
  /** `REDIS_URL`: when set, the state is shared through that Redis; otherwise it stays in process. */
  redisUrl?: string | undefined;
  /** Time for the in-process store (tests inject one); Redis keeps time itself. */
  clock?: StateClock | undefined;
}

/**
 * The API's shared state: Redis when `redisUrl` is given (several instances behind a load
 * balancer), the in-process memory store otherwise (the embedded default). Rejects with a clear
 * error when the Redis server cannot be reached, so the API fails at start, not on a request.
 */
export async function createStateStore(options: StateStoreOptions = {}): Promise<StateStore> {
  if (options.redisUrl) return RedisStateStore.connect(options.redisUrl, options);
  return new MemoryStateStore(options.clock ? { clock: options.clock } : {});
}
