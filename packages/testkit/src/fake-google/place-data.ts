import { offsetBy, streamFrom } from './geo.js';
import { ftidForCid } from './ftid.js';
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

function token(next: Next, length: number): string {
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

/** Roughly `bytes` of filler elements, joined as a JSON array body. */
function filler(next: Next, bytes: number): string {
  const items: string[] = [];
  let size = 0;
  while (size < bytes) {
    const item = fillerItem(next);
    items.push(item);
    size += item.length + 1;
  }
  return items.join(',');
}

/** `[null,null,<lat>,<lng>],"<ftid>"`: how real pages bind a place's pin to its id. */
function bound(name: string, lat: number, lng: number, ftid: string, category: string): string {
  return `[null,null,null,null,null,null,null,null,null,null,null,["${name}",["12 Example Street","City"]],null,[null,null,${lat},${lng}],"${ftid}",null,"${name}",null,["${category}"],null,null,[4.${lat > 0 ? 4 : 6},${120 + (Math.abs(Math.round(lng * 10)) % 800)}]]`;
}

/**
 * The script of a full place page: the camera first (`APP_INITIALIZATION_STATE=[[[<alt>,<lng>,<lat>]`,
 * 300–800 m from the place), a viewport pair `[null,null,…]` not bound to any id, 24–44 KB of
 * filler, a nearby place's own data, then the place's data bound to `subject.ftid`, then another
 * nearby place. Deterministic per ftid. Only the block right before `"<ftid>"` is the pin.
 */
export function placeDataScript(subject: PageSubject): string {
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
    return bound(`${label} ${token(next, 6)}`, at.lat, at.lng, ftidForCid(cid, at), 'Restaurant');
  };
  const before = neighbour('Nearby');
  const after = neighbour('Also nearby');
  const name = subject.name
    .replaceAll('\\', '\\\\')
    .replaceAll('"', '\\"')
    .replaceAll('<', '\\u003c');
  const own = bound(name, point.lat, point.lng, subject.ftid, 'Café');
  const head = `[[${2989.4 + (next() % 900)},${camera.lng},${camera.lat}],[0,0,0],[1024,768],13.1]`;
  const viewport = `[[null,null,${south.lat},${south.lng}],[null,null,${north.lat},${north.lng}]]`;
  const body = filler(next, 24_000 + (next() % 20_000));
  return `window.APP_OPTIONS=[null,"en","US",["https://www.gstatic.com/"]];window.APP_INITIALIZATION_STATE=[${head},${viewport},[${body}],[${before}],[${own}],[${after}],[null,"${token(next, 20)}",null,1]];window.APP_FLAGS=[1,0,1,0,0,1];`;
}
