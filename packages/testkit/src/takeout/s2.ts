import type { LatLng } from './coordinates.js';

/**
 * An S2 cell id encoder, so generated ftids carry what real ones do: in their high half, the id of an
 * S2 cell containing the place (testing.md, "Real Google pages"). It follows s2geometry's reference
 * (lat/lng → XYZ → face/UV → quadratic ST → leaf IJ → Hilbert position). It is written apart from the
 * converter's decoder on purpose: the testkit must not depend on the converter, and it walks the
 * Hilbert curve one level at a time instead of through the decoder's lookup table, so each checks the
 * other.
 */

/** The finest S2 level: leaf cells of about 1 cm. */
const S2_MAX_LEVEL = 30;

const SWAP_MASK = 1;
const INVERT_MASK = 2;
const MAX_SIZE = 2 ** S2_MAX_LEVEL;
/** Levels whose Hilbert steps fit one exact 30-bit number. */
const LEVELS_PER_WORD = 15;

/** For each orientation, the Hilbert step (0–3) that visits the quadrant `(i << 1) | j`. */
const IJ_TO_POS = [
  [0, 1, 3, 2],
  [0, 3, 1, 2],
  [2, 3, 1, 0],
  [2, 1, 3, 0],
] as const;
/** How the curve's orientation changes inside the child visited at each step. */
const STEP_ORIENTATION = [SWAP_MASK, 0, 0, INVERT_MASK | SWAP_MASK] as const;

type Quadrant = 0 | 1 | 2 | 3;

/** The cube face a direction points at (its largest component), and where on that face (u, v). */
function faceUV(point: LatLng): { face: number; u: number; v: number } {
  const lat = (point.lat * Math.PI) / 180;
  const lng = (point.lng * Math.PI) / 180;
  const x = Math.cos(lat) * Math.cos(lng);
  const y = Math.cos(lat) * Math.sin(lng);
  const z = Math.sin(lat);
  const [ax, ay, az] = [Math.abs(x), Math.abs(y), Math.abs(z)];
  const axis = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  const face = axis + ([x, y, z][axis]! < 0 ? 3 : 0);
  switch (face) {
    case 0:
      return { face, u: y / x, v: z / x };
    case 1:
      return { face, u: -x / y, v: z / y };
    case 2:
      return { face, u: -x / z, v: -y / z };
    case 3:
      return { face, u: z / x, v: y / x };
    case 4:
      return { face, u: z / y, v: -x / y };
    default:
      return { face, u: -y / z, v: -x / z };
  }
}

/** The inverse of the quadratic projection: cube face (u in [-1, 1]) to cell space (s in [0, 1]). */
function uvToST(u: number): number {
  return u >= 0 ? 0.5 * Math.sqrt(1 + 3 * u) : 1 - 0.5 * Math.sqrt(1 - 3 * u);
}

/** The leaf-cell index (0 to 2^30 − 1) holding cell-space coordinate `s`. */
function stToIJ(s: number): number {
  return Math.min(MAX_SIZE - 1, Math.max(0, Math.floor(MAX_SIZE * s)));
}

/**
 * The id of the S2 cell at `level` (0–30) that contains `point`: 3 bits of face, 2 bits per level of
 * Hilbert position, then a 1 bit marking the level. Deterministic; a point on a cell edge goes to one
 * of the cells sharing it, as in s2geometry.
 */
export function s2CellIdFor(point: LatLng, level: number): bigint {
  if (!Number.isInteger(level) || level < 0 || level > S2_MAX_LEVEL) {
    throw new RangeError(`S2 level must be an integer from 0 to 30, got ${level}`);
  }
  const { face, u, v } = faceUV(point);
  const i = stToIJ(uvToST(u));
  const j = stToIJ(uvToST(v));
  let orientation = face & SWAP_MASK;
  const words = [0, 0];
  for (let l = 1; l <= level; l++) {
    const bit = S2_MAX_LEVEL - l;
    const quadrant = ((((i >>> bit) & 1) << 1) | ((j >>> bit) & 1)) as Quadrant;
    const step = IJ_TO_POS[orientation as Quadrant][quadrant];
    const word = l <= LEVELS_PER_WORD ? 0 : 1;
    words[word] = words[word]! * 4 + step;
    orientation ^= STEP_ORIENTATION[step];
  }
  const lowLevels = BigInt(2 * Math.max(0, level - LEVELS_PER_WORD));
  const position = (BigInt(words[0]!) << lowLevels) | BigInt(words[1]!);
  const trailing = BigInt(2 * (S2_MAX_LEVEL - level));
  return (BigInt(face) << 61n) | (((position << 1n) | 1n) << trailing);
}

/**
 * The level of an S2 cell id, read from its lowest 1 bit (at bit 2 × (30 − level)), so a test can
 * re-encode a place at the level of a given id. Throws when the id marks no level.
 */
export function s2LevelOf(id: bigint): number {
  const bit = id > 0n && id < 1n << 64n ? (id & -id).toString(2).length - 1 : -1;
  if (bit < 0 || bit % 2 !== 0 || bit > 2 * S2_MAX_LEVEL) {
    throw new RangeError(`not an S2 cell id: 0x${id.toString(16)}`);
  }
  return S2_MAX_LEVEL - bit / 2;
}
