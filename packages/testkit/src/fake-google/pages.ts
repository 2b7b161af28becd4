import type { LatLng } from '../takeout/index.js';

/**
 * The forms in which a real Google Maps place page carries its pin, one per fake page so a test can
 * prove the resolver reads each of them on its own:
 * - `og-image`: `<meta property="og:image">` static map with `center=<lat>%2C<lng>`;
 * - `itemprop-image`: the same static map in `<meta itemprop="image">`;
 * - `app-state`: `window.APP_INITIALIZATION_STATE=[[[<zoom>,<lng>,<lat>]…` (longitude first);
 * - `final-url`: a redirect to a URL holding the pin (`!3d<lat>!4d<lng>`), whose page has no numbers.
 */
export type PageForm = 'og-image' | 'itemprop-image' | 'app-state' | 'final-url';

/** Every page form, for table-driven tests. */
export const PAGE_FORMS: readonly PageForm[] = [
  'og-image',
  'itemprop-image',
  'app-state',
  'final-url',
];

function staticMap(point: LatLng): string {
  const pair = `${point.lat}%2C${point.lng}`;
  return `https://maps.google.com/maps/api/staticmap?center=${pair}&amp;zoom=15&amp;size=900x900&amp;language=en&amp;markers=${pair}&amp;sensor=false&amp;client=google-maps-frontend&amp;signature=fake`;
}

function page(head: string, script = ''): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head><body><div id="app-container"></div><script nonce="fake">${script}</script></body></html>`;
}

function appState(point: LatLng): string {
  return `window.APP_INITIALIZATION_STATE=[[[2233.4,${point.lng},${point.lat}],[0,0,0],[1024,768],13.1],[[["m",[16,35000,20000],16]]]];window.APP_FLAGS=[];`;
}

/** The place page in one form; `final-url` pages carry no numbers (the pin is in their URL). */
export function placePage(name: string, point: LatLng, form: PageForm): string {
  const title = `<title>${name} - Google Maps</title><meta content="${name}" itemprop="name"><meta content="${name} · Somewhere" property="og:title">`;
  switch (form) {
    case 'og-image':
      return page(`${title}<meta content="${staticMap(point)}" property="og:image">`);
    case 'itemprop-image':
      return page(`${title}<meta itemprop="image" content="${staticMap(point)}">`);
    case 'app-state':
      return page(title, appState(point));
    case 'final-url':
      return page(title, 'window.APP_FLAGS=[];');
  }
}

/**
 * Google's generic Maps page, served when it does not recognise the place: its name is just
 * "Google Maps" and its numbers are the requester's own location, which a resolver must never use.
 */
export function genericPage(requester: LatLng): string {
  return page(
    `<title>Google Maps</title><meta content="Google Maps" itemprop="name"><meta content="Google Maps" property="og:title"><meta content="${staticMap(requester)}" property="og:image">`,
    appState(requester),
  );
}

/** The URL a `final-url` place redirects to: the pin `!3d!4d` and the view `@lat,lng,zoom`. */
export function finalPlaceUrl(name: string, point: LatLng): string {
  return `https://www.google.com/maps/place/${encodeURIComponent(name)}/@${point.lat},${point.lng},17z/data=!4m5!3m4!8m2!3d${point.lat}!4d${point.lng}`;
}
