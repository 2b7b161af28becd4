/**
 * Bodies that make a careless page reader slow or wrong, for tests that a resolver scans untrusted
 * HTML in linear time and within a byte bound (testing.md: `/<meta\b[^>]*>/g` over repeated `<meta `
 * is quadratic). Serve one with `setPlace(cid, { body })`.
 */
export type AdversarialPageName =
  | 'meta-without-close'
  | 'unclosed-quotes-in-meta'
  | 'title-never-closed'
  | 'deep-nesting'
  | 'endless-camera-digits'
  | 'place-data-prefix-repeated'
  | 'ftid-prefix-repeated'
  | 'static-maps-repeated'
  | 'entities-in-meta-repeated';

/** What each body starts with, and the unit repeated after it. All ASCII: one char, one byte. */
const RECIPES: Readonly<Record<AdversarialPageName, { prefix: string; unit: string }>> = {
  'meta-without-close': { prefix: '<!DOCTYPE html><html><head>', unit: '<meta ' },
  'unclosed-quotes-in-meta': {
    prefix: '<!DOCTYPE html><html><head><meta property="og:image" content="',
    unit: `staticmap?center=1%2C2&markers="x' y="z '`,
  },
  'title-never-closed': { prefix: '<!DOCTYPE html><html><head><title>', unit: 'Google Maps ' },
  'deep-nesting': { prefix: '<!DOCTYPE html><html><body>', unit: '<div>' },
  'endless-camera-digits': {
    prefix: '<!DOCTYPE html><html><body><script>window.APP_INITIALIZATION_STATE=[[[',
    unit: '1234567890',
  },
  'place-data-prefix-repeated': {
    prefix: '<!DOCTYPE html><html><body><script>window.APP_INITIALIZATION_STATE=[',
    unit: '[null,null,',
  },
  'ftid-prefix-repeated': {
    prefix:
      '<!DOCTYPE html><html><body><script>window.APP_INITIALIZATION_STATE=[[null,null,1.5,2.5],',
    unit: '"0x',
  },
  // Whole tags, each a static map to parse (tens of thousands: over 100 ms read one by one).
  'static-maps-repeated': {
    prefix: '<!DOCTYPE html><html><head>',
    unit: '<meta itemprop="image" content="https://x/staticmap?center=a">',
  },
  // Whole tags of just under 2 KB, every character of their value an entity to decode.
  'entities-in-meta-repeated': {
    prefix: '<!DOCTYPE html><html><head>',
    unit: `<meta content="${'&#x41;'.repeat(330)}" property="og:title">`,
  },
};

/** Every adversarial body's name, for table-driven tests. */
export const ADVERSARIAL_PAGE_NAMES = Object.keys(RECIPES) as readonly AdversarialPageName[];

/** The default size: 3 MiB, larger than any limit a resolver should allow itself to read. */
export const ADVERSARIAL_PAGE_BYTES = 3 * 1024 * 1024;

/** One adversarial body of exactly `bytes` bytes (UTF-8) and characters. */
export function adversarialPage(name: AdversarialPageName, bytes = ADVERSARIAL_PAGE_BYTES): string {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new RangeError(`bytes must be a non-negative integer, got ${bytes}`);
  }
  const { prefix, unit } = RECIPES[name];
  const units = Math.max(0, Math.ceil((bytes - prefix.length) / unit.length));
  return (prefix + unit.repeat(units)).slice(0, bytes);
}

/**
 * Every adversarial body, each exactly `bytes` long: `<meta ` repeated without `>`, one huge meta
 * tag full of unclosed quotes, a `<title>` never closed, `<div>` nested without end,
 * `APP_INITIALIZATION_STATE=[[[` followed by endless digits, `[null,null,` repeated, `"0x`
 * repeated, whole static-map `<meta>` tags repeated, and whole `<meta>` tags of entities repeated.
 */
export function adversarialPages(
  bytes = ADVERSARIAL_PAGE_BYTES,
): Readonly<Record<AdversarialPageName, string>> {
  const pages = {} as Record<AdversarialPageName, string>;
  for (const name of ADVERSARIAL_PAGE_NAMES) pages[name] = adversarialPage(name, bytes);
  return pages;
}
