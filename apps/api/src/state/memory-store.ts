import type { CachedPlace, PlaceCache } from '@placeport/resolver';
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
  type StateClock,
  type StateStore,
  StoreUnavailableError,
} from './store.js';

/** The caps of {@link MemoryStateStore}, one per map; tests lower them. */
export const MEMORY_LIMITS = {
  /** Places kept in the in-process cache; past this the least recently used go first. */
  places: 100_000,
  /**
   * Payments whose counted links (and, separately, resolved places, verdicts, uses and payer
   * bindings) are kept; the oldest go first, except the payer bindings of open authorizations, of
   * which this many are held and new payments refused past it.
   */
  payments: 10_000,
  /**
   * Link keys counted, and separately place keys resolved, kept across all payments (about 110 bytes
   * each): a payment's set grows with its places, so the payment cap alone bounded nothing (10,000
   * payments of 1,000 places held 2.2 GB). Past it the oldest payments' sets go first.
   */
  paymentKeys: 500_000,
  /** Clients whose free budget of the day is kept; the oldest go first (they get a fresh budget). */
  freeClients: 100_000,
  /** Rate-limit windows kept; the oldest go first. */
  counters: 100_000,
  /** Sweeper leases kept; there are a handful in practice. */
  leases: 1_000,
};

interface Expiring<V> {
  value: V;
  expiresAt: number;
}

/** A {@link BoundedMap} entry with its weight, as {@link BoundedMap.set} measured it. */
interface Weighed<V> extends Expiring<V> {
  weight: number;
}

/**
 * A map whose entries expire and whose size is capped: past the cap the oldest entry (by last
 * write, or last read when `touchOnRead`) is dropped. Expired entries at the front are dropped on
 * every write, so dead entries do not hold the cap for long. With a `weigh`, the entries' total
 * weight is capped too (`maxWeight`), measured at each write: the oldest go first past it, never
 * the entry just written.
 */
class BoundedMap<V> {
  private readonly entries = new Map<string, Weighed<V>>();
  private totalWeight = 0;

  constructor(
    private readonly cap: number,
    private readonly touchOnRead = false,
    private readonly weigh?: (value: V) => number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {
    assertWhole('cap', cap, 1);
  }

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    if (this.touchOnRead) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number, now: number): void {
    this.delete(key);
    const weight = this.weigh?.(value) ?? 0;
    for (const [oldest, entry] of this.entries) {
      const fits = this.entries.size < this.cap && this.totalWeight + weight <= this.maxWeight;
      if (entry.expiresAt > now && fits) break;
      this.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt, weight });
    this.totalWeight += weight;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }
}

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** Time for every lifetime and window; the system clock unless a test injects one. */
  clock?: StateClock;
  /** Caps per map; {@link MEMORY_LIMITS} unless a test lowers them. */
  limits?: Partial<typeof MEMORY_LIMITS>;
}

const systemTime: StateClock = { now: () => Date.now() };

/**
 * The embedded default: the shared state of one API process, no Redis needed. Every operation runs
 * synchronously inside its promise, so it is atomic within the process. Memory is bounded: each
 * map has a cap ({@link MEMORY_LIMITS}) and drops its oldest entries past it, which can only ever
 * make the server more generous (a forgotten payment or client starts afresh), never refuse more;
 * a forgotten verdict costs one more check with the payment provider. Payer bindings are the
 * exception: once a payment's authorization is recorded its binding is held, never dropped, until
 * a settled verdict replaces it; the cap then bounds them by refusing new payments (`full`) while
 * that many are open, and a binding dropped before the authorization was known is restored from
 * the intent's metadata (see `requirePayer`).
 */
export class MemoryStateStore implements StateStore {
  readonly kind = 'memory' as const;
  private readonly clock: StateClock;
  private readonly places: BoundedMap<CachedPlace>;
  private readonly links: BoundedMap<Set<string>>;
  private readonly resolved: BoundedMap<Set<string>>;
  /** Payer bindings of payments not known to be authorized: the oldest go first past the cap. */
  private readonly payers: BoundedMap<string>;
  /** Payer bindings of open authorizations: never dropped before they settle or expire. */
  private readonly heldPayers = new Map<string, Expiring<string>>();
  private readonly maxHeldPayers: number;
  private readonly verdicts: BoundedMap<PaymentVerdict>;
  /** Last use, and the last usage report (none before the first lookup). */
  private readonly uses: BoundedMap<{ last: number; reported: number | undefined }>;
  private readonly free: BoundedMap<number>;
  private readonly counters: BoundedMap<{ count: number; resetAt: number }>;
  private readonly leases: BoundedMap<string>;
  private readonly cache: PlaceCache;

