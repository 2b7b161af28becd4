/**
 * The name of Google Maps itself, as generic and lean pages carry it in `og:title`,
 * `itemprop="name"` or `<title>`, in the languages Google serves. A page named like this is not a
 * place's page: its numbers are the requester's area or a default camera.
 */
const PRODUCT_NAMES = [
  'Google Maps',
  'Google マップ',
  'Google Карты',
  'Google Карти',
  'Google Мапе',
  'Google Карталар',
  'Google 地图',
  'Google 地圖',
  'Google 지도',
  'Google Mapy',
  'Google Mapa',
  'Google Mapas',
  'Mapas de Google',
  'Mapes de Google',
  'Google Maps – Mapas',
  'Google Haritalar',
  'Google Térkép',
  'Google Térképek',
  'Google Kort',
  'Google Kartat',
  'Google Kartor',
  'Google Karten',
  'Google Hărți',
  'Hărți Google',
  'Google Zemljevidi',
  'Google Karte',
  'Google Žemėlapiai',
  'Google Kartes',
  'Google Kaardid',
  'Google Χάρτες',
  'Χάρτες Google',
  'Google מפות',
  'מפות Google',
  'خرائط Google',
  'خرائط جوجل',
  'نقشه Google',
  'Google नक्शे',
  'Google মানচিত্র',
  'Google แผนที่',
  'Google Bản đồ',
  'Google Peta',
  'Peta Google',
  'Mapy Google',
  'Google Xəritə',
  'Google Რუკები',
  'Google Քարտեզներ',
  'Google Kaarten',
  'Google Mappe',
  'Google Maps Go',
] as const;

function normalise(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

const KNOWN: ReadonlySet<string> = new Set(PRODUCT_NAMES.map(normalise));

/**
 * True when `name` is the product's own name in any language (surrounding spaces, case and
 * Unicode forms ignored), e.g. "Google Maps", " Google マップ ", "Google Карты". A place whose page
 * title merely contains it ("Louvre - Google Maps") is not.
 */
export function isProductName(name: string): boolean {
  const normal = normalise(name);
  return normal.length < 64 && KNOWN.has(normal);
}
