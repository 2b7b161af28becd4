import type { LatLng } from './types.js';

/**
 * S2 cells, decoded from the high half of a Google feature id (`0x<hi>:0x<lo>`). Google writes an S2
 * cell id near the place there (product.md, "Coordinates"), which bounds where an answer for that
 * place can plausibly lie. The geometry follows s2geometry's reference (S2CellId, s2coords): the
 * Hilbert lookup table, the quadratic ST→UV projection, face/UV→XYZ→lat/lng. The 64-bit id is
 * handled as two unsigned 32-bit words, so decoding needs no BigInt.
 */

/** What an ftid's S2 cell says about where its place is. */
export interface S2CellBounds {
  /** The cell's centre (the point where it divides into its four children). */
  centre: LatLng;
  /** Subdivision level, 0 (a cube face) to 30 (a leaf cell of about 1 cm). */
  level: number;
  /** Distance from the centre to the cell's farthest vertex: every point of the cell is this close. */
  radiusMetres: number;
}

/** Mean Earth radius (IUGG), as {@link distanceMetres} uses it. */
const EARTH_RADIUS_METRES = 6_371_008.8;

/**
 * A weak answer (one that does not come from the place's own pin) is used only when it lies within
 * this distance of the ftid's S2 cell (product.md, "Coordinates" and "Resolution"). Real ftids put
 * their cell's centre within 6.3 km of the place (median 1.8 km, 31 places), so 20 km keeps every
 * real place with a wide margin while refusing an answer from another town or another continent.
 */
export const WEAK_EVIDENCE_MAX_METRES = 20_000;

const MAX_LEVEL = 30;
const LOOKUP_BITS = 4;
const SWAP_MASK = 1;
const INVERT_MASK = 2;
/** Leaf cells per face edge (2^30). */
const MAX_SIZE = 2 ** MAX_LEVEL;

type Quadrant = 0 | 1 | 2 | 3;

/** For each orientation, the (i, j) quadrant, as `(i << 1) | j`, visited at each Hilbert step. */
const POS_TO_IJ = [
  [0, 1, 3, 2],
  [0, 2, 3, 1],
  [3, 2, 0, 1],
  [3, 1, 0, 2],
] as const;
/** How the curve's orientation changes inside the child visited at each step. */
const POS_TO_ORIENTATION = [SWAP_MASK, 0, 0, INVERT_MASK | SWAP_MASK] as const;

/**
 * Maps `pppppppp oo` (8 bits of Hilbert position, 2 of orientation) to `iiii jjjj oo` (4 bits of i,
 * 4 of j, the orientation after them). Built once, when a cell is first read: building it at module
 * load cost every CLI run ~2 ms, most of which read no cell.
 */
let lookupIJ: Uint16Array | undefined;

function buildLookupIJ(): Uint16Array {
  const table = new Uint16Array(1 << (2 * LOOKUP_BITS + 2));
  for (let start = 0; start < 4; start++) {
    for (let pos = 0; pos < 1 << (2 * LOOKUP_BITS); pos++) {
      let orientation = start;
      let i = 0;
      let j = 0;
      for (let level = LOOKUP_BITS - 1; level >= 0; level--) {
        const step = ((pos >> (2 * level)) & 3) as Quadrant;
        const ij = POS_TO_IJ[orientation as Quadrant][step];
        i = (i << 1) | (ij >> 1);
        j = (j << 1) | (ij & 1);
        orientation ^= POS_TO_ORIENTATION[step];
      }
      table[(pos << 2) | start] = (((i << LOOKUP_BITS) | j) << 2) | orientation;
    }
  }
  return table;
}

const FTID = /^0x([0-9a-f]{1,16}):0x[0-9a-f]{1,16}$/i;

/** Trailing zero bits of a non-zero 32-bit word. */
function trailingZeros(word: number): number {
  return 31 - Math.clz32(word & -word);
}

/** `width` (≤ 8) bits of the 64-bit id `high:low`, starting at bit `shift`. */
function bitsAt(high: number, low: number, shift: number, width: number): number {
  const mask = (1 << width) - 1;
  if (shift >= 32) return (high >>> (shift - 32)) & mask;
  if (shift + width <= 32) return (low >>> shift) & mask;
  return ((low >>> shift) | (high << (32 - shift))) & mask;
}

/**
 * The leaf-cell coordinates (i, j) of the Hilbert position in the id, 4 levels per table look-up
 * (s2geometry's `ToFaceIJOrientation`). The first look-up takes only the 2 levels left after the face.
 */
