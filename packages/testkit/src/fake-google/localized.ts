/**
 * The product name "Google Maps" as Google's generic pages show it in `<title>`, `og:title` and
 * `itemprop="name"`, in several interface languages, spaces included where the real pages have them
 * (the Japanese title is " Google マップ "). A resolver recognises a generic page by its name being
 * one of these, so tests can table-drive that check with {@link LOCALIZED_PRODUCT_NAMES}.
 */
export const LOCALIZED_PRODUCT_NAMES: readonly string[] = [
  'Google Maps',
  ' Google マップ ',
  'Google Карты',
  'Google 地图',
  'Google 地圖',
  'Google 지도',
  'Mapas de Google',
  'Google Mapas',
  'Mapy Google',
  'Google Haritalar',
  'Google Карти',
  'Χάρτες Google',
  'מפות Google',
  'خرائط Google',
  'Google แผนที่',
  'Google Térkép',
  'Hărți Google',
  'Google Žemėlapiai',
];

/** One interface language of the fake's full place pages, as real full pages show it. */
export interface PageLanguage {
  /** `<html lang>`. */
  lang: string;
  /** The product name as the page's `<title>` carries it (spaces included, as in real pages). */
  title: string;
  /** The country line of the place's address. */
  country: string;
}

/**
 * The languages the fake serves its full place pages in, chosen per place. Real full pages carry
 * the product name as `<title>` in the page's language (nl: " Google Maps ", ja: " Google マップ ")
 * and the place's own name in `itemprop="name"` and `og:title`.
 */
export const PAGE_LANGUAGES: readonly PageLanguage[] = [
  { lang: 'en', title: ' Google Maps ', country: 'United Kingdom' },
  { lang: 'nl', title: ' Google Maps ', country: 'Nederland' },
  { lang: 'ja', title: ' Google マップ ', country: '日本' },
  { lang: 'pt-PT', title: ' Google Maps ', country: 'Portugal' },
  { lang: 'ru', title: ' Google Карты ', country: 'Россия' },
  { lang: 'ko', title: ' Google 지도 ', country: '대한민국' },
  { lang: 'es', title: ' Google Maps ', country: 'España' },
];
