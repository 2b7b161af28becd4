import type { LatLng } from '@placeport/converter';
import { systemClock, type Clock } from './clock.js';
import { CACHE_MAX_ENTRIES, CACHE_TTL_MS } from './limits.js';

/** What is cached for one place: its coordinates and place id. Never a URL, title or list. */
export interface CachedPlace {
  coordinates: LatLng;
  placeId: string | undefined;
}

/**
 * Where strong answers are kept, keyed by the id actually looked up (`cid:…` or `pid:…`). Async so
 * a shared store (Redis) can stand behind it; the resolver never caches a weak answer.
 */
export interface PlaceCache {
  get(key: string): Promise<CachedPlace | undefined>;
  set(key: string, value: CachedPlace): Promise<void>;
}

interface Entry {
  value: CachedPlace;
  expiresAt: number;
}

/**
 * The in-process cache: entries live `ttlMs`, and past `maxEntries` the least recently used go
 * first. The clock is injectable for tests.
 */
export class MemoryPlaceCache implements PlaceCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = CACHE_TTL_MS,
    private readonly maxEntries = CACHE_MAX_ENTRIES,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Synchronous read, for tests and snapshots. */
  peek(key: string): CachedPlace | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > this.clock.now() ? entry.value : undefined;
  }

  async get(key: string): Promise<CachedPlace | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.clock.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: CachedPlace): Promise<void> {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.clock.now() + this.ttlMs });
  }

  /** Every live entry with its expiry, for a persistent copy (the CLI's cache file). */
  entriesWithExpiry(): Array<[string, CachedPlace, number]> {
    const now = this.clock.now();
    return [...this.entries]
      .filter(([, entry]) => entry.expiresAt > now)
      .map(([key, entry]) => [key, entry.value, entry.expiresAt]);
  }

  /** Restores an entry with its original expiry (ignored when already expired). */
  restore(key: string, value: CachedPlace, expiresAt: number): void {
    if (expiresAt > this.clock.now()) this.entries.set(key, { value, expiresAt });
  }
}
