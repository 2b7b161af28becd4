import { ftidFromPlaceId, placeIdFromFtid } from '@placeport/converter/internal';

/** The identity of one place as a link names it, all ids agreeing. */
export interface PlaceIds {
  /** `0x<hi>:0x<lo>`, lower case, without leading zeros. */
  ftid?: string;
  /** Decimal CID (the ftid's low half). */
  cid?: string;
  /** Places API id, `ChIJ…`. */
  placeId?: string;
}

const FTID = /0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})/gi;
const INLINE_PLACE_ID = /place_id:(ChIJ[A-Za-z0-9_-]{10,100})/g;
const PLACE_ID = /^ChIJ[A-Za-z0-9_-]{10,100}$/;
const DECIMAL = /^\d{1,20}$/;
const UINT64_MAX = (1n << 64n) - 1n;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
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
 * ftid), all ftids equal. `'conflict'` when they do not (a link naming one place's CID and another's
 * place id must never be looked up, or one place's answer would be stored under the other's id);
 * undefined when the link names no place.
 */
export function placeIdsOf(link: string): PlaceIds | 'conflict' | undefined {
  const text = decoded(link);
  const ftids = new Set<string>();
  const cids = new Set<bigint>();
  const placeIds = new Set<string>();
  for (const match of text.matchAll(FTID)) ftids.add(canonicalFtid(`0x${match[1]}:0x${match[2]}`));
  let params: URLSearchParams | undefined;
  try {
    params = new URL(link).searchParams;
  } catch {
    params = undefined;
  }
  for (const name of ['cid', 'ludocid']) {
    const cid = cidOf(params?.get(name) ?? null);
    if (cid === 'bad') return 'conflict';
    if (cid !== undefined) cids.add(cid);
  }
  for (const name of ['query_place_id', 'place_id']) {
    const given = params?.get(name);
    if (given !== undefined && given !== null) {
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

/** The cache key of a place: its CID when known (ftid, place id and `cid=` agree on it), else its place id. */
export function cacheKeyOf(ids: PlaceIds): string | undefined {
  if (ids.cid) return `cid:${ids.cid}`;
  if (ids.placeId) return `pid:${ids.placeId}`;
  return undefined;
}
