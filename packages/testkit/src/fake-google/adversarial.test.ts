import { describe, expect, it } from 'vitest';
import {
  ADVERSARIAL_PAGE_BYTES,
  ADVERSARIAL_PAGE_NAMES,
  adversarialPage,
  adversarialPages,
} from './index.js';

describe('adversarial pages', () => {
  it('gives every body exactly 3 MiB by default', () => {
    const pages = adversarialPages();
    expect(Object.keys(pages).sort()).toEqual([...ADVERSARIAL_PAGE_NAMES].sort());
    expect(ADVERSARIAL_PAGE_NAMES).toHaveLength(9);
    for (const body of Object.values(pages)) {
      expect(Buffer.byteLength(body)).toBe(ADVERSARIAL_PAGE_BYTES);
      expect(body.length).toBe(3 * 1024 * 1024);
    }
  });

  it.each([0, 1, 10, 100, 4097, 65_536, 1_000_003])(
    'gives every body exactly %i bytes',
    (bytes) => {
      for (const body of Object.values(adversarialPages(bytes))) {
        expect(Buffer.byteLength(body)).toBe(bytes);
      }
    },
  );

  it('builds each trap as named', () => {
    const pages = adversarialPages(64 * 1024);
    expect(pages['meta-without-close'].split('<meta ').length).toBeGreaterThan(10_000);
    expect(pages['meta-without-close'].slice(30)).not.toContain('>');
    const meta = pages['unclosed-quotes-in-meta'];
    expect(meta.indexOf('<meta')).toBe(meta.lastIndexOf('<meta'));
    expect(meta.slice(meta.indexOf('<meta'))).not.toContain('>');
    expect(pages['title-never-closed']).not.toContain('</title>');
    expect(pages['deep-nesting'].split('<div>').length).toBeGreaterThan(10_000);
    expect(pages['deep-nesting']).not.toContain('</div>');
    expect(pages['endless-camera-digits']).toMatch(/APP_INITIALIZATION_STATE=\[\[\[\d{60000,}$/);
    expect(pages['place-data-prefix-repeated'].split('[null,null,').length).toBeGreaterThan(5000);
    expect(pages['ftid-prefix-repeated'].split('"0x').length).toBeGreaterThan(20_000);
    // Whole tags, closed: a reader that parses every one does tens of thousands of parses.
    const maps = adversarialPages()['static-maps-repeated'].match(/<meta [^>]*staticmap[^>]*>/g);
    expect(maps!.length).toBeGreaterThan(40_000);
    const entities = pages['entities-in-meta-repeated'].match(/<meta content="(?:&#x41;)+"/g);
    expect(entities!.length).toBeGreaterThan(30);
    expect(entities![0]!.length).toBeLessThan(2048);
  });

  it('refuses a size that is not a non-negative integer', () => {
    expect(() => adversarialPage('deep-nesting', -1)).toThrow(RangeError);
    expect(() => adversarialPage('deep-nesting', 1.5)).toThrow(RangeError);
  });
});
