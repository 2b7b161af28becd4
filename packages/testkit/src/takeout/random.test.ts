import { describe, expect, it } from 'vitest';
import { Random, seedFrom, WeightTable } from './random.js';

describe('Random', () => {
  it('repeats the same stream for the same state and differs for another', () => {
    const draw = (state: number) => {
      const r = new Random(state);
      return Array.from({ length: 8 }, () => r.uint32());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  it('keeps int() inside [0, max) and hits both ends over many draws', () => {
    const r = new Random(7);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const n = r.int(5);
      expect(n).toBeGreaterThanOrEqual(0);
      expect(n).toBeLessThan(5);
      seen.add(n);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('shuffles into a permutation', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = [...items];
    new Random(3).shuffle(shuffled);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
  });

  it('refuses to pick from an empty array', () => {
    expect(() => new Random(1).pick([])).toThrow(RangeError);
  });
});

describe('seedFrom', () => {
  it('gives distinct streams per seed and per stream number, high bits included', () => {
    const states = new Set([
      seedFrom(1, 0),
      seedFrom(1, 1),
      seedFrom(2, 0),
      seedFrom(-1, 0),
      seedFrom(2 ** 32 + 1, 0),
    ]);
    expect(states.size).toBe(5);
    expect(seedFrom(1, 0)).toBe(seedFrom(1, 0));
  });

  it('rejects seeds that are not safe integers', () => {
    expect(() => seedFrom(1.5, 0)).toThrow(RangeError);
    expect(() => seedFrom(Number.NaN, 0)).toThrow(RangeError);
    expect(() => seedFrom(2 ** 53, 0)).toThrow(RangeError);
  });
});

describe('WeightTable', () => {
  it('draws in proportion to the weights and never draws a zero weight', () => {
    const table = new WeightTable<'a' | 'b' | 'never'>([
      ['a', 3],
      ['b', 1],
      ['never', 0],
    ]);
    const r = new Random(11);
    const counts = { a: 0, b: 0, never: 0 };
    for (let i = 0; i < 20_000; i++) counts[table.draw(r)]++;
    expect(counts.never).toBe(0);
    expect(counts.a / counts.b).toBeGreaterThan(2.7);
    expect(counts.a / counts.b).toBeLessThan(3.3);
    expect(table.keysByWeight()).toEqual(['a', 'b']);
  });

  it('needs one positive weight', () => {
    expect(() => new WeightTable([['a', 0]])).toThrow(RangeError);
  });
});
