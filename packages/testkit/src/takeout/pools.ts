/** Word pools the generator draws place names and texts from. Plain data, no logic. */

export const LATIN_PREFIXES = [
  'Café',
  'Bar',
  'Trattoria',
  'Musée',
  'Park',
  'Hotel',
  'Bäckerei',
  'Librería',
  'Bistro',
  'Taquería',
  'Brasserie',
  'Galleria',
  'Kiosk',
  'Pizzeria',
  'Market',
  'Museum',
] as const;

export const LATIN_NAMES = [
  'Central',
  'du Marché',
  'Luna',
  'Roma',
  'Nord',
  'Sakura',
  'da Enzo',
  "d'Orsay",
  'Nørrebro',
  'São Bento',
  'Łazienki',
  'Çiya',
  'Zum Löwen',
  'El Farolito',
  'Golden Gate',
  'Powell',
  'Old Town',
  'Riverside',
] as const;

export const CJK_TITLES = [
  '東京タワー',
  '一蘭 渋谷店',
  '故宫博物院',
  '경복궁',
  '清水寺',
  '鼎泰豐 信義店',
  'すきやばし次郎',
  '광장시장',
  '豫园',
] as const;

export const ARABIC_TITLES = [
  'برج خليفة',
  'مسجد الشيخ زايد',
  'سوق الحميدية',
  'مطعم أبو شقرة',
  'حديقة الأزهر',
] as const;

export const OTHER_SCRIPT_TITLES = [
  'הכותל המערבי',
  'Красная площадь',
  'Эрмитаж',
  'วัดพระแก้ว',
  'इंडिया गेट',
  'Ακρόπολη',
  'Ծաղկաձոր',
] as const;

export const EMOJI_TITLES = [
  '🍜 Ramen spot',
  'Best tacos 🌮🔥',
  '☕ Coffee',
  '👨‍👩‍👧 Family park',
  '🇯🇵 Embassy',
  '🏖️',
] as const;

export const MARKUP_TITLES = [
  "Tom & Jerry's",
  '<script>alert(1)</script> Bar',
  'A > B Café',
  'Fish & Chips <Best>',
  ']]> CDATA end',
  "Rock 'n' Roll & <Blues>",
] as const;

/** Titles with double quotes, which CSV doubles and XML attributes must escape. */
export const QUOTED_TITLES = [
  'Bar "Le Chat" & Co',
  'The "Best" Pho',
  '"Quoted" Diner',
  'Café "Zum ""Doppel"""',
] as const;

/** Titles a spreadsheet would run as formulas; the failed-places CSV must neutralise them. */
export const FORMULA_TITLES = [
  '=HYPERLINK("http://example.com","x")',
  '+44 Café',
  '-5 Degrees',
  '@Home Burgers',
  '=1+1',
] as const;

/** Places saved by address: numbers next to commas that are not coordinates. */
export const ADDRESS_TITLES = [
  'Ermou 10, 105 63 Athens',
  'Calle 5, 23',
  'Pier 39, 2 Beach St',
  'Rua Augusta 274, 1100-053 Lisboa',
] as const;

/** Addresses for `?q=<address>&ftid=` URLs, some with integer pairs around a comma. */
export const ADDRESSES = [
  'Ermou 10, 105 63 Athens, Greece',
  'Rua Augusta 274, 1100-053 Lisboa, Portugal',
  'Hauptstraße 5, 10115 Berlin, Germany',
  '1600 Amphitheatre Pkwy, Mountain View, CA 94043',
  '東京都港区芝公園4丁目2-8',
  'Carrer de Mallorca 401, 08013 Barcelona',
] as const;

export const PLAIN_NOTES = [
  'Try the tonkotsu ramen',
  'Recommended by Marta',
  'Open late on Fridays',
  'Closed Mondays',
  'Great view at sunset',
  'Book ahead',
  'Ask for the terrace',
  '朝ごはんが美味しい',
] as const;

export const COMMA_NOTES = [
  'Cheap, cheerful, and fast',
  'Go early, it gets busy',
  'Breakfast, lunch, dinner',
] as const;

export const MULTILINE_NOTES = [
  'Must try:\n- gyoza\n- tantanmen',
  'Line 1 of notes\nLine 2, with a comma\n\nLine 4 after a blank line',
  'Opening hours:\nMon–Fri 9–17\nSat 10–14',
] as const;

export const QUOTED_NOTES = [
  'Sign says "No photos", be polite',
  'Order the "special", then ask for "more"',
  '"Quoted" from start to "end"',
] as const;

/** Notes holding characters XML 1.0 forbids: the KML writer must drop or replace them. */
export const FORBIDDEN_NOTES = [
  'Copied from an old app\u0001 with a control char',
  'Odd byte-order mark\uFFFE inside',
  'Vertical\u000Btab and form\u000Cfeed',
  'Noncharacter at the end \uFFFF',
] as const;

export const COMMENTS = [
  'Visited in 2019',
  'Recommended by a friend',
  'Must see!',
  'Go back with the kids',
  '★★★★☆',
  'Good for groups, bring cash',
] as const;

export const DESCRIPTIONS = [
  'Places we want to try in Tokyo',
  'Saved for the summer trip, July 2024',
  'Cafés with good Wi-Fi & quiet corners',
  'Ideas from "Lonely Planet"',
] as const;

export const DROPPED_PIN_TITLE = 'Dropped pin';
