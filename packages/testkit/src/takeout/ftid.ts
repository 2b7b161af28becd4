import { positionForCidWords, type WrittenLatLng } from './coordinates.js';
import type { Random } from './random.js';
import { s2CellIdFor } from './s2.js';

/** A generated place identity: its feature id, CID and true position. */
export interface PlaceIdentity {
  /**
   * `0x<16 hex>:0x<16 hex>`, lower case. As in Google's own ids, the high half is an S2 cell containing
   * the place (here at level 13 to 16: cells of about 1.2 km down to 150 m), so a plausibility check
   * against that cell accepts the place's true position.
   */
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

/** The S2 levels a generated ftid's cell is drawn from: cells of about 1.2 km down to 150 m. */
const FTID_CELL_LEVELS = [13, 14, 15, 16] as const;

/**
 * A random, valid place identity (non-zero CID). The position is a function of the CID; the high half
 * is the S2 cell holding that position, at a level drawn from {@link FTID_CELL_LEVELS}. It takes two
 * draws for the high half, as when the high half was random, so every other value generated for a
 * seed is what it was.
 */
export function randomIdentity(random: Random): PlaceIdentity {
  const level = FTID_CELL_LEVELS[random.uint32() % FTID_CELL_LEVELS.length] as number;
  random.uint32();
  const loHigh = random.uint32();
  const loLow = random.uint32() || 1;
  const position = positionForCidWords(loHigh, loLow);
  const hi = s2CellIdFor(position, level).toString(16).padStart(16, '0');
  const ftid = `0x${hi}:0x${hex8(loHigh)}${hex8(loLow)}`;
  const cid = ((BigInt(loHigh) << 32n) | BigInt(loLow)).toString();
  return { ftid, cid, position };
}
