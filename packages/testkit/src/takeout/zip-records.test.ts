import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { withCompression, withDamagedData, zipRecords } from './zip-records.js';

const FILES = {
  'Takeout/Saved/Café.csv': strToU8('Title,Note,URL,Comment\n'.repeat(50)),
  'Takeout/Saved/Plain.csv': strToU8('Title,Note,URL,Comment\n'),
};

describe('zipRecords', () => {
  it('gives each entry of a ZIP with its declared sizes and where its data is', () => {
    const zip = zipSync(FILES, { level: 6 });
    const records = zipRecords(zip);
    expect(
      records.map(({ name, compression, originalSize }) => [name, compression, originalSize]),
    ).toEqual([
      ['Takeout/Saved/Café.csv', 8, 1150],
      ['Takeout/Saved/Plain.csv', 8, 23],
    ]);
    // The stored entry's data is its text, found where the record says.
    const stored = zipSync(FILES, { level: 0 });
    const [first] = zipRecords(stored);
    expect(new TextDecoder().decode(stored.subarray(first!.data, first!.data + first!.size))).toBe(
      'Title,Note,URL,Comment\n'.repeat(50),
    );
  });

  it('damages one entry, as a reader then finds it', () => {
    const zip = zipSync(FILES, { level: 6 });
    const repacked = withCompression(zip, 'Takeout/Saved/Plain.csv', 12);
    expect(zipRecords(repacked)[1]!.compression).toBe(12);
    expect(() => unzipSync(repacked)).toThrow(/compression type 12/);
    const damaged = withDamagedData(zip, 'Takeout/Saved/Café.csv');
    expect(() => unzipSync(damaged)).toThrow();
    // The other entry is whole, and the archive given is left as it was.
    expect(
      Object.keys(unzipSync(damaged, { filter: (file) => file.name.endsWith('Plain.csv') })),
    ).toEqual(['Takeout/Saved/Plain.csv']);
    expect(Object.keys(unzipSync(zip))).toHaveLength(2);
  });
});
