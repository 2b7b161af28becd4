/**
 * The resolver's allowlist: which links may be fetched, and which may be looked up by the place id
 * they carry. Pure, so the converter (selection counts, the pipeline), the CLI, the API's
 * allowances and the resolver itself all judge a link by the same rule (product.md, "Needs a
 * lookup").
 */
import { GOOGLE_SUPPORTED_DOMAINS } from './google-domains.js';

const DOMAINS: ReadonlySet<string> = new Set(GOOGLE_SUPPORTED_DOMAINS);

/** Hosts a place page may be fetched from: `www.` and `maps.` of each of Google's domains. */
const PAGE_HOSTS: ReadonlySet<string> = new Set(
  GOOGLE_SUPPORTED_DOMAINS.flatMap((domain) => [`www.${domain}`, `maps.${domain}`]),
);

/** Google's short-link hosts: `maps.app.goo.gl/<id>`, and `goo.gl/maps/<id>` (the path matters). */
const SHORT_LINK_HOST = 'maps.app.goo.gl';
const OLD_SHORT_LINK_HOST = 'goo.gl';

function isMapsPath(pathname: string): boolean {
  return pathname === '/maps' || pathname.startsWith('/maps/');
}

function plainHttps(url: URL): boolean {
  return url.protocol === 'https:' && url.port === '' && !url.username && !url.password;
}

/** True for `maps.app.goo.gl/…` and `goo.gl/maps/…` over https. */
export function isShortLink(url: URL): boolean {
  if (!plainHttps(url)) return false;
  if (url.hostname === SHORT_LINK_HOST) return url.pathname.length > 1;
  return url.hostname === OLD_SHORT_LINK_HOST && url.pathname.startsWith('/maps/');
}

/**
 * The one rule for what may be fetched, checked on the first URL and on every redirect: https on
 * the default port, no userinfo, and a Google Maps address on one of Google's own domains —
 * `www.<domain>/maps…` or `maps.<domain>/…` for a `<domain>` of {@link GOOGLE_SUPPORTED_DOMAINS}
 * — or a short link. IP literals, look-alikes (`www.google.com.evil.example`, `maps.google.com.de`),
 * `consent.google.com`, `/sorry/` pages, http and odd ports are never requested.
 */
export function isAllowedFetchUrl(url: URL): boolean {
  if (!plainHttps(url)) return false;
  if (isShortLink(url)) return true;
  const host = url.hostname;
  if (!PAGE_HOSTS.has(host)) return false;
  return host.startsWith('maps.') ? !url.pathname.startsWith('/sorry') : isMapsPath(url.pathname);
}

/**
 * Whether a link may be looked up by the place id it carries: a Google host (`<domain>`,
 * `www.<domain>` or `maps.<domain>` of Google's list) over http or https on the default port,
 * without userinfo. Such links are never fetched as given: the resolver builds its own https place
 * URL from the id (Takeout's old `http://maps.google.com/?cid=` and `…/search?…&ludocid=` links).
 */
export function isGooglePlaceLink(url: URL): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.port !== '' || url.username || url.password) return false;
  const host = url.hostname.replace(/^(?:www|maps)\./, '');
  return DOMAINS.has(host);
}
