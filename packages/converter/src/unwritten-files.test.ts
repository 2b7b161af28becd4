import { generateTakeout } from '@placeport/testkit';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS } from './core/formats/output.js';
import { convertArchive, listFiles, unwrittenListFiles } from './library.js';

/** The pieces of a file put back together: text as one string, bytes as one array. */
function joined(chunks: Iterable<string | Uint8Array>): string | Uint8Array {
  const pieces = Array.from(chunks);
  if (pieces.every((piece) => typeof piece === 'string')) return pieces.join('');
  expect(pieces).toHaveLength(1);
  return pieces[0]!;
}

describe('unwrittenListFiles', () => {
  // A list split into parts, and one with a description (a KML <Folder>).
  const takeout = generateTakeout({
    seed: 19,
    coordinatesInUrls: true,
    lists: [
      { name: 'Want to go', places: 1207 },
      { name: 'Food', places: 5, description: 'Lunch near the office' },
    ],
  });

  it('name every file as listFiles does, and write the same content once the chunks are pulled', async () => {
    const run = await convertArchive(takeout.zip);
    for (const list of run.lists) {
      for (const format of OUTPUT_FORMATS) {
        const written = listFiles(list, format, 500);
        const unwritten = unwrittenListFiles(list, format, 500);
        expect(unwritten.map(({ chunks: _chunks, ...part }) => part)).toEqual(
          written.map(({ data: _data, ...part }) => part),
        );
        unwritten.forEach((file, i) => expect(joined(file.chunks())).toEqual(written[i]!.data));
      }
    }
  });
});
