import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Makes `folder` and the folders above it that are missing, as `mkdir -p` does, and always ends.
 * Node's own `mkdir(folder, { recursive: true })` loops for ever where a file system refuses to
 * make a folder in a parent that exists by answering ENOENT (under `/proc`, for one): here that
 * ENOENT is the answer. A folder that exists already is fine; a file in its place is refused.
 */
export async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EEXIST') {
      if ((await stat(folder)).isDirectory()) return;
      throw error;
    }
    const parent = path.dirname(folder);
    if (code !== 'ENOENT' || parent === folder) throw error;
    // ENOENT with its parent there: the file system will not make it. Else the parent first, once.
    const parentThere = await stat(parent).then(
      () => true,
      () => false,
    );
    if (parentThere) throw error;
    await makeFolder(parent);
    await mkdir(folder).catch((again: unknown) => {
      if (codeOf(again) !== 'EEXIST') throw again;
    });
  }
}
