import { offsetBy, streamFrom } from './geo.js';
import type { PageSubject } from './pages.js';

/** How far the camera of a full page is from the place: never on it, as on real pages. */
export const CAMERA_OFFSET_METRES = { min: 300, max: 800 } as const;

const TOKEN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const REVIEWS = [
  'Lovely place, friendly staff and good coffee. Would come again.',
  'A bit crowded at lunchtime, but worth the wait.',
  'Great location near the station \\u0026 the old town.',
  'Prices went up last year. Still the best cake in the area!',
  'Closed on Mondays, check the hours before you go.',
];
const WHEN = ['a week ago', '2 months ago', 'a year ago', '3 weeks ago', '5 months ago'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Next = () => number;

/** `length` characters of Google's URL-safe token alphabet. */
export function token(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i += 1) text += TOKEN[next() % TOKEN.length];
  return text;
}

const pick = <T>(next: Next, items: readonly T[]): T => items[next() % items.length]!;

/** One filler element of the kinds a real page's state holds: tiles, reviews, photos, hours. */
function fillerItem(next: Next): string {
  switch (next() % 5) {
    case 0: {
      const x = 30000 + (next() % 9000);
      const y = 18000 + (next() % 9000);
      return `["m",[16,${x},${y}],16,[[null,null,"https://www.google.com/maps/vt?pb=!1m5!1m4!1i16!2i${x}!3i${y}!4i256!2m3!1e0!2sm!3i${700000000 + (next() % 9999999)}!3m9!2sen!3sUS!5e18!12m1!1e68!12m3!1e37!2m1!1ssmartmaps!4e0"]]]`;
    }
    case 1:
      return `[null,"${token(next, 12)}",[null,null,"https://lh3.googleusercontent.com/a-/ALV-Uj${token(next, 32)}=s120-c-rp-mo-br100"],"${pick(next, WHEN)}",null,"${pick(next, REVIEWS)}",null,${1 + (next() % 5)},[null,null,null,1],null,[${next() % 40},${next() % 9}]]`;
    case 2:
      return `["https://lh5.googleusercontent.com/p/AF1Qip${token(next, 40)}=w408-h306-k-no",[408,306],null,null,[null,null,null,0],"${token(next, 22)}"]`;
    case 3:
      return `[${DAYS.map((day) => `["${day}",${next() % 7},[2025,${1 + (next() % 12)},${1 + (next() % 28)}],[["${7 + (next() % 3)} am–${5 + (next() % 5)} pm"]],0,1]`).join(',')}]`;
    default:
      return `[null,null,null,${next() % 2},null,[${next() % 100},${next() % 100},${next() % 100}],"${token(next, 16)}",${(next() % 100000) / 1000},null,[]]`;
  }
}

/** Filler made once for every page: its text, and where each of its elements ends. */
interface SharedFiller {
  text: string;
  ends: number[];
}

/** The most filler a page asks for ({@link placeDataScript}: 24 to 44 KB), with room to spare. */
const SHARED_FILLER_BYTES = 48_000;
let shared: SharedFiller | undefined;

/** Elements enough for {@link SHARED_FILLER_BYTES}, made once per process from a fixed seed. */
function sharedFiller(): SharedFiller {
  if (shared) return shared;
  const next = streamFrom('filler');
  const items: string[] = [];
  const ends: number[] = [];
  let size = -1;
  while (size < SHARED_FILLER_BYTES) {
    const item = fillerItem(next);
    items.push(item);
    size += item.length + 1;
    ends.push(size);
  }
  shared = { text: items.join(','), ends };
  return shared;
}

/**
 * Roughly `bytes` of filler elements, joined as a JSON array body: the first elements of one
 * filler made once per process, ending after the first element that reaches `bytes`. Pages keep
 * their real size and shape (and their bytes differ place to place elsewhere), while serving one
 * costs a slice instead of making 40 KB of elements: the fake's own CPU per page was most of what a
 * lookups benchmark at 32 in flight measured beside the resolver (issue 19).
 */
