/**
 * `--list`: the lists a run converts, picked from the archive by the converter, with a name that
 * several lists share turned into wrong usage. Apart from usage.ts, so that parsing the command line
 * (and `--help`) never loads the converter's library.
 */
import { ConverterError } from '@placeport/converter';
import { pickLists as pickListsOf } from '@placeport/converter/internal';
import { UsageError } from './usage.js';

/**
 * The lists `--list` names, in that order: each by its path in the archive, else the one list with
 * that name. Names repeat across folders (product.md), so a name that several lists share is wrong
 * usage, refused with their paths, any of which selects exactly. A name that matches nothing is bad
 * input (ConverterError `unknown-list`).
 */
export function pickLists<T extends { path: string; name: string }>(
  lists: readonly T[],
  wanted: readonly string[],
): T[] {
  try {
    return pickListsOf(lists, wanted);
  } catch (error) {
    if (!(error instanceof ConverterError) || error.code !== 'ambiguous-list') throw error;
    const name = wanted.find((want) => lists.filter((list) => list.name === want).length > 1)!;
    const named = lists.filter((list) => list.name === name);
    throw new UsageError(
      `--list "${name}" names ${named.length} lists in this archive; give its path instead:\n${named.map((list) => `  ${list.path}`).join('\n')}`,
    );
  }
}
