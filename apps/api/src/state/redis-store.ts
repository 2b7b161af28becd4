import type { CachedPlace, PlaceCache } from '@placeport/resolver';
import { Redis, ReplyError } from 'ioredis';
import * as v from 'valibot';
import {
  assertWhole,
  freeDayTtlMs,
  PAYMENT_STATE_TTL_MS,
  PLACE_TTL_MS,
  utcDayOf,
  type AddedPlaces,
  type CounterHit,
  type FreeBudget,
  type LinkReservation,
  type PaymentUse,
  type PaymentVerdict,
  type StateStore,
  StoreUnavailableError,
} from './store.js';

/** The caps of {@link RedisStateStore}; tests lower them. */
export const REDIS_LIMITS = {
  /**
   * Places kept in the shared cache (about 450 bytes each with their index entry, so about 110 MB
   * at the cap); past it the oldest written go first. Redis must not evict (`noeviction`: payers
   * and counts live beside the cache), so without a cap of its own the cache grew by every distinct
   * place looked up for 30 days (1.8 MB a minute under a soak test's traffic) until Redis refused
   * every write, payments' included.
   */
  places: 250_000,
};

/** Every key PlacePort writes starts with this, so one Redis can serve other things too. */
export const REDIS_KEY_PREFIX = 'placeport:';

/**
 * Where each kind of state lives in Redis (one key per entry). Only `addResolved` touches two
 * keys (a payment's resolved set and its verdict): the store is one Redis, not a Cluster, where
 * the two could live on different nodes.
 */
export const redisKeys = {
  /** String: JSON `{ lat, lng, placeId? }`, expiring after {@link PLACE_TTL_MS}. */
  place: (key: string) => `${REDIS_KEY_PREFIX}place:${key}`,
  /**
   * Sorted set of the cached places' keys by the time they were written (Redis's clock): what
   * keeps the cache within {@link REDIS_LIMITS}`.places`, the oldest written going first. Scored in
   * microseconds, so writes one after the other never tie.
   */
  placeIndex: `${REDIS_KEY_PREFIX}places`,
  /** Set of the payment's counted link keys. */
  links: (intentId: string) => `${REDIS_KEY_PREFIX}links:${intentId}`,
  /** Set of the place keys the server resolved for the payment. */
  resolved: (intentId: string) => `${REDIS_KEY_PREFIX}resolved:${intentId}`,
  /** String: the hash of the payer cookie that created the payment. */
  payer: (intentId: string) => `${REDIS_KEY_PREFIX}payer:${intentId}`,
  /** String: JSON `{ status, places }`, what the provider last said about the payment. */
  verdict: (intentId: string) => `${REDIS_KEY_PREFIX}verdict:${intentId}`,
  /**
   * Hash: `last` (last use: the last lookup, or the authorization before any) and `reported`
   * (last usage report), both ms of the app's clock.
   */
  use: (intentId: string) => `${REDIS_KEY_PREFIX}use:${intentId}`,
  /** Integer: free links the client took on the UTC day of `now`. */
  free: (clientKey: string, now: number) => `${REDIS_KEY_PREFIX}free:${utcDayOf(now)}:${clientKey}`,
  /** Integer: hits in the current fixed window. */
  counter: (key: string) => `${REDIS_KEY_PREFIX}rate:${key}`,
  /** String: the holder's id, expiring with the lease. */
  lease: (name: string) => `${REDIS_KEY_PREFIX}lease:${name}`,
  /** String: the write that asks a Redis refusing writes whether it takes them again. */
  probe: `${REDIS_KEY_PREFIX}probe`,
};

/** Reaching the server at start; past this the API refuses to start rather than hang. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * A command that gets no answer this long fails, so a Redis that hangs (a stopped process, a
 * network dropping packets) costs a request at most this before its 503; a healthy Redis answers
 * in about a millisecond. A hang guard, not a performance bound.
 */
export const COMMAND_TIMEOUT_MS = 5_000;
/**
 * While Redis is away, ioredis tries to reconnect after 100 ms, 200 ms, … and then every this
 * often, so the instance recovers by itself within about this long of Redis's return.
 */
export const RECONNECT_MAX_DELAY_MS = 1_000;
/** TCP keep-alive, so a silently dropped connection is noticed. */
const KEEP_ALIVE_MS = 30_000;
/** Arguments per SADD inside a script (Lua's `unpack` has a stack limit). */
const SADD_CHUNK = 500;
/** The probe's key only has to be written; it goes by itself. */
const PROBE_TTL_MS = 10_000;

