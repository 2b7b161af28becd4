import type { WrittenLatLng } from './coordinates.js';

/** The URL forms of real Takeout rows, one builder each. See {@link PlaceKind} for the catalogue. */

const MAPS = 'https://www.google.com/maps';

/** Encodes a name for a path segment or query value the way Google does: spaces become `+`. */
function encodeName(name: string): string {
  return encodeURIComponent(name).replaceAll('%20', '+');
}

/** Encodes an address for `?q=`: like a name, but commas stay literal as in Saved Places.json. */
function encodeAddress(address: string): string {
  return encodeName(address).replaceAll('%2C', ',');
}

/** `/maps/place/<name>/data=!4m2!3m1!1s<ftid>`: an id, no coordinates. */
export function ftidUrl(title: string, ftid: string): string {
  return `${MAPS}/place/${encodeName(title)}/data=!4m2!3m1!1s${ftid}`;
}

/** `/maps/place/<name>/data=…!3d<lat>!4d<lng>…`: the place's pin, no map centre. */
export function pinUrl(title: string, ftid: string, pin: WrittenLatLng): string {
  const tail = `!16s%2Fg%2F11${ftid.slice(-8)}`;
  return `${MAPS}/place/${encodeName(title)}/data=!4m6!3m5!1s${ftid}!8m2!3d${pin.latText}!4d${pin.lngText}${tail}`;
}

/** `/maps/place/<name>/@<centre>,17z/data=…!3d<lat>!4d<lng>`: the view's centre, then the pin. */
export function centreUrl(
  title: string,
  ftid: string,
  pin: WrittenLatLng,
  centre: WrittenLatLng,
): string {
  const view = `@${centre.latText},${centre.lngText},17z`;
  return `${MAPS}/place/${encodeName(title)}/${view}/data=!3m1!4b1!4m6!3m5!1s${ftid}!8m2!3d${pin.latText}!4d${pin.lngText}`;
}

/** `/maps/search/<lat>,<lng>` (or `<lat>,+<lng>`): a dropped pin. */
export function droppedPinUrl(pin: WrittenLatLng, plus: boolean): string {
  return `${MAPS}/search/${pin.latText},${plus ? '+' : ''}${pin.lngText}`;
}

/** `/maps/search/0,0`: what Takeout writes for a place with no location. */
export const ZERO_URL = `${MAPS}/search/0,0`;

/** `https://www.google.com/search?q=<name>&ludocid=<cid>`: older exports. */
export function ludocidUrl(title: string, cid: string): string {
  return `https://www.google.com/search?q=${encodeName(title)}&ludocid=${cid}`;
}

/** `http://maps.google.com/?cid=<cid>`: as in Saved Places.json. */
export function cidUrl(cid: string): string {
  return `http://maps.google.com/?cid=${cid}`;
}

/** `https://maps.google.com/?q=<address>&ftid=<ftid>`: an address, not a coordinate pair. */
export function addressUrl(address: string, ftid: string): string {
  return `https://maps.google.com/?q=${encodeAddress(address)}&ftid=${ftid}`;
}
