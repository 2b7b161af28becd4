import { CACHE_TTL_MS, type Clock, type PlaceCache } from '@placeport/resolver';

/** Days in milliseconds, for the lifetimes below. */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a resolved place stays in the shared cache (coordinates by place id, nothing else): the
 * resolver's own cache lifetime.
 */
export const PLACE_TTL_MS = CACHE_TTL_MS;

/**
 * How long a payment's counted links and resolved places are kept. Stripe cancels an uncaptured
 * authorization 7 days after the intent's creation, so after 8 days nothing can use them.
 */
export const PAYMENT_STATE_TTL_MS = 8 * DAY_MS;

/**
 * A free budget's key outlives its UTC day by this much, so an instance whose clock runs a little
 * behind still finds the day's count rather than a fresh budget.
 */
export const FREE_DAY_GRACE_MS = 5 * 60 * 1000;

/** The result of {@link StateStore.reserveLinks}. */
export type LinkReservation =
  | {
      ok: true;
      /** Links of this call that were not counted before (0 for a pure retry). */
      newlyCounted: number;
    }
  | {
      ok: false;
      /** How many more distinct links the payment still covers (0 when used up). */
      remaining: number;
    };

/** The result of {@link StateStore.takeFreeLinks}. */
export interface FreeBudget {
  ok: boolean;
  /** Free links the client has left today, after this call. */
  remaining: number;
}

/** The result of {@link StateStore.hit}. */
export interface CounterHit {
  /** True while `count` is within `max`. */
  allowed: boolean;
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window closes and the count starts again. */
  resetMs: number;
}

/**
 * What the server learnt from the payment provider about a payment, kept so that a run's paid
 * batches need not each ask Stripe again (see {@link StateStore.keepVerdict}).
 */
export interface PaymentVerdict {
  /**
   * `requires_capture`: authorized, lookups may go on; `settling`: a capture or cancellation is
   * under way, so no more lookups; `succeeded` or `canceled`: settled for good.
   */
  status: 'requires_capture' | 'settling' | 'succeeded' | 'canceled';
  /** The place count the payment authorized. */
  places: number;
}

/**
 * The result of {@link StateStore.addResolved}: the places added and the payment's count, or
 * nothing added because its kept verdict says it is settling or settled.
 */
export type AddedPlaces =
  | {
      added: true;
      /** Distinct places resolved for the payment so far, these included. */
      count: number;
      /** The verdict kept when they were added: `requires_capture`, or none (never kept, or lost). */
      verdict: PaymentVerdict | undefined;
    }
  | {
      added: false;
      /** The `settling`, `succeeded` or `canceled` verdict that stopped them. */
      verdict: PaymentVerdict;
    };

/** The result of {@link StateStore.recordUse}. */
export interface PaymentUse {
  /**
   * True when this call is the one that should report the payment's usage to the provider now:
   * the last report (or the first use) is at least the report interval ago. Exactly one of
   * concurrent calls, on any instance, gets true.
   */
  reportDue: boolean;
}

/** What the memory store needs of time; Redis keeps time itself. */
export type StateClock = Pick<Clock, 'now'>;

/**
 * Everything several API instances must share: the resolution cache, each payment's link
 * allowance and resolved count, the free daily budgets, rate-limit counters and sweeper leases.
 * Without `REDIS_URL` it lives in the process ({@link MemoryStateStore}); with it, in Redis
 * ({@link RedisStateStore}). Every operation is atomic: one Redis command or one Lua script, never
 * a read followed by a write in another round trip, so concurrent requests on any instance cannot
 * both spend the last unit of an allowance.
 */
export interface StateStore {
  /** Where the state lives: this process, or Redis. */
  readonly kind: 'memory' | 'redis';

  /**
   * Whether the store can answer now (the memory store always can; Redis while connected). Read
   * by the health route without a round trip.
   */
  available(): boolean;

  /**
   * The shared resolution cache for `@placeport/resolver`: coordinates and place id by the id that
   * was looked up, kept {@link PLACE_TTL_MS}. Best effort: a store that cannot answer is a miss,
   * and a place it cannot keep is looked up again next time; it never fails a lookup.
   */
  placeCache(): PlaceCache;

  /**
   * Counts `linkKeys` against a payment covering `allowed` distinct links. Links this payment
   * already counted cost nothing (a retry after a dropped connection); the new ones are all
   * counted, or, when the total would pass `allowed`, none is. The payment's links are kept
   * {@link PAYMENT_STATE_TTL_MS} from the last time one was added.
   */
  reserveLinks(intentId: string, linkKeys: string[], allowed: number): Promise<LinkReservation>;

  /**
   * Makes the links counted against a payment at least `atLeast`, by counting placeholders for
   * the ones the store no longer holds (`earlier:<n>`, never a link's key): what the payment's
   * intent records the server resolved, when the store lost the payment's links (a restart of
   * the memory store, a Redis without persistence). Nothing when it holds that many already.
   * Resolves to how many were added.
   */
  countEarlierLinks(intentId: string, atLeast: number): Promise<number>;

  /**
   * Records places the server resolved for a payment (a set: the same place twice counts once)
   * and returns how many distinct places it has resolved so far, the floor of what capture
   * charges; only while the payment's kept verdict is none or `requires_capture`, in the same
   * atomic step. Capture and the sweep mark a payment `settling` before they read its count, so
   * places are either added before the mark, and charged, or refused after it (nothing added),
   * never added too late to be charged. Kept {@link PAYMENT_STATE_TTL_MS} from the last addition.
   */
  addResolved(intentId: string, placeKeys: string[]): Promise<AddedPlaces>;