/**
 * The Lua scripts, each on one key (KEYS[1]) unless {@link SCRIPT_KEYS} says otherwise; ioredis
 * runs them by SHA (`EVALSHA`), sending the body again when the server lacks it (`defineCommand`).
 */
const SCRIPTS = {
  /**
   * Fills the payment's set with placeholders `earlier:<n>` up to ARGV[1] members. ARGV[2] TTL
   * (ms). Returns how many were added.
   */
  countEarlierLinks: `
local key = KEYS[1]
local want = tonumber(ARGV[1])
local counted = redis.call('SCARD', key)
if counted >= want then return 0 end
local batch = {}
for n = counted, want - 1 do
  batch[#batch + 1] = 'earlier:' .. n
  if #batch == ${SADD_CHUNK} then
    redis.call('SADD', key, unpack(batch))
    batch = {}
  end
end
if #batch > 0 then redis.call('SADD', key, unpack(batch)) end
redis.call('PEXPIRE', key, ARGV[2])
return want - counted
`,
  /**
   * Counts new links in the payment's set all or nothing. ARGV[1] allowed, ARGV[2] TTL (ms),
   * ARGV[3…] the links. Returns {1, newlyCounted} or {0, remaining}.
   */
  reserveLinks: `
local key = KEYS[1]
local allowed = tonumber(ARGV[1])
local fresh, seen = {}, {}
for i = 3, #ARGV do
  local link = ARGV[i]
  if not seen[link] then
    seen[link] = true
    if redis.call('SISMEMBER', key, link) == 0 then fresh[#fresh + 1] = link end
  end
end
if #fresh == 0 then return {1, 0} end
local counted = redis.call('SCARD', key)
if counted + #fresh > allowed then
  return {0, math.max(allowed - counted, 0)}
end
for i = 1, #fresh, ${SADD_CHUNK} do
  redis.call('SADD', key, unpack(fresh, i, math.min(i + ${SADD_CHUNK - 1}, #fresh)))
end
redis.call('PEXPIRE', key, ARGV[2])
return {1, #fresh}
`,
  /**
   * Adds resolved places to the set KEYS[1] unless the verdict KEYS[2] says the payment is
   * settling or settled (a well-formed one: anything else counts as none, as in `verdictOf`).
   * ARGV[1] TTL (ms), ARGV[2…] places. Returns {1, count, verdict or nil} or {0, 0, verdict}.
   */
  addResolved: `
local kept = redis.call('GET', KEYS[2])
if kept then
  local ok, verdict = pcall(cjson.decode, kept)
  local stops = { settling = true, succeeded = true, canceled = true }
  if ok and type(verdict) == 'table' and stops[verdict.status]
    and type(verdict.places) == 'number' and verdict.places >= 0
    and verdict.places == math.floor(verdict.places) then
    return {0, 0, kept}
  end
end
if #ARGV > 1 then
  for i = 2, #ARGV, ${SADD_CHUNK} do
    redis.call('SADD', KEYS[1], unpack(ARGV, i, math.min(i + ${SADD_CHUNK - 1}, #ARGV)))
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return {1, redis.call('SCARD', KEYS[1]), kept}
`,
  /**
   * Records a use in the payment's hash. ARGV[1] now (ms), ARGV[2] report interval (ms), ARGV[3]
   * TTL (ms). Returns 1 when a usage report is due (and marks it made), else 0.
   */
  recordUse: `
local now = tonumber(ARGV[1])
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '')
if last == nil or now > last then redis.call('HSET', KEYS[1], 'last', ARGV[1]) end
local reported = tonumber(redis.call('HGET', KEYS[1], 'reported') or '')
local due = 0
if reported == nil then
  redis.call('HSET', KEYS[1], 'reported', ARGV[1])
elseif now - reported >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'reported', ARGV[1])
  due = 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return due
`,
  /**
   * Records an authorization's sighting in the payment's use hash. ARGV[1] when (ms), ARGV[2] TTL
   * (ms). Keeps `last` only when the hash has none; returns the `last` kept.
   */
  recordAuthorization: `
if redis.call('HSETNX', KEYS[1], 'last', ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(ARGV[1])
end
return tonumber(redis.call('HGET', KEYS[1], 'last'))
`,
  /**
   * Takes free links from the day's counter all or nothing. ARGV[1] count, ARGV[2] per day,
   * ARGV[3] TTL (ms). Returns {1 or 0, remaining}.
   */
  takeFree: `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local count = tonumber(ARGV[1])
local perDay = tonumber(ARGV[2])
if used + count > perDay then
  return {0, math.max(perDay - used, 0)}
end
if count > 0 then
  used = redis.call('INCRBY', KEYS[1], count)
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return {1, perDay - used}
`,
  /** Gives back free links, never below none taken; the day's expiry is kept. ARGV[1] count. */
  returnFree: `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local back = math.min(used, tonumber(ARGV[1]))
if back > 0 then
  redis.call('DECRBY', KEYS[1], back)
end
return back
`,
  /**
   * Caches a place: KEYS[1] its key, set to ARGV[1] for ARGV[2] ms; KEYS[2] the index, where its
   * name ARGV[4] is scored by Redis's time. Entries older than the TTL leave the index, and past
   * ARGV[3] entries the oldest go, their keys (ARGV[5] .. name) deleted with them: keys the
   * script does not declare, which a single Redis allows (the store is not a Cluster). Returns
   * how many went.
   */
  setPlace: `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl * 1000)
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
if over > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #oldest, 2 do redis.call('DEL', ARGV[5] .. oldest[i]) end
else
  over = 0
end
redis.call('PEXPIRE', KEYS[2], ttl)
return over
`,
  /** One hit in a fixed window. ARGV[1] window (ms). Returns {count, ttl}. */
  hit: `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`,
  /**
   * Takes the lease when it is free or ARGV[1]'s already, for ARGV[2] ms. Returns 1 when ARGV[1]
   * holds it now, 0 when another holder does.
   */
  tryLease: `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`,
  /** Deletes the lease only if ARGV[1] holds it. Returns 1 when deleted. */
  releaseLease: `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`,
};

