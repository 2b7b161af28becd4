/**
 * A ZIP's central directory as records (not ZIP64: as fflate writes a small archive), and copies of
 * an archive damaged as real ones get damaged, for tests of what a reader says of them.
 */

/** One entry: its name, where its directory record and its data start, and what it declares. */
export interface ZipRecord {
  name: string;
  /** Offset of its central directory record. */
  record: number;
  /** 0 stored, 8 DEFLATE, 12 bzip2, ... */
  compression: number;
  /** Compressed size. */
  size: number;
  originalSize: number;
  /** Offset of its data, after its local header. */
  data: number;
}

const decoder = new TextDecoder();

/** The entries of `zip`, in the order of its directory. */
export function zipRecords(zip: Uint8Array): ZipRecord[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  if (view.getUint32(end, true) !== 0x06054b50) {
    throw new RangeError('zipRecords reads a ZIP without a trailing comment');
  }
  const records: ZipRecord[] = [];
  for (let at = view.getUint32(end + 16, true), i = view.getUint16(end + 10, true); i > 0; i -= 1) {
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    records.push({
      name: decoder.decode(zip.subarray(at + 46, at + 46 + nameLength)),
      record: at,
      compression: view.getUint16(at + 10, true),
      size: view.getUint32(at + 20, true),
      originalSize: view.getUint32(at + 24, true),
      data: local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return records;
}

function recordOf(zip: Uint8Array, name: string): ZipRecord {
  const record = zipRecords(zip).find((entry) => entry.name === name);
  if (!record) throw new RangeError(`No entry ${name} in the ZIP`);
  return record;
}

/**
 * A copy of `zip` whose directory says the entry `name` is compressed by `method` (12: bzip2), as
 * when a tool other than Takeout zipped the export again; its bytes are left as they are.
 */
export function withCompression(zip: Uint8Array, name: string, method: number): Uint8Array {
  const copy = zip.slice();
  new DataView(copy.buffer).setUint16(recordOf(zip, name).record + 10, method, true);
  return copy;
}

/**
 * A copy of `zip` whose entry `name` (DEFLATE) cannot be inflated: its first block is marked with
 * DEFLATE's reserved block type, as a damaged download may have it.
 */
export function withDamagedData(zip: Uint8Array, name: string): Uint8Array {
  const record = recordOf(zip, name);
  if (record.compression !== 8) throw new RangeError(`${name} is not compressed by DEFLATE`);
  const copy = zip.slice();
  copy[record.data] = 0x07;
  return copy;
}
