/**
 * CRC-32 (ISO-HDLC, the ZIP's and gzip's), four bytes a step with four tables ("slicing by 4"):
 * a ZIP entry's bytes are checked against the CRC its directory declares, so a damaged archive is
 * never read as if it were whole (a changed digit of a pin is a wrong pin).
 */
const TABLES = (() => {
  const tables = Array.from({ length: 4 }, () => new Uint32Array(256));
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[0]![n] = c >>> 0;
  }
  for (let n = 0; n < 256; n += 1) {
    let c = tables[0]![n]!;
    for (let t = 1; t < 4; t += 1) {
      c = tables[0]![c & 0xff]! ^ (c >>> 8);
      tables[t]![n] = c >>> 0;
    }
  }
  return tables;
})();

/** The CRC-32 of `data`. */
export function crc32(data: Uint8Array): number {
  const [t0, t1, t2, t3] = TABLES as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  let crc = 0xffffffff;
  let i = 0;
  const end4 = data.length - (data.length % 4);
  for (; i < end4; i += 4) {
    crc ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    crc = t3[crc & 0xff]! ^ t2[(crc >>> 8) & 0xff]! ^ t1[(crc >>> 16) & 0xff]! ^ t0[crc >>> 24]!;
  }
  for (; i < data.length; i += 1) crc = t0[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
