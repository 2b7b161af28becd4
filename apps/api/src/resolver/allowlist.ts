/** Country domains Google serves Maps on: `google.de`, `google.co.uk`, `google.com.au`. */
const GOOGLE_DOMAIN = /^google\.(?:com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || IPV4.test(hostname);
}

function isMapsPath(pathname: string): boolean {
  return pathname === '/maps' || pathname.startsWith('/maps/');
}

function plainHost(url: URL): boolean {
  return !url.username && !url.password && !isIpLiteral(url.hostname);
}

/**
 * The one rule for what the server may fetch, checked on the first URL and on every redirect: https
 * on the default port, no userinfo, no IP literal, and a Google Maps address only —
 * `www.google.<domain>/maps…` (and the bare `google.<domain>/maps…`), `maps.google.<domain>`,
 * `maps.app.goo.gl` and `goo.gl/maps/…`, where `<domain>` is `com`, a country code, `co.<cc>` or
 * `com.<cc>`. Anything else (other hosts, look-alikes such as `www.google.com.evil.example`,
 * consent.google.com, http, odd ports) is never requested.
 */
export function isAllowedFetchUrl(url: URL): boolean {
  if (url.protocol !== 'https:' || url.port !== '' || !plainHost(url)) return false;
  const host = url.hostname;
  if (host === 'maps.app.goo.gl') return true;
  if (host === 'goo.gl') return url.pathname.startsWith('/maps/');
  if (host.startsWith('maps.')) return GOOGLE_DOMAIN.test(host.slice('maps.'.length));
  const domain = host.startsWith('www.') ? host.slice('www.'.length) : host;
  return GOOGLE_DOMAIN.test(domain) && isMapsPath(url.pathname);
}

/**
 * Whether a link may be looked up by the place id it carries: a Google web or Maps host
 * (`www.google.<domain>`, `google.<domain>`, `maps.google.<domain>`) over http or https on the
 * default port, without userinfo. Such links are never fetched as given: the server builds its own
 * https place URL from the id (Takeout's old `http://maps.google.com/?cid=` and
 * `https://www.google.com/search?…&ludocid=` links are the reason).
 */
export function isGooglePlaceLink(url: URL): boolean {
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.port !== '' ||
    !plainHost(url)
  ) {
    return false;
  }
  const host = url.hostname.replace(/^(?:www|maps)\./, '');
  return GOOGLE_DOMAIN.test(host);
}
