/**
 * Splits `items` into the fewest parts of at most `maxPerPart` items, as even as possible: sizes
 * differ by at most one and the earlier parts are the bigger ones (2,500 places at 2,000 a layer are
 * 1,250 + 1,250, not 2,000 + 500; 4,001 are 1,334 + 1,334 + 1,333). Product.md asks for even parts so
 * no My Maps layer is a stub. No items give one empty part, so a caller always has a first part.
 * Order is kept; the parts are new arrays sharing the items. A fractional limit counts as its floor and
 * `Infinity` means one part.
 *
 * @throws RangeError when `maxPerPart` is below 1 or not a number: no split could honour it.
 */
export function splitEvenly<T>(items: readonly T[], maxPerPart: number): T[][] {
  if (!(maxPerPart >= 1)) {
    throw new RangeError(`maxPerPart must be at least 1, got ${String(maxPerPart)}`);
  }
  const parts = Math.max(1, Math.ceil(items.length / Math.floor(maxPerPart)));
  const smaller = Math.floor(items.length / parts);
  const bigger = items.length % parts;
  const out: T[][] = [];
  let start = 0;
  for (let part = 0; part < parts; part += 1) {
    const size = smaller + (part < bigger ? 1 : 0);
    out.push(items.slice(start, start + size));
    start += size;
  }
  return out;
}