  constructor(options: MemoryStateStoreOptions = {}) {
    this.clock = options.clock ?? systemTime;
    const limits = { ...MEMORY_LIMITS, ...options.limits };
    this.places = new BoundedMap(limits.places, true);
    const size = (keys: Set<string>) => keys.size;
    this.links = new BoundedMap(limits.payments, false, size, limits.paymentKeys);
    this.resolved = new BoundedMap(limits.payments, false, size, limits.paymentKeys);
    this.payers = new BoundedMap(limits.payments);
    this.maxHeldPayers = limits.payments;
    this.verdicts = new BoundedMap(limits.payments);
    this.uses = new BoundedMap(limits.payments);
    this.free = new BoundedMap(limits.freeClients);
    this.counters = new BoundedMap(limits.counters);
    this.leases = new BoundedMap(limits.leases);
    this.cache = {
      get: async (key) => {
        const place = this.places.get(key, this.clock.now());
        return place && { coordinates: { ...place.coordinates }, placeId: place.placeId };
      },
      set: async (key, value) => {
        const now = this.clock.now();
        const copy = { coordinates: { ...value.coordinates }, placeId: value.placeId };
        this.places.set(key, copy, now + PLACE_TTL_MS, now);
      },
    };
  }

  /** The process's own memory is always there. */
  available(): boolean {
    return true;
  }

  placeCache(): PlaceCache {
    return this.cache;
  }

  async reserveLinks(
    intentId: string,
    linkKeys: string[],
    allowed: number,
  ): Promise<LinkReservation> {
    assertWhole('allowed', allowed);
    const now = this.clock.now();
    const counted = this.links.get(intentId, now) ?? new Set<string>();
    const fresh = new Set(linkKeys.filter((key) => !counted.has(key)));
    if (fresh.size === 0) return { ok: true, newlyCounted: 0 };
    if (counted.size + fresh.size > allowed) {
      return { ok: false, remaining: Math.max(allowed - counted.size, 0) };
    }
    for (const key of fresh) counted.add(key);
    this.links.set(intentId, counted, now + PAYMENT_STATE_TTL_MS, now);
    return { ok: true, newlyCounted: fresh.size };
  }

  async countEarlierLinks(intentId: string, atLeast: number): Promise<number> {
    assertWhole('atLeast', atLeast);
    const now = this.clock.now();
    const counted = this.links.get(intentId, now) ?? new Set<string>();
    const before = counted.size;
    if (before >= atLeast) return 0;
    // A placeholder's number is the count when it is added: none counted before is ever reused.
    while (counted.size < atLeast) counted.add(`earlier:${counted.size}`);
    this.links.set(intentId, counted, now + PAYMENT_STATE_TTL_MS, now);
    return atLeast - before;
  }

  async addResolved(intentId: string, placeKeys: string[]): Promise<AddedPlaces> {
    const now = this.clock.now();
    const kept = this.verdicts.get(intentId, now);
    const verdict = kept && { ...kept };
    if (verdict && verdict.status !== 'requires_capture') return { added: false, verdict };
    const places = this.resolved.get(intentId, now) ?? new Set<string>();
    if (placeKeys.length === 0) return { added: true, count: places.size, verdict };
    for (const key of placeKeys) places.add(key);
    this.resolved.set(intentId, places, now + PAYMENT_STATE_TTL_MS, now);
    return { added: true, count: places.size, verdict };
  }

  async bindPayer(intentId: string, payerHash: string): Promise<boolean> {
    const now = this.clock.now();
    if (this.payerAt(intentId, now) !== undefined) return false;
    if (this.heldPayers.size >= this.maxHeldPayers) {
      for (const [id, held] of this.heldPayers) {
        if (held.expiresAt <= now) this.heldPayers.delete(id);
      }
      if (this.heldPayers.size >= this.maxHeldPayers) {
        throw new StoreUnavailableError(
          'full',
          `${this.heldPayers.size} open authorizations: no new payment until some settle`,
        );
      }
    }
    this.payers.set(intentId, payerHash, now + PAYMENT_STATE_TTL_MS, now);
    return true;
  }

  async payerOf(intentId: string): Promise<string | undefined> {
    return this.payerAt(intentId, this.clock.now());
  }

  /** The binding, held or not (synchronous, so a check and a write stay atomic). */
  private payerAt(intentId: string, now: number): string | undefined {
    const held = this.heldPayers.get(intentId);
    if (held && held.expiresAt > now) return held.value;
    if (held) this.heldPayers.delete(intentId);
    return this.payers.get(intentId, now);
  }

  /** Moves a payment's binding among the held ones (an open authorization), or back. */
  private holdPayer(intentId: string, hold: boolean): void {
    const now = this.clock.now();
    if (hold) {
      const payer = this.payers.get(intentId, now);
      if (payer === undefined) return;
      this.payers.delete(intentId);
      this.heldPayers.set(intentId, { value: payer, expiresAt: now + PAYMENT_STATE_TTL_MS });
      return;
    }
    const held = this.heldPayers.get(intentId);
    if (!held) return;
    this.heldPayers.delete(intentId);
    if (held.expiresAt > now) this.payers.set(intentId, held.value, held.expiresAt, now);
  }