/** Scripts on more than one key, and how many they take (`defineCommand`'s `numberOfKeys`). */
const SCRIPT_KEYS: Partial<Record<keyof typeof SCRIPTS, number>> = {
  addResolved: 2,
  setPlace: 2,
};

/** A script as `defineCommand` adds it to the client: its keys, then the arguments. */
type ScriptCommands = Record<
  keyof typeof SCRIPTS,
  (...keysThenArgs: Array<string | number>) => Promise<unknown>
>;

function pairOf(reply: unknown): [number, number] {
  const [first, second]: unknown[] = Array.isArray(reply) && reply.length === 2 ? reply : [];
  if (typeof first === 'number' && typeof second === 'number') return [first, second];
  throw new Error(`unexpected reply from a Redis script: ${JSON.stringify(reply)}`);
}

function numberOf(reply: unknown): number {
  if (typeof reply === 'number') return reply;
  throw new Error(`unexpected reply from Redis: ${JSON.stringify(reply)}`);
}

/** The stored form of a cached place: `{ lat, lng, placeId? }` (JSON drops an undefined id). */
function encodePlace({ coordinates: { lat, lng }, placeId }: CachedPlace): string {
  return JSON.stringify({ lat, lng, placeId });
}

/** A stored place: anything malformed is a miss, never wrong coordinates. */
const StoredPlace = v.pipe(
  v.object({
    lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
    lng: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
    placeId: v.optional(v.string()),
  }),
  v.transform(({ lat, lng, placeId }): CachedPlace => ({ coordinates: { lat, lng }, placeId })),
);

/** A stored verdict: anything malformed is no verdict (the next check asks the provider). */
const StoredVerdict = v.object({
  status: v.picklist(['requires_capture', 'settling', 'succeeded', 'canceled']),
  places: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
});

/** The stored form of a verdict: its two fields, nothing else. */
function verdictJson({ status, places }: PaymentVerdict): string {
  return JSON.stringify({ status, places });
}

