import type { LatLng } from '../takeout/index.js';
import { offsetBy, streamFrom } from './geo.js';
import { placeDataScript, token } from './place-data.js';
import { PAGE_LANGUAGES, type PageLanguage } from './localized.js';

/**
 * The forms a real Google Maps place page comes in, one per fake page so a test can prove the
 * resolver reads (or refuses) each of them on its own:
 * - `place-data`: today's full page, in the shape of real ones: the product name as `<title>`, the
 *   place's name in `itemprop="name"` and `og:title`, place data binding the pin to the requested
 *   id inside a JavaScript string (`[null,null,<lat>,<lng>],\"0x<hi>:0x<lo>\"`) among nearby
 *   places' records (`0x0:0x<cid>`), the camera (`APP_INITIALIZATION_STATE`) 300–800 m away, a photo
 *   as `og:image` and a static map (`markers=` the pin, `center=` 200 m off). Strong evidence.
 * - `og-image` / `itemprop-image`: an older page whose static map has `markers=` on the pin and
 *   `center=` about 200 m west of it (the side-panel offset). Weak evidence (`markers`).
 * - `static-center-only`: a static map with only `center=`, on the pin. Weak evidence.
 * - `app-state`: only the camera `window.APP_INITIALIZATION_STATE=[[[<zoom>,<lng>,<lat>]…`, on the
 *   pin (longitude first). Weak evidence.
 * - `final-url`: a 302 to a URL holding the ftid and the pin (`!1s<ftid>…!3d<lat>!4d<lng>`), whose
 *   page has no numbers. Strong evidence.
 * - `lean`: what Google serves datacenter addresses: product-name `og:title`, no `itemprop="name"`,
 *   no place data, a camera at a default location. No evidence at all.
 */
export type PageForm =
  | 'place-data'
  | 'og-image'
  | 'itemprop-image'
  | 'static-center-only'
  | 'app-state'
  | 'final-url'
  | 'lean';

/**
 * Every form that carries the place's pin (all but `lean`), for table-driven tests that expect the
 * exact coordinates back. {@link ALL_PAGE_FORMS} adds `lean`.
 */
export const PAGE_FORMS: readonly PageForm[] = [
  'place-data',
  'og-image',
  'itemprop-image',
  'static-center-only',
  'app-state',
  'final-url',
];

/** Every page form, `lean` included. */
export const ALL_PAGE_FORMS: readonly PageForm[] = [...PAGE_FORMS, 'lean'];

/** How much a form proves, by the product's evidence rules (product.md, "Resolution"). */
export type PageEvidence = 'strong' | 'weak' | 'none';

/** The evidence each form carries: strong forms bind the pin to the id, weak ones only show it. */
export const PAGE_FORM_EVIDENCE: Readonly<Record<PageForm, PageEvidence>> = {
  'place-data': 'strong',
  'final-url': 'strong',
  'og-image': 'weak',
  'itemprop-image': 'weak',
  'static-center-only': 'weak',
  'app-state': 'weak',
  lean: 'none',
};

/** How far west of the pin an older page's static map is centred (real pages: about 200 m). */
export const STATIC_MAP_CENTRE_OFFSET_METRES = 200;

/** Where a lean page's camera looks when the fake has no `requesterLocation`: London. */
export const LEAN_DEFAULT_LOCATION: LatLng = { lat: 51.5072, lng: -0.1276 };

/** The place a page is about: what the fake knows and writes. */
export interface PageSubject {
  name: string;
  point: LatLng;
  /** The ftid the page binds the pin to: the one the request named, or one made for its CID. */
  ftid: string;
  /** The page's interface language (default English). */
  language?: PageLanguage;
}

/** Escapes text for an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const pair = (point: LatLng): string => `${point.lat}%2C${point.lng}`;

/** A static map URL as place pages write it in a meta tag (`&amp;` between parameters). */
function staticMap(center: LatLng, markers?: LatLng): string {
  const marker = markers ? `&amp;markers=${pair(markers)}` : '';
  return `https://maps.google.com/maps/api/staticmap?center=${pair(center)}&amp;zoom=15&amp;size=900x900&amp;language=en${marker}&amp;sensor=false&amp;client=google-maps-frontend&amp;signature=fake`;
}

function page(head: string, script = '', lang = 'en'): string {
  return `<!DOCTYPE html><html itemscope="" itemtype="http://schema.org/Place" lang="${lang}"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1">${head}<link href="/maps/_/ss/k=maps.m.fake.L.W.O/am=AAAB/d=1/rs=fake" rel="stylesheet" nonce="fake"></head><body jstcache="0"><div id="app-container" class="vasquette id-app-container"></div><script nonce="fake">${script}</script></body></html>`;
}