function faceIJ(face: number, high: number, low: number): { i: number; j: number } {
  const table = (lookupIJ ??= buildLookupIJ());
  let orientation = face & SWAP_MASK;
  let i = 0;
  let j = 0;
  for (let k = 7; k >= 0; k--) {
    const width = k === 7 ? 2 * (MAX_LEVEL - 7 * LOOKUP_BITS) : 2 * LOOKUP_BITS;
    const entry = table[(bitsAt(high, low, k * 2 * LOOKUP_BITS + 1, width) << 2) | orientation]!;
    i = (i << LOOKUP_BITS) | (entry >> (LOOKUP_BITS + 2));
    j = (j << LOOKUP_BITS) | ((entry >> 2) & ((1 << LOOKUP_BITS) - 1));
    orientation = entry & (SWAP_MASK | INVERT_MASK);
  }
  return { i, j };
}

/** The quadratic projection from cell space (s in [0, 1]) to the cube face (u in [-1, 1]). */
function stToUV(s: number): number {
  return s >= 0.5 ? (4 * s * s - 1) / 3 : (1 - 4 * (1 - s) * (1 - s)) / 3;
}

/** The point of cube face `face` at (u, v), as a latitude and longitude. */
function faceUVToLatLng(face: number, u: number, v: number): LatLng {
  let x: number;
  let y: number;
  let z: number;
  switch (face) {
    case 0:
      [x, y, z] = [1, u, v];
      break;
    case 1:
      [x, y, z] = [-u, 1, v];
      break;
    case 2:
      [x, y, z] = [-u, -v, 1];
      break;
    case 3:
      [x, y, z] = [-1, -v, -u];
      break;
    case 4:
      [x, y, z] = [v, -1, -u];
      break;
    default:
      [x, y, z] = [v, u, -1];
  }
  const degrees = 180 / Math.PI;
  return {
    lat: Math.atan2(z, Math.sqrt(x * x + y * y)) * degrees,
    lng: Math.atan2(y, x) * degrees,
  };
}

/**
 * Great-circle distance in metres (haversine on a sphere of the mean Earth radius, 6,371,008.8 m).
 * Good to about 0.5 % against the ellipsoid, far finer than any bound it is used for.
 */
export function distanceMetres(a: LatLng, b: LatLng): number {
  const radians = Math.PI / 180;
  const dLat = (b.lat - a.lat) * radians;
  const dLng = (b.lng - a.lng) * radians;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * radians) * Math.cos(b.lat * radians) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Decodes the high half of an ftid as an S2 cell: its centre, level and radius. Undefined when the
 * text is not an ftid (`0x<1–16 hex>:0x<1–16 hex>`) or the half is not a valid cell id: face above 5,
 * or a lowest 1 bit that marks no level (it must sit at an even bit, 0 to 60; zero has none).
 */
export function s2CellOfFtid(ftid: string): S2CellBounds | undefined {
  const hex = FTID.exec(ftid)?.[1];
  if (hex === undefined) return undefined;
  const padded = hex.padStart(16, '0');
  const high = Number.parseInt(padded.slice(0, 8), 16);
  const low = Number.parseInt(padded.slice(8), 16);
  const face = high >>> 29;
  if (face > 5 || (high === 0 && low === 0)) return undefined;
  const lowestBit = low !== 0 ? trailingZeros(low) : 32 + trailingZeros(high);
  if (lowestBit % 2 !== 0 || lowestBit > 2 * MAX_LEVEL) return undefined;
  const level = MAX_LEVEL - lowestBit / 2;

  const { i, j } = faceIJ(face, high, low);
  const size = 2 ** (MAX_LEVEL - level);
  const iLo = i - (i % size);
  const jLo = j - (j % size);
  const centre = faceUVToLatLng(
    face,
    stToUV((iLo + size / 2) / MAX_SIZE),
    stToUV((jLo + size / 2) / MAX_SIZE),
  );
  let radiusMetres = 0;
  for (const iEdge of [iLo, iLo + size]) {
    for (const jEdge of [jLo, jLo + size]) {
      const vertex = faceUVToLatLng(face, stToUV(iEdge / MAX_SIZE), stToUV(jEdge / MAX_SIZE));
      radiusMetres = Math.max(radiusMetres, distanceMetres(centre, vertex));
    }
  }
  return { centre, level, radiusMetres };
}

/**
 * Whether `point` can be where the ftid's place is: within {@link WEAK_EVIDENCE_MAX_METRES} of the
 * ftid's S2 cell (measured to its centre, with the cell's radius allowed on top). False when the
 * ftid carries no valid cell, so a weak answer is never taken on trust.
 */
export function isPlausibleForFtid(ftid: string, point: LatLng): boolean {
  const cell = s2CellOfFtid(ftid);
  if (!cell) return false;
  return distanceMetres(cell.centre, point) <= WEAK_EVIDENCE_MAX_METRES + cell.radiusMetres;
}
