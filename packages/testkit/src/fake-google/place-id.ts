function readUint64LE(bytes: Buffer, offset: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

/**
 * The CID inside a Places API place id built from a feature id (`ChIJ…`: protobuf `0a 12 09 <hi u64 LE>
 * 11 <lo u64 LE>`, base64url). The fake needs the reverse of the converter's `placeIdFromFtid` to know
 * which place a Places API request is about; undefined for ids of any other shape.
 */
export function cidFromPlaceId(placeId: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{27}$/.test(placeId)) return undefined;
  const bytes = Buffer.from(placeId, 'base64url');
  if (bytes.length !== 20 || bytes[0] !== 0x0a || bytes[1] !== 0x12 || bytes[2] !== 0x09) {
    return undefined;
  }
  if (bytes[11] !== 0x11) return undefined;
  const cid = readUint64LE(bytes, 12);
  return cid > 0n ? cid.toString(10) : undefined;
}

/** The CID in a feature id's low half (`0x<hi>:0x<lo>`). */
export function cidFromFtid(ftid: string): string | undefined {
  const match = /0x[0-9a-f]{1,16}:0x([0-9a-f]{1,16})/i.exec(ftid);
  if (!match) return undefined;
  const cid = BigInt(`0x${match[1]!}`);
  return cid > 0n ? cid.toString(10) : undefined;
}