/** The camera alone, `[[[<altitude>,<lng>,<lat>],…`: longitude first. */
export function appState(camera: LatLng, altitude = 2233.4): string {
  return `window.APP_INITIALIZATION_STATE=[[[${altitude},${camera.lng},${camera.lat}],[0,0,0],[1024,768],13.1],[[["m",[16,35000,20000],16]]]];window.APP_FLAGS=[];`;
}

/** A Google user-content photo URL, as `og:image` of a full place page shows. */
function photoUrl(seed: string): string {
  return `https://lh5.googleusercontent.com/p/AF1Qip${token(streamFrom(`photo:${seed}`), 40)}=w900-h900-k-no`;
}

/** The address lines a page shows for its place, the country in the page's language. */
function addressOf(language: PageLanguage): string[] {
  return ['12 Example Street', '1234 AB City', language.country];
}

/**
 * A place page's head as real full pages have it: the product name as `<title>` in the page's
 * language (" Google Maps ", " Google マップ "), the place in `itemprop="name"` and `og:title`
 * ("<name> · <address>"), then `extra`.
 */
function placeHead(subject: PageSubject, language: PageLanguage, extra: string): string {
  const named = escapeHtml(`${subject.name} · ${addressOf(language).join(', ')}`);
  return `<title>${escapeHtml(language.title)}</title><meta content="${named}" itemprop="name"><meta content="${named}" property="og:title"><meta content="★★★★☆ · Café" property="og:description">${extra}`;
}

/**
 * The page of one place in one form; `final-url` pages carry no numbers (the pin is in their URL).
 * Every form is named like a real full page (product title, the place in `itemprop="name"` and
 * `og:title`); the `place-data` page also carries a static map whose `markers=` is the pin and whose
 * `center=` is shifted 200 m west, and a camera 300–800 m away.
 */
export function placePage(subject: PageSubject, form: PageForm, lean: LatLng): string {
  const { point } = subject;
  const language = subject.language ?? PAGE_LANGUAGES[0]!;
  const shifted = offsetBy(point, STATIC_MAP_CENTRE_OFFSET_METRES, 270);
  const named = (extra: string, script = '') =>
    page(placeHead(subject, language, extra), script, language.lang);
  switch (form) {
    case 'place-data': {
      const photo = photoUrl(subject.ftid);
      return named(
        `<meta content="${photo}" property="og:image"><meta content="900" property="og:image:width"><meta content="900" property="og:image:height"><meta content="${staticMap(shifted, point)}" itemprop="image">`,
        placeDataScript(subject, addressOf(language)),
      );
    }
    case 'og-image':
      return named(`<meta content="${staticMap(shifted, point)}" property="og:image">`);
    case 'itemprop-image':
      return named(`<meta itemprop="image" content="${staticMap(shifted, point)}">`);
    case 'static-center-only':
      return named(`<meta content="${staticMap(point)}" property="og:image">`);
    case 'app-state':
      return named('', appState(point));
    case 'final-url':
      return named('', 'window.APP_FLAGS=[];');
    case 'lean':
      return leanPage(lean);
  }
}

/**
 * The lean page Google serves many datacenter addresses: `og:title` and `<title>` are just
 * "Google Maps", there is no `itemprop="name"` and no place data, and the camera and static map
 * show a default location (`at`) that has nothing to do with the place.
 */
export function leanPage(at: LatLng): string {
  return page(
    `<title>Google Maps</title><meta content="Google Maps" property="og:title"><meta content="Find local businesses, view maps and get driving directions in Google Maps." property="og:description"><meta content="${staticMap(at)}" property="og:image">`,
    appState(at, 35000.0),
  );
}

/**
 * Google's generic Maps page, served when it does not recognise the place: its name is the product
 * name (`productName`, localized on real pages) and its numbers are the requester's own location,
 * which a resolver must never use.
 */
export function genericPage(requester: LatLng, productName = 'Google Maps'): string {
  const name = escapeHtml(productName);
  return page(
    `<title>${name}</title><meta content="${name}" itemprop="name"><meta content="${name}" property="og:title"><meta content="${staticMap(requester, requester)}" property="og:image">`,
    appState(requester),
  );
}

/**
 * The URL a `final-url` place redirects to, as Google writes it: the view `@lat,lng,zoom`, then in
 * `data=` the place's ftid (`!1s`, when given) and its pin (`!3d<lat>!4d<lng>`).
 */
export function finalPlaceUrl(name: string, point: LatLng, ftid?: string): string {
  const pin = `!8m2!3d${point.lat}!4d${point.lng}!16s%2Fg%2F11fake`;
  const data = ftid ? `!4m6!3m5!1s${ftid}${pin}` : `!4m5!3m4${pin}`;
  return `https://www.google.com/maps/place/${encodeURIComponent(name)}/@${point.lat},${point.lng},17z/data=${data}?entry=ttu`;
}