  /**
   * Records which browser created a payment (the hash of its payer cookie), kept
   * {@link PAYMENT_STATE_TTL_MS}. Set once: a second binding of the same payment is refused
   * (false), so a payment can never change hands. The binding of an open authorization is never
   * dropped to make room (Redis must not evict; the memory store holds it from
   * {@link recordAuthorization} until a settled verdict): a store at its bound refuses new
   * bindings instead ({@link StoreUnavailableError} `full`).
   */
  bindPayer(intentId: string, payerHash: string): Promise<boolean>;

  /** The payer hash a payment was bound to, or undefined when unknown (never made here, or forgotten). */
  payerOf(intentId: string): Promise<string | undefined>;

  /** How many distinct places the server resolved for a payment (0 when none or forgotten). */
  resolvedCount(intentId: string): Promise<number>;

  /**
   * Keeps what a check with the provider found, for `ttlMs`, unless something is kept for the
   * payment already (true when kept): a check that read the provider just before a capture began
   * can then never overwrite the capture's `settling`.
   */
  keepVerdict(intentId: string, verdict: PaymentVerdict, ttlMs: number): Promise<boolean>;

  /** Replaces whatever is kept for the payment (a capture or cancellation starting or done). */
  replaceVerdict(intentId: string, verdict: PaymentVerdict, ttlMs: number): Promise<void>;

  /** The kept verdict, or undefined when none (never checked, expired, forgotten or dropped). */
  verdictOf(intentId: string): Promise<PaymentVerdict | undefined>;

  /** Drops the kept verdict, so the next check asks the provider. */
  forgetVerdict(intentId: string): Promise<void>;

  /**
   * Records that a lookup used the payment at `at` (the app's clock, ms) and says whether its
   * usage is due to be reported to the provider: at most once per `reportEveryMs`, counted from
   * the first use. Kept {@link PAYMENT_STATE_TTL_MS} from the last use.
   */
  recordUse(intentId: string, at: number, reportEveryMs: number): Promise<PaymentUse>;

  /**
   * Records when the payment's authorization was first known here (ms of the app's clock): the
   * start of its idle time, which the settlement sweep measures from the last use, never from the
   * intent's creation (a person may keep the payment form open for longer than the idle limit).
   * Kept only when the payment has no use recorded yet, so the earliest sighting stands; returns
   * the last use now kept. Kept {@link PAYMENT_STATE_TTL_MS}, like the uses.
   */
  recordAuthorization(intentId: string, at: number): Promise<number>;

  /**
   * When the payment was last used (ms): its last lookup ({@link recordUse}) or, before any, its
   * authorization ({@link recordAuthorization}); undefined when neither is known.
   */
  lastUseOf(intentId: string): Promise<number | undefined>;

  /**
   * Takes `count` links from a client's free budget of `perDay` for the UTC day of `now`, all or
   * nothing. A new UTC day starts a new budget; the day's count is forgotten after the day.
   */
  takeFreeLinks(clientKey: string, count: number, perDay: number, now: number): Promise<FreeBudget>;

  /**
   * Gives back `count` links taken from a client's free budget for the UTC day of `now` (the day
   * they were taken on), never below none taken: links taken for a batch that was never looked up.
   */
  returnFreeLinks(clientKey: string, count: number, now: number): Promise<void>;

  /**
   * Counts one hit on `key` in a fixed window of `windowMs` that opens with the first hit; allowed
   * while the window's count stays within `max`. For per-client rate limits.
   */
  hit(key: string, windowMs: number, max: number): Promise<CounterHit>;

  /**
   * Takes the lease `name` for `holder` for `ttlMs` if nobody else holds it: when it is free, or
   * already `holder`'s (its time then starts again: how a long sweep renews it, and how a holder
   * that could not release it while the store was away takes it back). True when `holder` holds
   * it now. For sweepers that one instance runs; one process must not run two of one name at once.
   */
  tryLease(name: string, holder: string, ttlMs: number): Promise<boolean>;

  /** Gives the lease back, only if `holder` still holds it. True when it was released. */
  releaseLease(name: string, holder: string): Promise<boolean>;

  /** Releases connections and timers; the store is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * Thrown by every {@link StateStore} operation the store cannot carry out now, so that callers can
 * answer 503 instead of 500: `unreachable` when Redis is down, restarting, refusing writes (out of
 * memory under `noeviction`, a read-only replica, a failed snapshot) or too slow to answer (a
 * command timeout); `full` when the memory store refuses a new payment because all it may keep
 * are open authorizations. The cause holds the client's own error for the log.
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'full',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** The UTC day of `now` as `YYYY-MM-DD`, the name of a free budget's window. */
export function utcDayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Milliseconds from `now` until a free budget's day key may be forgotten. */
export function freeDayTtlMs(now: number): number {
  const start = new Date(now);
  const nextDay = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1);
  return nextDay - now + FREE_DAY_GRACE_MS;
}

/** Throws unless `value` is a whole number ≥ `min` (counts and limits from our own code). */
export function assertWhole(name: string, value: number, min = 0): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number ≥ ${min}, got ${value}`);
  }
}
