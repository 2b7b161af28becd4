/**
 * Place identities found in Google Maps URLs. Takeout's usual URL carries a feature id ("ftid")
 * `0x<hi>:0x<lo>`; its low half is the place's CID, and the pair converts offline to the Places API
 * place id (`ChIJ…`). Older exports carry the CID directly (`?cid=`, `ludocid=`).
 */

/** The identity of one place as a link names it, all ids agreeing ({@link placeIdsOf}). */
export interface PlaceIds {
  /** `0x<hi>:0x<lo>`, lower case, without leading zeros. */
  ftid?: string;
  /** Decimal CID (the ftid's low half); it does not fit a double. */
  cid?: string;
  /** Places API id, `ChIJ…`. */
  placeId?: string;
}

const FTID_PATTERN = '0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})';
const FTID = new RegExp(FTID_PATTERN, 'i');
const FTIDS = new RegExp(FTID_PATTERN, 'gi');
const INLINE_PLACE_ID = /place_id:(ChIJ[A-Za-z0-9_-]{10,100})/g;
const PLACE_ID = /^ChIJ[A-Za-z0-9_-]{10,100}$/;
const DECIMAL = /^\d{1,20}$/;
const UINT64_MAX = (1n << 64n) - 1n;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function writeUint64LE(bytes: Uint8Array, offset: number, value: bigint): void {
  for (let i = 0; i < 8; i += 1) {
    bytes[offset + i] = Number((value >> BigInt(8 * i)) & 0xffn);
  }
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Normalises an ftid to `0x<hex>:0x<hex>` in lower case, or undefined when the text holds none. */
export function parseFtid(text: string): string | undefined {
  const match = FTID.exec(text);
  return match ? `0x${match[1]!.toLowerCase()}:0x${match[2]!.toLowerCase()}` : undefined;
}

/** The CID (decimal string) carried by an ftid's low half. */
export function cidFromFtid(ftid: string): string | undefined {
  const match = FTID.exec(ftid);
  return match ? BigInt(`0x${match[2]!}`).toString(10) : undefined;
}

/**
 * Converts an ftid to its Places API place id: protobuf bytes `0a 12 09 <hi u64 LE> 11 <lo u64 LE>`,
 * base64url without padding. `0x14e732fd76f0d90d:0xe5415928d6702b47` → `ChIJDdnwdv0y5xQRRytw1ihZQeU`.
 */
export function placeIdFromFtid(ftid: string): string | undefined {
  const match = FTID.exec(ftid);
  if (!match) return undefined;
  const bytes = new Uint8Array(20);
  bytes.set([0x0a, 0x12, 0x09], 0);
  writeUint64LE(bytes, 3, BigInt(`0x${match[1]!}`));
  bytes[11] = 0x11;
  writeUint64LE(bytes, 12, BigInt(`0x${match[2]!}`));
  return base64Url(bytes);
}

function readUint64LE(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

/**
 * The ftid a Places API place id encodes, when it is of the ftid form (20 protobuf bytes
 * `0a 12 09 <hi> 11 <lo>`), the inverse of {@link placeIdFromFtid}; undefined for any other id.
 */
export function ftidFromPlaceId(placeId: string): string | undefined {
  if (!PLACE_ID.test(placeId) || placeId.length !== 27) return undefined;
  let binary: string;
  try {
    binary = atob(placeId.replace(/-/g, '+').replace(/_/g, '/') + '=');
  } catch {
    return undefined;
  }
  if (binary.length !== 20) return undefined;
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  if (bytes[0] !== 0x0a || bytes[1] !== 0x12 || bytes[2] !== 0x09 || bytes[11] !== 0x11) {
    return undefined;
  }
  const hi = readUint64LE(bytes, 3);
  const lo = readUint64LE(bytes, 12);
  if (lo === 0n) return undefined;
  return `0x${hi.toString(16)}:0x${lo.toString(16)}`;
}

/** `0x<hi>:0x<lo>` as two numbers, so `0x0a:0x1` and `0xa:0x01` compare equal. */
function halves(ftid: string): [bigint, bigint] {
  const [hi, lo] = ftid.split(':') as [string, string];
  return [BigInt(hi), BigInt(lo)];
}

/** The canonical text of an ftid: lower case, no leading zeros. */
export function canonicalFtid(ftid: string): string {
  const [hi, lo] = halves(ftid);
  return `0x${hi.toString(16)}:0x${lo.toString(16)}`;
}

/** Whether `ftid` names the place `wanted` asks for: the same ftid, or (no ftid asked) the same CID. */
export function namesPlace(ftid: string, wanted: PlaceIds): boolean {
  const [hi, lo] = halves(ftid);
  if (wanted.ftid) {
    const [wantedHi, wantedLo] = halves(wanted.ftid);
    return hi === wantedHi && lo === wantedLo;
  }
  return wanted.cid !== undefined && lo.toString(10) === wanted.cid;
}

function cidOf(text: string | null): bigint | undefined | 'bad' {
  if (text === null) return undefined;
  if (!DECIMAL.test(text)) return 'bad';
  const value = BigInt(text);
  return value > 0n && value <= UINT64_MAX ? value : 'bad';
}

/**
 * Every place id a link names — ftids anywhere in it, `cid=` / `ludocid=`, `query_place_id=` /
 * `place_id=` / `place_id:` — checked to agree: all CIDs equal (an ftid's low half, a place id's
 * ftid), all ftids equal. `'conflict'` when they do not, or when one is malformed (a link naming one
 * place's CID and another's place id must never be looked up, or one place's answer would be stored
 * under the other's id); undefined when the link names no place.
 */
export function placeIdsOf(link: string): PlaceIds | 'conflict' | undefined {
  const text = decode(link);
  const ftids = new Set<string>();
  const cids = new Set<bigint>();
  const placeIds = new Set<string>();
  for (const match of text.matchAll(FTIDS)) ftids.add(canonicalFtid(`0x${match[1]}:0x${match[2]}`));
  let params: URLSearchParams | undefined;
  try {
    params = new URL(link).searchParams;
  } catch {
    params = undefined;
  }
  // Every value of a repeated parameter (`?cid=1&cid=2` names two places, not the first).
  for (const name of ['cid', 'ludocid']) {
    for (const value of params?.getAll(name) ?? []) {
      const cid = cidOf(value);
      if (cid === 'bad') return 'conflict';
      if (cid !== undefined) cids.add(cid);
    }
  }
  for (const name of ['query_place_id', 'place_id']) {
    for (const given of params?.getAll(name) ?? []) {
      if (!PLACE_ID.test(given)) return 'conflict';
      placeIds.add(given);
    }
  }
  for (const match of text.matchAll(INLINE_PLACE_ID)) placeIds.add(match[1]!);
  for (const placeId of placeIds) {
    const ftid = ftidFromPlaceId(placeId);
    // A place id that is not of the ftid form cannot be checked against the rest.
    if (!ftid)
      return placeIds.size === 1 && ftids.size === 0 && cids.size === 0 ? { placeId } : 'conflict';
    ftids.add(canonicalFtid(ftid));
  }
  if (ftids.size > 1) return 'conflict';
  const [ftid] = ftids;
  if (ftid) cids.add(halves(ftid)[1]);
  if (cids.size > 1) return 'conflict';
  const [cid] = cids;
  if (!ftid && cid === undefined) return undefined;
  return {
    ...(ftid ? { ftid, placeId: placeIdFromFtid(ftid) } : {}),
    ...(cid !== undefined ? { cid: cid.toString(10) } : {}),
  };
}

/**
 * The key of one place, whatever link form named it: its CID when known (ftid, place id and `cid=`
 * agree on it), else its place id. Lookups are sent once per key and cached under it.
 */
export function cacheKeyOf(ids: PlaceIds): string | undefined {
  if (ids.cid) return `cid:${ids.cid}`;
  if (ids.placeId) return `pid:${ids.placeId}`;
  return undefined;
}
