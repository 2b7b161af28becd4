import { mix32, type Random } from './random.js';

/** A position in degrees, latitude first, as the converter reports it. */
export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * A position together with the exact text written into a URL. `lat`/`lng` are `Number(text)`, so
 * a converter that reads the text back gets exactly these numbers.
 */
export interface WrittenLatLng extends LatLng {
  latText: string;
  lngText: string;
}

/** Generated latitudes stay inside ±this many degrees: where people actually save places. */
export const MAX_GENERATED_LATITUDE = 85;

/** Writes `units` × 10^-decimals as a fixed-point decimal, without float rounding surprises. */
function formatFixed(units: number, decimals: number): string {
  const scale = 10 ** decimals;
  const abs = Math.abs(units);
  const whole = Math.floor(abs / scale);
  const fraction = String(abs - whole * scale).padStart(decimals, '0');
  return `${units < 0 ? '-' : ''}${whole}.${fraction}`;
}

/** Builds a written position from integer units of 10^-decimals degrees. */
export function writtenFromUnits(
  latUnits: number,
  lngUnits: number,
  decimals: number,
): WrittenLatLng {
  const latText = formatFixed(latUnits, decimals);
  const lngText = formatFixed(lngUnits, decimals);
  return { lat: Number(latText), lng: Number(lngText), latText, lngText };
}

/**
 * Maps two 32-bit words to a valid position with 6 or 7 decimals, never (0, 0). Latitude in
 * [-85, 85], longitude in [-180, 180).
 */
function positionFromWords(a: number, b: number, c: number): WrittenLatLng {
  const decimals = (c & 1) === 0 ? 6 : 7;
  const scale = 10 ** decimals;
  let latUnits = (a % (2 * MAX_GENERATED_LATITUDE * scale + 1)) - MAX_GENERATED_LATITUDE * scale;
  const lngUnits = (b % (360 * scale)) - 180 * scale;
  if (latUnits === 0 && lngUnits === 0) latUnits = 1;
  return writtenFromUnits(latUnits, lngUnits, decimals);
}

/** A random position for places that have no id (dropped pins). */
export function randomPosition(random: Random): WrittenLatLng {
  return positionFromWords(random.uint32(), random.uint32(), random.uint32());
}

/**
 * The position of the place whose CID is made of these two 32-bit words (high, low). This is the
 * single source of truth for where a generated place "really" is.
 */
export function positionForCidWords(high: number, low: number): WrittenLatLng {
  const a = mix32(low ^ mix32(high ^ 0x3c6ef372));
  const b = mix32(a ^ 0xa54ff53a);
  const c = mix32(b ^ high);
  return positionFromWords(a, b, c);
}

const MAX_UINT64 = (1n << 64n) - 1n;

/** Splits a CID into its 32-bit words, refusing zero and values wider than 64 bits. */
function cidWords(cid: bigint): [number, number] {
  if (cid <= 0n || cid > MAX_UINT64) throw new RangeError(`CID out of range: ${cid}`);
  return [Number(cid >> 32n), Number(cid & 0xffffffffn)];
}

/**
 * Where the place with this CID (decimal string or bigint) is, as a resolver would find it online.
 * Deterministic, valid, never (0, 0). The fake Google upstream answers `?cid=`/`ludocid=` lookups
 * with it; the same numbers as {@link coordinatesForFtid} for the ftid carrying this CID.
 */
export function coordinatesForCid(cid: string | bigint): LatLng {
  if (typeof cid === 'string' && !/^\d{1,20}$/.test(cid)) {
    throw new RangeError(`CID must be a decimal integer, got ${JSON.stringify(cid)}`);
  }
  const [high, low] = cidWords(BigInt(cid));
  const { lat, lng } = positionForCidWords(high, low);
  return { lat, lng };
}

const FTID_PATTERN = /^0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})$/i;

/**
 * Where the place with this feature id (`0x<hex>:0x<hex>`) is, as a resolver (place page or
 * Places API) would find it online. It depends only on the CID (the low half), so a place looked
 * up by ftid, CID or place id lands on the same pin. Throws on a malformed ftid or a zero CID.
 */
export function coordinatesForFtid(ftid: string): LatLng {
  const match = FTID_PATTERN.exec(ftid);
  if (!match) throw new RangeError(`not a feature id: ${JSON.stringify(ftid)}`);
  return coordinatesForCid(BigInt(`0x${match[2] as string}`));
}
