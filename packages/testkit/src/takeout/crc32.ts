/** CRC-32 (IEEE, as in ZIP): slicing-by-8 over bytes, and combination for repeated content. */

const TABLES = (() => {
  const t = new Int32Array(256 * 8);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    for (let s = 1; s < 8; s++) {
      const prev = t[(s - 1) * 256 + i] as number;
      t[s * 256 + i] = (prev >>> 8) ^ (t[prev & 255] as number);
    }
  }
  return t;
})();

/** Continues a CRC-32 (start from 0) over `data`; returns it as an unsigned integer. */
export function crc32(data: Uint8Array, previous = 0): number {
  const t = TABLES;
  let c = ~previous;
  let i = 0;
  const whole = data.length - (data.length % 8);
  for (; i < whole; i += 8) {
    const a =
      c ^
      ((data[i] as number) |
        ((data[i + 1] as number) << 8) |
        ((data[i + 2] as number) << 16) |
        ((data[i + 3] as number) << 24));
    c =
      (t[1792 + (a & 255)] as number) ^
      (t[1536 + ((a >>> 8) & 255)] as number) ^
      (t[1280 + ((a >>> 16) & 255)] as number) ^
      (t[1024 + (a >>> 24)] as number) ^
      (t[768 + (data[i + 4] as number)] as number) ^
      (t[512 + (data[i + 5] as number)] as number) ^
      (t[256 + (data[i + 6] as number)] as number) ^
      (t[data[i + 7] as number] as number);
  }
  for (; i < data.length; i++) c = (t[(c ^ (data[i] as number)) & 255] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** Multiplies a 32×32 GF(2) matrix (one column per bit) by a vector. */
function matrixTimes(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let bit = 0; vector !== 0; bit++, vector >>>= 1) {
    if (vector & 1) sum ^= matrix[bit] as number;
  }
  return sum >>> 0;
}

function matrixSquare(matrix: Uint32Array): Uint32Array<ArrayBuffer> {
  return matrix.map((column) => matrixTimes(matrix, column));
}

/**
 * The CRC-32 of A followed by B from the CRCs of A and B and B's length (zlib's
 * `crc32_combine`): lets a long repeated content be checksummed without reading it.
 */
export function crc32Combine(first: number, second: number, secondLength: number): number {
  if (secondLength <= 0) return first >>> 0;
  let odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let bit = 1; bit < 32; bit++) odd[bit] = 1 << (bit - 1);
  let even = matrixSquare(odd);
  odd = matrixSquare(even);
  let crc = first >>> 0;
  let length = secondLength;
  for (;;) {
    even = matrixSquare(odd);
    if (length % 2 === 1) crc = matrixTimes(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    odd = matrixSquare(even);
    if (length % 2 === 1) crc = matrixTimes(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ second) >>> 0;
}

/** The CRC-32 of a block (`crc`, `length` bytes) repeated `times` times, by doubling. */
export function crc32Repeat(crc: number, length: number, times: number): number {
  let result = 0;
  let block = crc;
  let blockLength = length;
  for (let left = times; left > 0; left = Math.floor(left / 2)) {
    if (left % 2 === 1) result = crc32Combine(result, block, blockLength);
    block = crc32Combine(block, block, blockLength);
    blockLength *= 2;
  }
  return result;
}
