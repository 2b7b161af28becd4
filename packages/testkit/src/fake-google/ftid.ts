import { coordinatesForCid, s2CellIdFor, type LatLng } from '../takeout/index.js';

const hex16 = (value: bigint): string => value.toString(16).padStart(16, '0');

/**
 * The ftid (`0x<hi>:0x<lo>`, 16 lower-case hex digits each) the fake writes for a place looked up
 * by CID alone. The low half is the CID; the high half is the S2 cell holding where the place is
 * (`at`, by default the generator's {@link coordinatesForCid}), at level 13 to 16 (cells of about
 * 1.2 km down to 150 m) chosen by the CID, as the Takeout generator makes its ftids, so a resolver's
 * plausibility check against the cell accepts the place.
 */
export function ftidForCid(cid: string | bigint, at: LatLng = coordinatesForCid(cid)): string {
  const level = 13 + Number(BigInt(cid) % 4n);
  return `0x${hex16(s2CellIdFor(at, level))}:0x${hex16(BigInt(cid))}`;
}

const FTID = /0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16}(?![0-9a-f])/i;

/** The first ftid in `text`, lower-cased as Google writes it; undefined if there is none. */
export function findFtid(text: string): string | undefined {
  return FTID.exec(text)?.[0].toLowerCase();
}
