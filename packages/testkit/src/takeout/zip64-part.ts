/**
 * A part of an export of the whole account, as Takeout splits one (2 GB by default, ZIP64 past
 * 4 GB), for tests of reading a ZIP too large to read whole: written as a sparse file, so it is
 * gigabytes long and uses no disk.
 */
import { open } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';

/** How far into the sparse file the part's lists are written by default: past 4 GB, so ZIP64. */
export const SPARSE_PART_HOLE = 5 * 1024 ** 3;

/**
 * A ZIP64 Takeout part (5 GB long by default), written as a sparse file (no disk used): `files` stored
 * after a hole of `hole` bytes, the directory's sizes and offsets in ZIP64 extra fields, and
 * a ZIP64 end record, as a part past 4 GB has them.
 */
export async function writeSparseZip64Part(
  file: string,
  files: Record<string, string>,
  hole = SPARSE_PART_HOLE,
): Promise<number> {
  const plain = zipSync(
    Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])),
    { level: 0 },
  );
  const view = new DataView(plain.buffer);
  const end = plain.length - 22;
  const count = view.getUint16(end + 10, true);
  const cdStart = view.getUint32(end + 16, true);
  const directory: number[] = [];
  for (let at = cdStart, i = 0; i < count; i += 1) {
    const nameLength = view.getUint16(at + 28, true);
    const header = plain.slice(at, at + 46 + nameLength);
    const headerView = new DataView(header.buffer);
    const size = headerView.getUint32(20, true);
    const original = headerView.getUint32(24, true);
    const offset = headerView.getUint32(42, true);
    for (const field of [20, 24, 42]) headerView.setUint32(field, 0xffffffff, true);
    headerView.setUint16(30, 28, true);
    headerView.setUint16(32, 0, true);
    const extra = new DataView(new ArrayBuffer(28));
    extra.setUint16(0, 1, true);
    extra.setUint16(2, 24, true);
    extra.setBigUint64(4, BigInt(original), true);
    extra.setBigUint64(12, BigInt(size), true);
    extra.setBigUint64(20, BigInt(hole + offset), true);
    directory.push(...header, ...new Uint8Array(extra.buffer));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  const cdOffset = hole + cdStart;
  const zip64End = cdOffset + directory.length;
  const record = new DataView(new ArrayBuffer(56 + 20 + 22));
  record.setUint32(0, 0x06064b50, true);
  record.setBigUint64(4, 44n, true);
  record.setUint16(12, 45, true);
  record.setUint16(14, 45, true);
  record.setBigUint64(24, BigInt(count), true);
  record.setBigUint64(32, BigInt(count), true);
  record.setBigUint64(40, BigInt(directory.length), true);
  record.setBigUint64(48, BigInt(cdOffset), true);
  record.setUint32(56, 0x07064b50, true);
  record.setBigUint64(64, BigInt(zip64End), true);
  record.setUint32(72, 1, true);
  record.setUint32(76, 0x06054b50, true);
  for (const field of [84, 86]) record.setUint16(field, 0xffff, true);
  for (const field of [88, 92]) record.setUint32(field, 0xffffffff, true);
  const tail = new Uint8Array([
    ...plain.subarray(0, cdStart),
    ...directory,
    ...new Uint8Array(record.buffer),
  ]);
  const handle = await open(file, 'w');
  try {
    // The photos of the part, as far as the file system is concerned: a hole.
    await handle.write(new Uint8Array([0x50, 0x4b, 3, 4]), 0, 4, 0);
    await handle.write(tail, 0, tail.length, hole);
  } finally {
    await handle.close();
  }
  return hole + tail.length;
}
