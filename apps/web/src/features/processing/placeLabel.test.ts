import { describe, expect, it } from 'vitest';
import { MAX_PLACE_LABEL, placeLabel } from './placeLabel';

const FTID = 'data=!4m2!3m1!1s0x487604ce176ac979:0x42af85654e23a0b4';

describe('placeLabel', () => {
  it.each([
    ['a title', 'Café de Flore', 'Café de Flore'],
    [
      'a place link',
      `https://www.google.com/maps/place/National+Gallery/${FTID}`,
      'National Gallery',
    ],
    [
      'a place link with an encoded name in any script',
      `https://www.google.com/maps/place/%E6%9D%B1%E4%BA%AC%E3%82%BF%E3%83%AF%E3%83%BC/${FTID}`,
      '東京タワー',
    ],
    ['a dropped pin', 'https://www.google.com/maps/search/52.3676,+4.9041', '52.3676, 4.9041'],
    [
      'a query link',
      'https://maps.google.com/?q=Rua+Augusta+24,+Lisboa&ftid=0x1:0x2',
      'Rua Augusta 24, Lisboa',
    ],
    [
      'a cid link, by its site',
      'http://maps.google.com/?cid=12345678901234567890',
      'maps.google.com',
    ],
    [
      'a link without a name',
      `https://www.google.com/maps/place/${FTID}`,
      'google.com/maps/place/data=!4m2!3m1!1s0…',
    ],
    ['a link that does not parse', 'https://', ''],
  ])('%s', (_what, item, label) => {
    expect(placeLabel(item)).toBe(label);
  });

  it('never gives more than the longest label, cutting whole characters with an ellipsis', () => {
    const long = `https://www.google.com/maps/place/${'Sehr+langer+Name+'.repeat(20)}/${FTID}`;
    const label = placeLabel(long);
    expect([...label]).toHaveLength(MAX_PLACE_LABEL);
    expect(label.endsWith('…')).toBe(true);
    expect(label.startsWith('Sehr langer Name Sehr')).toBe(true);
    expect([...placeLabel('🏖️'.repeat(200))].length).toBeLessThanOrEqual(MAX_PLACE_LABEL);
  });

  it('never shows a raw URL for a link that carries a name', () => {
    expect(placeLabel(`https://www.google.com/maps/place/Somewhere/${FTID}`)).not.toMatch(
      /https?:/,
    );
  });
});
