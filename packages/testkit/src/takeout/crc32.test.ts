import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, crc32Repeat } from './crc32.js';
import { Random } from './random.js';

describe('crc32Combine', () => {
  it('combines two CRCs into the CRC of the joined data, for every split', () => {
    const random = new Random(8);
    const data = Uint8Array.from({ length: 257 }, () => random.int(256));
    for (const split of [0, 1, 7, 8, 100, 256, 257]) {
      const a = data.subarray(0, split);
      const b = data.subarray(split);
      expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(data));
    }
  });

  it('gives the CRC of a block repeated any number of times', () => {
    const block = new TextEncoder().encode('Dropped pin,,https://x,\n');
    for (const times of [0, 1, 2, 3, 5, 8, 13]) {
      const repeated = new Uint8Array(block.length * times);
      for (let i = 0; i < times; i++) repeated.set(block, i * block.length);
      expect(crc32Repeat(crc32(block), block.length, times)).toBe(crc32(repeated));
    }
  });
});
