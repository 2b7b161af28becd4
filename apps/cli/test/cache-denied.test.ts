/**
 * A cache file this user may not read (written by placeport run with sudo, another user's): tests
 * run as root, who reads everything, so the refusal is the file system's here, made by a mock.
 */
import { MemoryPlaceCache } from '@placeport/resolver';
import type * as FsPromises from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempFolder } from './support.js';

const denied = new Set<string>();

vi.mock('node:fs/promises', async (original) => {
  const actual = await original<typeof FsPromises>();
  return {
    ...actual,
    readFile: ((file: string, ...rest: unknown[]) =>
      denied.has(String(file))
        ? Promise.reject(
            Object.assign(new Error(`EACCES: permission denied, open '${file}'`), {
              code: 'EACCES',
            }),
          )
        : (actual.readFile as (...args: unknown[]) => Promise<unknown>)(
            file,
            ...rest,
          )) as typeof actual.readFile,
  };
});

const { deniedFileMessage, loadCacheFile, saveCacheFile } = await import('../src/cache-file.js');
const { writeFile, readFile } = await vi.importActual<typeof FsPromises>('node:fs/promises');

describe('a cache file that cannot be read for want of permission', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('cache-denied'));
  });

  afterAll(async () => {
    await remove();
  });

  it('is said as such, not as a file that is not a cache file, and is never written over', async () => {
    const file = path.join(dir, 'places-v1.json');
    const held = '{"version":1,"entries":[]}\n';
    await writeFile(file, held);
    denied.add(file);
    expect(await loadCacheFile(file, new MemoryPlaceCache())).toEqual({
      kind: 'denied',
      code: 'EACCES',
    });
    const message = deniedFileMessage(file, 'EACCES');
    expect(message).toBe(
      `The cache file ${file} cannot be read (permission denied, EACCES), so placeport will not write over it: give another --cache-file (or --no-cache), or make that file yours (it may have been written by placeport run as another user, with sudo).`,
    );
    const cache = new MemoryPlaceCache();
    await cache.set('cid:1', { coordinates: { lat: 1, lng: 2 }, placeId: undefined });
    await expect(saveCacheFile(file, cache)).rejects.toThrow(message);
    expect(await readFile(file, 'utf8')).toBe(held);
  });
});
