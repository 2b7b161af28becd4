/**
 * A small seeded pseudo-random generator (mulberry32), so that the same seed always yields the
 * same archive, byte for byte, on every machine. Not for anything secret.
 */
export class Random {
  #state: number;

  /** Starts the stream at a 32-bit state; use {@link seedFrom} to fold larger seeds in. */
  constructor(state: number) {
    this.#state = state >>> 0;
  }

  /** The next unsigned 32-bit integer of the stream. */
  uint32(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new RangeError('Random.pick needs a non-empty array');
    return item;
  }

  /** Shuffles `items` in place (Fisher–Yates). */
  shuffle<T>(items: T[]): void {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const a = items[i] as T;
      items[i] = items[j] as T;
      items[j] = a;
    }
  }
}

/** MurmurHash3's 32-bit finaliser: spreads every input bit over the whole word. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Derives a 32-bit stream state from a user seed (any safe integer) and a stream number, so each
 * list gets its own independent stream and adding a list does not change the others.
 */
export function seedFrom(seed: number, stream: number): number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  const low = seed >>> 0;
  const high = Math.floor(seed / 4294967296) >>> 0;
  return mix32(mix32(low ^ 0x9e3779b9) ^ mix32(high + 0x7f4a7c15) ^ mix32(stream + 0x632be5ab));
}

/** A fixed table of choices with relative weights, drawn from in constant memory. */
export class WeightTable<K> {
  readonly #keys: K[] = [];
  readonly #cumulative: number[] = [];
  readonly #total: number;

  /** Keeps only entries with a positive weight; throws if none is left. */
  constructor(entries: ReadonlyArray<readonly [K, number]>) {
    let total = 0;
    for (const [key, weight] of entries) {
      if (!(weight > 0)) continue;
      total += weight;
      this.#keys.push(key);
      this.#cumulative.push(total);
    }
    if (total === 0) throw new RangeError('a weight table needs at least one positive weight');
    this.#total = total;
  }

  /** The keys that can be drawn, heaviest first. */
  keysByWeight(): K[] {
    const weights = this.#cumulative.map((c, i) => c - (this.#cumulative[i - 1] ?? 0));
    return this.#keys
      .map((k, i) => [k, weights[i] ?? 0] as const)
      .sort((a, b) => b[1] - a[1])
      .map(([k]) => k);
  }

  /** One key, with probability proportional to its weight. */
  draw(random: Random): K {
    const r = random.next() * this.#total;
    for (let i = 0; i < this.#keys.length; i++) {
      if (r < (this.#cumulative[i] as number)) return this.#keys[i] as K;
    }
    return this.#keys[this.#keys.length - 1] as K;
  }
}
