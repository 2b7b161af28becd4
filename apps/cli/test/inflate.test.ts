/**
 * The CLI's inflate and its release of bytes read: a big buffer of its own is emptied at once;
 * Node's shared pool of small buffers, which can be transferred too, is never touched.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RELEASE_MIN_BYTES, releaseBytes, zlibInflate } from '../src/inflate.js';

describe('releaseBytes', () => {
  it('empties a list inflated by zlibInflate when its buffer is at or past the smallest size freed', () => {
    // The buffer under a list is a byte longer than the list (see zlibInflate).
    for (const [size, freed] of [
      [RELEASE_MIN_BYTES - 2, false],
      [RELEASE_MIN_BYTES - 1, true],
      [3 * RELEASE_MIN_BYTES, true],
    ] as const) {
      const text = Buffer.alloc(size, 'Title,URL\n');
      const list = zlibInflate(deflateRawSync(text), size);
      expect(Buffer.compare(list, text)).toBe(0);
      expect(list.buffer.byteLength).toBe(size + 1);
      releaseBytes(list);
      expect(list.byteLength).toBe(freed ? 0 : size);
      expect(list.buffer.byteLength).toBe(freed ? 0 : size + 1);
    }
  });

  it('empties the bytes of a file read whole, and is harmless a second time', () => {
    const file = Buffer.alloc(RELEASE_MIN_BYTES * 2, 7);
    releaseBytes(file);
    expect(file.byteLength).toBe(0);
    expect(() => releaseBytes(file)).not.toThrow();
  });

  it("leaves Node's pool of small buffers alone: the other buffers in it keep their bytes", () => {
    const neighbour = Buffer.from('a neighbour in the pool');
    const small = Buffer.from('Title,URL\nA,"https://www.google.com/maps/search/1,2"\n');
    expect(small.buffer).toBe(neighbour.buffer);
    releaseBytes(small);
    expect(small.toString()).toMatch(/^Title,URL/);
    expect(neighbour.toString()).toBe('a neighbour in the pool');
  });
});
