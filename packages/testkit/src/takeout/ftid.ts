import { positionForCidWords, type WrittenLatLng } from './coordinates.js';
import type { Random } from './random.js';

/** A generated place identity: its feature id, CID and true position. */
export interface PlaceIdentity {
  /** `0x<16 hex>:0x<16 hex>`, lower case, as Google writes it. */
  ftid: string;
  /** The decimal value of the ftid's low half. */
  cid: string;
  /** Where the place is: what {@link coordinatesForFtid} returns, with its written text. */
  position: WrittenLatLng;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex8(word: number): string {
  const t = HEX_BYTES;
  return `${t[word >>> 24]}${t[(word >>> 16) & 255]}${t[(word >>> 8) & 255]}${t[word & 255]}`;
}

/** A random, valid place identity (non-zero halves). */
export function randomIdentity(random: Random): PlaceIdentity {
  const hiHigh = random.uint32() || 1;
  const hiLow = random.uint32();
  const loHigh = random.uint32();
  const loLow = random.uint32() || 1;
  const ftid = `0x${hex8(hiHigh)}${hex8(hiLow)}:0x${hex8(loHigh)}${hex8(loLow)}`;
  const cid = ((BigInt(loHigh) << 32n) | BigInt(loLow)).toString();
  return { ftid, cid, position: positionForCidWords(loHigh, loLow) };
}
