import { zipSync, type Zippable } from 'fflate';

/**
 * The modification time stamped on every entry. Built from local-time parts because ZIP stores
 * local (DOS) time: this way the bytes are the same in every time zone.
 */
export function fixedMtime(): Date {
  return new Date(2024, 4, 1, 12, 0, 0);
}

/** MS-DOS directory attribute, set on directory entries as archivers do. */
const DIRECTORY_ATTRIBUTE = 0x10;

/** The compression level of generated archives: fastest, since tests care about content, not size. */
export const ARCHIVE_LEVEL = 1;

/** The archive and its entry names in order. */
export interface BuiltArchive {
  zip: Uint8Array;
  entries: string[];
}

/**
 * Writes a ZIP holding `files` in order, each preceded by directory entries (`Takeout/`,
 * `Takeout/Saved/`) for folders not yet written, as Takeout's archives have them.
 */
export function buildArchive(files: ReadonlyMap<string, Uint8Array>): BuiltArchive {
  const mtime = fixedMtime();
  const zippable: Zippable = {};
  const addDirectory = (dir: string) => {
    if (!(dir in zippable))
      zippable[dir] = [new Uint8Array(0), { attrs: DIRECTORY_ATTRIBUTE, level: 0 }];
  };
  for (const [path, bytes] of files) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) addDirectory(`${parts.slice(0, i).join('/')}/`);
    if (path.endsWith('/')) addDirectory(path);
    else zippable[path] = bytes;
  }
  return {
    zip: zipSync(zippable, { level: ARCHIVE_LEVEL, mtime }),
    entries: Object.keys(zippable),
  };
}
