import type { LatLng } from '../takeout/index.js';

/**
 * An S2 cell id decoder (the generator's encoder is `s2CellIdFor` in `takeout/`): a real ftid's high
 * half, read as an S2 cell id (face in the top 3 bits, a Hilbert curve position in the next 60), lands
 * near the place. Tests use it to prove the ftids the fake writes name a cell holding the place. It
 * follows s2geometry with its own lookup tables, apart from the encoder, so each checks the other.
 */

const MAX_SIZE = 2 ** 30;
const SWAP = 1;
const INVERT = 2;
/** The (i bit, j bit) of the child at each Hilbert position, per orientation (S2's kPosToIJ). */
const POS_TO_IJ = [
  [0, 1, 3, 2],
  [0, 2, 3, 1],
  [3, 2, 0, 1],
  [3, 1, 0, 2],
] as const;
/** How the orientation changes on descending into the child at each position. */
const POS_TO_ORIENTATION = [SWAP, 0, 0, INVERT | SWAP] as const;

function faceUvToXyz(face: number, u: number, v: number): [number, number, number] {
  switch (face) {
    case 0:
      return [1, u, v];
    case 1:
      return [-u, 1, v];
    case 2:
      return [-u, -v, 1];
    case 3:
      return [-1, -v, -u];
    case 4:
      return [v, -1, -u];
    default:
      return [v, u, -1];
  }
}

/** S2's quadratic projection from cell space (s in [0, 1]) back to the cube face. */
const stToUv = (s: number): number =>
  s >= 0.5 ? (4 * s * s - 1) / 3 : (1 - 4 * (1 - s) * (1 - s)) / 3;

/**
 * The point `id` names, read as a leaf (all 60 position bits): the centre of a leaf cell, or for a
 * coarser cell id a point next to that cell's centre. Any 64-bit value decodes, as real ftid halves do.
 */
export function s2CellCentre(id: bigint): LatLng {
  const face = Number((id >> 61n) & 7n);
  let orientation = face & SWAP;
  let i = 0;
  let j = 0;
  for (let bit = 29; bit >= 0; bit -= 1) {
    const child = Number((id >> BigInt(2 * bit + 1)) & 3n);
    const ij = POS_TO_IJ[orientation]![child]!;
    i |= (ij >> 1) << bit;
    j |= (ij & 1) << bit;
    orientation ^= POS_TO_ORIENTATION[child]!;
  }
  const [x, y, z] = faceUvToXyz(face, stToUv((i + 0.5) / MAX_SIZE), stToUv((j + 0.5) / MAX_SIZE));
  return {
    lat: (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI,
    lng: (Math.atan2(y, x) * 180) / Math.PI,
  };
}