function filler(bytes: number): string {
  const { text, ends } = sharedFiller();
  const end = ends.find((at) => at >= bytes) ?? text.length;
  return text.slice(0, end);
}

/** A JSON string literal as Google writes one: `&`, `<`, `>` and `=` as `\u00XX` escapes. */
function jsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[&<>=]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * JSON text put inside a JavaScript string, as real full pages carry their place data: every
 * backslash doubled and every quote escaped, so the page holds `[null,null,<lat>,<lng>],\"<ftid>\"`.
 */
function inJsString(json: string): string {
  return json.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

/** `[null,null,<lat>,<lng>],"<ftid>","<name>"`: how real pages bind a place's pin to its id. */
function bound(
  name: string,
  at: { lat: number; lng: number },
  ftid: string,
  category: string,
): string {
  return `[null,null,${at.lat},${at.lng}],"${ftid}",${jsonString(name)},null,[${jsonString(category)}]`;
}

/**
 * The script of a full place page, in the shape real full pages have (captured 2024 in nl, pt-PT
 * and ja): `APP_INITIALIZATION_STATE` opens with the camera (`[[[<alt>,<lng>,<lat>]`, 300–800 m from
 * the place), a viewport pair not bound to any id and 24–44 KB of filler; then, inside a JavaScript
 * string whose quotes are escaped, the place's record: its address, the camera again, filler, and
 * `[null,null,<lat>,<lng>],\"<ftid>\"` bound to `subject.ftid`, among nearby places' records
 * bound to `0x0:0x<cid>` ids. Deterministic per ftid. Only the block right before the requested
 * ftid is the pin.
 */
export function placeDataScript(subject: PageSubject, addressLines: readonly string[]): string {
  const next = streamFrom(`place:${subject.ftid}`);
  const { point } = subject;
  const span = CAMERA_OFFSET_METRES.max - CAMERA_OFFSET_METRES.min;
  const camera = offsetBy(
    point,
    CAMERA_OFFSET_METRES.min + 20 + (next() % (span - 40)),
    next() % 360,
  );
  const south = offsetBy(camera, 900, 225);
  const north = offsetBy(camera, 900, 45);
  const neighbour = (label: string) => {
    const at = offsetBy(point, 1000 + (next() % 2000), next() % 360);
    const cid = (BigInt(next()) << 32n) | BigInt((next() | 1) >>> 0);
    return `[${jsonString(token(next, 22))},null,${bound(`${label} ${token(next, 6)}`, at, `0x0:0x${cid.toString(16)}`, 'Restaurant')}]`;
  };
  const cameraState = `[${2989.4 + (next() % 900)},${camera.lng},${camera.lat}],[0,0,0],[1024,768],13.1`;
  const viewport = `[[null,null,${south.lat},${south.lng}],[null,null,${north.lat},${north.lng}]]`;
  const body = filler(24_000 + (next() % 20_000));
  const own = bound(subject.name, point, subject.ftid, 'Café');
  const lines = `[${addressLines.map(jsonString).join(',')}]`;
  const record = `[null,null,null,null,[${cameraState}],null,[${jsonString(token(next, 22))},${jsonString(token(next, 40))},${lines},null,[${filler(2_000)}],null,null,[${jsonString('/url?q=https://example.com/&opi=79508299')},"example.com"],null,${own},null,null,null,[[[${jsonString(subject.ftid)}]]],[${neighbour('Nearby')},${neighbour('Also nearby')},${neighbour('Around the corner')}]]]`;
  const data = inJsString(`)]}'\n${record}`);
  return `window.APP_OPTIONS=[null,"en","US",["https://www.gstatic.com/"]];window.APP_INITIALIZATION_STATE=[[${cameraState}],${viewport},[${body}],[null,"${token(next, 20)}",null,1],"${data}"];window.APP_FLAGS=[1,0,1,0,0,1];`;
}