  async resolvedCount(intentId: string): Promise<number> {
    return this.resolved.get(intentId, this.clock.now())?.size ?? 0;
  }

  async keepVerdict(intentId: string, verdict: PaymentVerdict, ttlMs: number): Promise<boolean> {
    assertWhole('ttlMs', ttlMs, 1);
    const now = this.clock.now();
    if (this.verdicts.get(intentId, now) !== undefined) return false;
    this.verdicts.set(intentId, { ...verdict }, now + ttlMs, now);
    return true;
  }

  async replaceVerdict(intentId: string, verdict: PaymentVerdict, ttlMs: number): Promise<void> {
    assertWhole('ttlMs', ttlMs, 1);
    const now = this.clock.now();
    this.verdicts.set(intentId, { ...verdict }, now + ttlMs, now);
    // Settled: its binding may go with the oldest again (a later repeat restores it if need be).
    if (verdict.status === 'succeeded' || verdict.status === 'canceled') {
      this.holdPayer(intentId, false);
    }
  }

  async verdictOf(intentId: string): Promise<PaymentVerdict | undefined> {
    const verdict = this.verdicts.get(intentId, this.clock.now());
    return verdict && { ...verdict };
  }

  async forgetVerdict(intentId: string): Promise<void> {
    this.verdicts.delete(intentId);
  }

  async recordUse(intentId: string, at: number, reportEveryMs: number): Promise<PaymentUse> {
    assertWhole('at', at);
    assertWhole('reportEveryMs', reportEveryMs, 1);
    const now = this.clock.now();
    const use = this.uses.get(intentId, now) ?? { last: at, reported: undefined };
    // As in Redis: the first lookup starts the report interval, and reports nothing yet.
    const reportDue = use.reported !== undefined && at - use.reported >= reportEveryMs;
    const reported = use.reported === undefined || reportDue ? at : use.reported;
    this.uses.set(
      intentId,
      { last: Math.max(use.last, at), reported },
      now + PAYMENT_STATE_TTL_MS,
      now,
    );
    return { reportDue };
  }

  async recordAuthorization(intentId: string, at: number): Promise<number> {
    assertWhole('at', at);
    const now = this.clock.now();
    this.holdPayer(intentId, true);
    const use = this.uses.get(intentId, now);
    if (use) return use.last;
    this.uses.set(intentId, { last: at, reported: undefined }, now + PAYMENT_STATE_TTL_MS, now);
    return at;
  }

  async lastUseOf(intentId: string): Promise<number | undefined> {
    return this.uses.get(intentId, this.clock.now())?.last;
  }

  async takeFreeLinks(
    clientKey: string,
    count: number,
    perDay: number,
    now: number,
  ): Promise<FreeBudget> {
    assertWhole('count', count);
    assertWhole('perDay', perDay);
    // As in Redis: the day comes from the caller's `now`, the key's expiry runs on the store's time.
    const at = this.clock.now();
    const key = `${utcDayOf(now)} ${clientKey}`;
    const used = this.free.get(key, at) ?? 0;
    if (used + count > perDay) return { ok: false, remaining: Math.max(perDay - used, 0) };
    if (count > 0) this.free.set(key, used + count, at + freeDayTtlMs(now), at);
    return { ok: true, remaining: perDay - used - count };
  }

  async returnFreeLinks(clientKey: string, count: number, now: number): Promise<void> {
    assertWhole('count', count);
    const at = this.clock.now();
    const key = `${utcDayOf(now)} ${clientKey}`;
    const used = this.free.get(key, at);
    if (used === undefined || count === 0) return;
    this.free.set(key, Math.max(used - count, 0), at + freeDayTtlMs(now), at);
  }

  async hit(key: string, windowMs: number, max: number): Promise<CounterHit> {
    assertWhole('windowMs', windowMs, 1);
    assertWhole('max', max);
    const now = this.clock.now();
    const window = this.counters.get(key, now);
    const count = (window?.count ?? 0) + 1;
    const resetAt = window?.resetAt ?? now + windowMs;
    this.counters.set(key, { count, resetAt }, resetAt, now);
    return { allowed: count <= max, count, resetMs: resetAt - now };
  }

  async tryLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    assertWhole('ttlMs', ttlMs, 1);
    const now = this.clock.now();
    const current = this.leases.get(name, now);
    if (current !== undefined && current !== holder) return false;
    this.leases.set(name, holder, now + ttlMs, now);
    return true;
  }

  async releaseLease(name: string, holder: string): Promise<boolean> {
    if (this.leases.get(name, this.clock.now()) !== holder) return false;
    this.leases.delete(name);
    return true;
  }

  async close(): Promise<void> {}
}
