/**
 * makeFolder, the CLI's `mkdir -p`: Node's recursive mkdir never returns where a file system
 * answers ENOENT for a folder whose parent exists (Linux's /proc), and `--out` there hung a run.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFolder } from '../src/folders.js';
import { tempFolder } from './support.js';

describe('makeFolder', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('folders'));
  });
  afterAll(async () => remove());

  it('makes a folder and the missing ones above it, and takes one that exists', async () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    await makeFolder(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await makeFolder(deep);
    await mkdir(path.join(dir, 'x'));
    await makeFolder(path.join(dir, 'x'));
  });

  it('refuses a file in the folder’s place, or above it', async () => {
    const file = path.join(dir, 'file');
    await writeFile(file, 'mine');
    await expect(makeFolder(file)).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(makeFolder(path.join(file, 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.runIf(process.platform === 'linux')(
    'ends with ENOENT where the file system will not make a folder (/proc)',
    async () => {
      await expect(makeFolder('/proc/placeport-test/out')).rejects.toMatchObject({
        code: 'ENOENT',
      });
    },
  );
});
