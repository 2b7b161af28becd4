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
