/**
 * Place identities found in Google Maps URLs. Takeout's usual URL carries a feature id ("ftid")
 * `0x<hi>:0x<lo>`; its low half is the place's CID, and the pair converts offline to the Places API
 * place id (`ChIJ…`). Older exports carry the CID directly (`?cid=`, `ludocid=`).
 */
export interface PlaceRef {
  /** `0x<hex>:0x<hex>`, lower case. */
  ftid?: string;
  /** The CID as a decimal string (it does not fit a double). */
  cid?: string;
  /** Places API place id, `ChIJ…`. */
  placeId?: string;
}

const FTID = /0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})/i;
const DECIMAL = /^\d{1,20}$/;
const UINT64_MAX = (1n << 64n) - 1n;
const PLACE_ID = /^ChIJ[A-Za-z0-9_-]{10,}$/;

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

function validCid(text: string | null): string | undefined {
  if (!text || !DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value > 0n && value <= UINT64_MAX ? value.toString(10) : undefined;
}

/**
 * Finds the place identity in a Google Maps URL: the ftid (in `data=…!1s0x…:0x…` or `ftid=`), the CID
 * (`?cid=`, `ludocid=`, or from the ftid) and the place id (`query_place_id=`, `place_id:`, or from the ftid).
 * Returns undefined when the URL names no particular place.
 */
export function extractPlaceRef(url: string): PlaceRef | undefined {
  if (!url) return undefined;
  const text = decode(url);
  const ref: PlaceRef = {};
  const ftid = parseFtid(text);
  if (ftid) {
    ref.ftid = ftid;
    ref.cid = cidFromFtid(ftid);
    ref.placeId = placeIdFromFtid(ftid);
  }
  let params: URLSearchParams | undefined;
  try {
    params = new URL(url).searchParams;
  } catch {
    params = undefined;
  }
  if (params) {
    ref.cid ??= validCid(params.get('cid')) ?? validCid(params.get('ludocid'));
    const given = params.get('query_place_id') ?? params.get('place_id');
    if (given && PLACE_ID.test(given)) ref.placeId ??= given;
  }
  const inline = /place_id:(ChIJ[A-Za-z0-9_-]{10,})/.exec(text);
  if (inline) ref.placeId ??= inline[1];
  return ref.ftid || ref.cid || ref.placeId ? ref : undefined;
}

/**
 * A stable key for one place, whatever URL form named it: the CID when known (an ftid and `?cid=` of the
 * same place agree), otherwise the place id. Used to send each distinct place once and to cache by place.
 */
export function placeKey(ref: PlaceRef | undefined): string | undefined {
  if (!ref) return undefined;
  if (ref.cid) return `cid:${ref.cid}`;
  if (ref.placeId) return `pid:${ref.placeId}`;
  return undefined;
}
