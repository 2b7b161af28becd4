/** Combination of CRC-32s (IEEE, as in ZIP), for repeated content; `node:zlib` gives the CRC of bytes. */

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
