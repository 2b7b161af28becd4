import type { LatLng } from '@placeport/converter';

/** What is cached for one place: its coordinates and place id. Never a URL, title or list. */
export interface CachedPlace {
  coordinates: LatLng;
  placeId: string | undefined;
}

interface Entry {
  value: CachedPlace;
  expiresAt: number;
}

/**
 * Coordinates by place key (`cid:…` / `pid:…`), shared by every batch of the process: entries live
 * `ttlMs`, and past `maxEntries` the least recently used go first. The clock is injectable for tests.
 */
export class PlaceCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): CachedPlace | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: CachedPlace): void {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }
}