/** Reads a stored JSON value by `schema`; undefined when absent or malformed. */
function decode<T>(schema: v.GenericSchema<unknown, T>, text: string | null): T | undefined {
  if (text === null) return undefined;
  try {
    const result = v.safeParse(schema, JSON.parse(text));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

/** The reply of the `addResolved` script, its verdict read as `verdictOf` reads it. */
function addedPlacesOf(reply: unknown): AddedPlaces {
  const [added, count, kept]: unknown[] = Array.isArray(reply) ? reply : [];
  const verdict = decode(StoredVerdict, typeof kept === 'string' ? kept : null);
  if (added === 1 && typeof count === 'number') return { added: true, count, verdict };
  if (added === 0 && verdict) return { added: false, verdict };
  throw new Error(`unexpected reply from a Redis script: ${JSON.stringify(reply)}`);
}

/**
 * `url` with its password (and a user name, which for Redis ACLs is half the secret) replaced by
 * `***`, for messages. Never put the raw `REDIS_URL` in a log or an error.
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an unreadable URL)';
  }
  if (parsed.password) parsed.password = '***';
  if (parsed.username) parsed.username = '***';
  return parsed.toString();
}

/** Options of {@link RedisStateStore.connect}. */
export interface RedisStateStoreOptions {
  /**
   * Told once when Redis becomes unavailable after start (the connection dropped, a command
   * timed out, or it refuses writes), with the first error seen; ioredis reconnects by itself.
   * The API passes its logger. Messages hold host and port, never the password.
   */
  onUnavailable?: (error: Error | undefined) => void;
  /** Told once when Redis answers again after {@link onUnavailable}. */
  onAvailable?: () => void;
}

/** ioredis's message for a command that got no answer within `commandTimeout`. */
const COMMAND_TIMED_OUT = 'Command timed out';

/**
 * How Redis starts its refusal of a write while it is up: out of memory under `noeviction`
 * (`OOM`), a read-only replica (`READONLY`), a snapshot that failed to save (`MISCONF`).
 */
const REFUSES_WRITES = /^(?:OOM|READONLY|MISCONF)\b/;

/**
 * The shared state of several API instances, in one Redis (`REDIS_URL`). Each operation is one
 * command or one Lua script (on one key, but for `addResolved`'s and `setPlace`'s two), so it is atomic across
 * instances; every key starts with {@link REDIS_KEY_PREFIX} and expires. Time is Redis's own
 * (relative `PEXPIRE`), except the free budget's day, which is the caller's `now`.
 *
 * Faults are answers: while Redis is away every operation fails at once (no offline queue, no
 * retries of commands in flight, which could count twice) with {@link StoreUnavailableError}, a
 * command that hangs fails after {@link COMMAND_TIMEOUT_MS} and the ones after it at once until
 * Redis answers a probe, a Redis that refuses writes is unavailable until a probe write succeeds,
 * and ioredis reconnects by itself.
 */
export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  private readonly cache: PlaceCache;
  /** Set by a command that timed out on a connection that looks ready; cleared by any answer. */
  private hung = false;
  /**
   * Set by a write Redis refused while up (see {@link REFUSES_WRITES}); cleared only by a write
   * that succeeds, since reads go on answering.
   */
  private refusingWrites = false;
  /**
   * The one probe under way (see {@link call}): a `PING` asking a hung Redis whether it answers
   * again, or a write asking one that refuses writes whether it takes them again.
   */
  private probe: Promise<unknown> | undefined;

  /** {@link RedisStateStoreOptions.onUnavailable} was told and Redis has not answered since. */
  private down = false;

  private constructor(
    /** The connection (tests and the start-up checks read it). */
    readonly client: Redis,
    private readonly secret: string | undefined,
    private readonly options: RedisStateStoreOptions,
  ) {
    this.cache = {
      get: async (key) => {
        try {
          return decode(StoredPlace, await this.call((r) => r.get(redisKeys.place(key))));
        } catch {
          return undefined;
        }
      },
      set: async (key, value) => {
        await this.script(
          'setPlace',
          [redisKeys.place(key), redisKeys.placeIndex],
          encodePlace(value),
          PLACE_TTL_MS,
          REDIS_LIMITS.places,
          key,
          redisKeys.place(''),
        ).catch(() => undefined);
      },
    };
  }

  available(): boolean {
    return this.client.status === 'ready' && !this.hung && !this.refusingWrites;
  }

  /**
   * Runs one command or script, turning every failure into {@link StoreUnavailableError}.
   *
   * Once a command has timed out, Redis is known to hang (connections open, no answers): until
   * it answers again, commands fail at once instead of each waiting out the timeout, and one
   * `PING` at a time asks whether it is back. So a hang costs one request the timeout, not every
   * request, and no write piles up in the socket to run when a frozen Redis wakes.
   *
   * Once Redis has refused a write while up (out of memory, a read-only replica, a failed
   * snapshot), the store is unavailable (health says so, and the outage is logged once) though
   * commands still run: reads answer and writes fail as Redis refuses them. Only a write that
   * succeeds says writes are taken again, so one small write at a time, {@link redisKeys.probe},
   * is tried alongside the commands until one does.
   */
  private async call<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.hung) {
      this.probe ??= this.client
        .ping()
        .then(() => this.answered())
        .catch(() => undefined)
        .finally(() => (this.probe = undefined));
      throw new StoreUnavailableError('unreachable', 'Redis: no answer (it hangs)');
    }
    if (this.refusingWrites) {
      this.probe ??= this.client
        .set(redisKeys.probe, '1', 'PX', PROBE_TTL_MS)
        .then(() => {
          this.refusingWrites = false;
          this.answered();
        })
        .catch(() => undefined)
        .finally(() => (this.probe = undefined));
    }
    try {
      const answer = await command(this.client);
      this.answered();
      return answer;
    } catch (error) {
      const cause = scrub(error, this.secret);
      if (cause.message === COMMAND_TIMED_OUT && !this.hung) {
        this.hung = true;
        this.lost(cause);
      } else if (
        error instanceof ReplyError &&
        REFUSES_WRITES.test(cause.message) &&
        !this.refusingWrites
      ) {
        this.refusingWrites = true;
        this.lost(cause);
      }
      throw new StoreUnavailableError('unreachable', `Redis: ${cause.message}`, { cause });
    }
  }

  /** Redis answered: it does not hang, and is back unless it still refuses writes. */
  private answered(): void {
    this.hung = false;
    if (this.down && !this.refusingWrites && this.client.status === 'ready') {
      this.down = false;
      this.options.onAvailable?.();
    }
  }

  /**
   * Redis went away (the connection closed), hangs or refuses writes: told once, until it
   * answers again (and takes writes).
   */
  private lost(error: Error | undefined): void {
    if (this.closing || this.down) return;
    this.down = true;
    this.options.onUnavailable?.(error);
  }

  /** Runs one of the {@link SCRIPTS} on its `keys`, as {@link call} does a command. */
  private script(name: keyof ScriptCommands, keys: string[], ...args: Array<string | number>) {
    return this.call((redis) => (redis as unknown as ScriptCommands)[name](...keys, ...args));
  }

  /**
   * Connects to `url` (`redis://` or `rediss://`) and resolves once the server answers, or rejects
   * with an error naming the server (password hidden) when it cannot be reached.
   */
  static async connect(
    url: string,
    options: RedisStateStoreOptions = {},
  ): Promise<RedisStateStore> {
    const where = redactRedisUrl(url);
    let redis: Redis;
    try {
      redis = new Redis(url, {
        lazyConnect: true,
        connectTimeout: CONNECT_TIMEOUT_MS,
        commandTimeout: COMMAND_TIMEOUT_MS,
        // Fail fast while Redis is away: a command sent while disconnected fails at once instead
        // of waiting in a queue, and commands in flight when the connection drops fail with it
        // rather than being sent again after reconnecting (a resent INCR would count twice).
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        autoResendUnfulfilledCommands: false,
        retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS),
        keepAlive: KEEP_ALIVE_MS,
      });
    } catch (error) {
      throw new Error(`REDIS_URL is not a usable Redis URL (${where}).`, { cause: error });
    }
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      const numberOfKeys = SCRIPT_KEYS[name as keyof typeof SCRIPTS] ?? 1;
      redis.defineCommand(name, { numberOfKeys, lua });
    }
    const secret = passwordOf(url);
    // Set once connected: before that, errors explain a failed start instead.
    const started: { store?: RedisStateStore } = {};
    let startError: Error | undefined;
    let firstError: Error | undefined;
    redis.on('error', (error: Error) => {
      if (!started.store) startError ??= error;
      else if (!started.store.down) firstError = error;
    });
    redis.on('close', () => started.store?.lost(firstError && scrub(firstError, secret)));
    // A new connection answered (whatever hung was the old one).
    redis.on('ready', () => {
      firstError = undefined;
      started.store?.answered();
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      // ioredis rejects with "Connection is closed."; the socket's own error says why. The cause
      // is that error with the password removed.
      const cause = scrub(startError ?? error, secret);
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`Cannot reach Redis at ${where} (REDIS_URL): ${cause.message}`, { cause });
    }
    started.store = new RedisStateStore(redis, secret, options);
    return started.store;
  }

  /**
   * What makes this Redis unsafe for payments, read from its configuration at start (the API logs
   * each as an error): a `maxmemory-policy` other than `noeviction` (under memory pressure Redis
   * would drop keys, payer bindings and server counts of open payments among them, where
   * `noeviction` refuses writes instead, which the API answers 503), and `appendonly no`: with no
   * `save` schedule a restart forgets every binding and count, and with one a crash goes back to
   * the last snapshot, so a payment captured since looks open again (its lookups served free
   * until the next usage report reads the intent) and the counts and bindings made since are
   * lost; and `appendfsync no` (the system flushes the log when it likes, so a machine crash loses
   * up to about 30 s of it). Empty when all are right; a Redis that refuses `CONFIG GET` (managed services often
   * do) gets a reminder to check by hand.
   */
  async durabilityProblems(): Promise<string[]> {
    // One name a call: Redis before 7 takes a single pattern.
    const read = async (name: string) => {
      const reply = (await this.call((redis) => redis.config('GET', name))) as unknown[];
      return typeof reply[1] === 'string' ? reply[1] : undefined;
    };
    const config: Record<string, string | undefined> = {};
    try {
      for (const name of ['maxmemory-policy', 'appendonly', 'appendfsync', 'save'])
        config[name] = await read(name);
    } catch (error) {
      return [
        `Redis refused CONFIG GET (${(error as Error).message}): make sure it persists every write (appendonly yes) and uses maxmemory-policy noeviction, or payments can be forgotten`,
      ];
    }
    const problems: string[] = [];
    const policy = config['maxmemory-policy'];
    if (policy !== undefined && policy !== 'noeviction') {
      problems.push(
        `Redis maxmemory-policy is ${policy}: under memory pressure it would evict keys, payer bindings and server counts of open payments among them. Set maxmemory-policy noeviction (writes are then refused, which the API answers 503).`,
      );
    }
    if (config.appendonly === 'no') {
      problems.push(
        (config.save ?? '').trim() === ''
          ? 'Redis does not persist (appendonly no, no save schedule): a restart forgets every payer binding, verdict and server count. Turn on appendonly yes (appendfsync everysec).'
          : 'RDB snapshots alone lose every write since the last snapshot: a captured payment can look open again, counts and payer bindings made since are lost; turn on appendonly yes (appendfsync everysec).',
      );
    } else if (config.appendonly === 'yes' && config.appendfsync === 'no') {
      problems.push(
        'Redis appendfsync is no: the system writes the log to disk when it likes (about every 30 s on Linux), so a machine that crashes or loses power forgets the captures, counts and payer bindings of that time. Set appendfsync everysec.',
      );
    }
    return problems;
  }

  /** Set by {@link close}, so closing is not reported as Redis going away. */
  private closing = false;

  placeCache(): PlaceCache {
    return this.cache;
  }

  async reserveLinks(
    intentId: string,
    linkKeys: string[],
    allowed: number,
  ): Promise<LinkReservation> {
    assertWhole('allowed', allowed);
    if (linkKeys.length === 0) return { ok: true, newlyCounted: 0 };
    const [ok, value] = pairOf(
      await this.script(
        'reserveLinks',
        [redisKeys.links(intentId)],
        allowed,
        PAYMENT_STATE_TTL_MS,
        ...linkKeys,
      ),
    );
    return ok === 1 ? { ok: true, newlyCounted: value } : { ok: false, remaining: value };
  }

  async countEarlierLinks(intentId: string, atLeast: number): Promise<number> {
    assertWhole('atLeast', atLeast);
    const added = await this.script(
      'countEarlierLinks',
      [redisKeys.links(intentId)],
      atLeast,
      PAYMENT_STATE_TTL_MS,
    );
    return Number(added);
  }

  async addResolved(intentId: string, placeKeys: string[]): Promise<AddedPlaces> {
    const keys = [redisKeys.resolved(intentId), redisKeys.verdict(intentId)];
    return addedPlacesOf(
      await this.script('addResolved', keys, PAYMENT_STATE_TTL_MS, ...placeKeys),
    );
  }

  async bindPayer(intentId: string, payerHash: string): Promise<boolean> {
    const set = await this.call((redis) =>
      redis.set(redisKeys.payer(intentId), payerHash, 'PX', PAYMENT_STATE_TTL_MS, 'NX'),
    );
    return set === 'OK';
  }

  async payerOf(intentId: string): Promise<string | undefined> {
    return (await this.call((redis) => redis.get(redisKeys.payer(intentId)))) ?? undefined;
  }

  async resolvedCount(intentId: string): Promise<number> {
    return this.call((redis) => redis.scard(redisKeys.resolved(intentId)));
  }

  async keepVerdict(intentId: string, verdict: PaymentVerdict, ttlMs: number): Promise<boolean> {
    assertWhole('ttlMs', ttlMs, 1);
    const key = redisKeys.verdict(intentId);
    const set = await this.call((redis) => redis.set(key, verdictJson(verdict), 'PX', ttlMs, 'NX'));
    return set === 'OK';
  }

  async replaceVerdict(intentId: string, verdict: PaymentVerdict, ttlMs: number): Promise<void> {
    assertWhole('ttlMs', ttlMs, 1);
    const key = redisKeys.verdict(intentId);
    await this.call((redis) => redis.set(key, verdictJson(verdict), 'PX', ttlMs));
  }

  async verdictOf(intentId: string): Promise<PaymentVerdict | undefined> {
    return decode(
      StoredVerdict,
      await this.call((redis) => redis.get(redisKeys.verdict(intentId))),
    );
  }

  async forgetVerdict(intentId: string): Promise<void> {
    await this.call((redis) => redis.del(redisKeys.verdict(intentId)));
  }

  async recordUse(intentId: string, at: number, reportEveryMs: number): Promise<PaymentUse> {
    assertWhole('at', at);
    assertWhole('reportEveryMs', reportEveryMs, 1);
    const due = numberOf(
      await this.script(
        'recordUse',
        [redisKeys.use(intentId)],
        at,
        reportEveryMs,
        PAYMENT_STATE_TTL_MS,
      ),
    );
    return { reportDue: due === 1 };
  }

  async recordAuthorization(intentId: string, at: number): Promise<number> {
    assertWhole('at', at);
    return numberOf(
      await this.script('recordAuthorization', [redisKeys.use(intentId)], at, PAYMENT_STATE_TTL_MS),
    );
  }

  async lastUseOf(intentId: string): Promise<number | undefined> {
    const last = await this.call((redis) => redis.hget(redisKeys.use(intentId), 'last'));
    return last === null ? undefined : Number(last);
  }

  async takeFreeLinks(
    clientKey: string,
    count: number,
    perDay: number,
    now: number,
  ): Promise<FreeBudget> {
    assertWhole('count', count);
    assertWhole('perDay', perDay);
    const [ok, remaining] = pairOf(
      await this.script(
        'takeFree',
        [redisKeys.free(clientKey, now)],
        count,
        perDay,
        freeDayTtlMs(now),
      ),
    );
    return { ok: ok === 1, remaining };
  }

  async returnFreeLinks(clientKey: string, count: number, now: number): Promise<void> {
    assertWhole('count', count);
    await this.script('returnFree', [redisKeys.free(clientKey, now)], count);
  }

  async hit(key: string, windowMs: number, max: number): Promise<CounterHit> {
    assertWhole('windowMs', windowMs, 1);
    assertWhole('max', max);
    const [count, resetMs] = pairOf(await this.script('hit', [redisKeys.counter(key)], windowMs));
    return { allowed: count <= max, count, resetMs };
  }

  async tryLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    assertWhole('ttlMs', ttlMs, 1);
    return numberOf(await this.script('tryLease', [redisKeys.lease(name)], holder, ttlMs)) === 1;
  }

  async releaseLease(name: string, holder: string): Promise<boolean> {
    return numberOf(await this.script('releaseLease', [redisKeys.lease(name)], holder)) === 1;
  }

  async close(): Promise<void> {
    this.closing = true;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

function passwordOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.password ? decodeURIComponent(parsed.password) : undefined;
  } catch {
    return undefined;
  }
}

/** The error (anything thrown) with any occurrence of the password removed from its message. */
function scrub(thrown: unknown, secret: string | undefined): Error {
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  if (!secret || !error.message.includes(secret)) return error;
  return new Error(error.message.replaceAll(secret, '***'));
}
