/**
 * When `MAPS_UPSTREAM_ORIGIN` is set (tests), a request meant for `https://<host>/<path>` goes to
 * `<origin>/<path>` with the original host in this header. The fake Google in packages/testkit reads
 * it, so short-link hosts (`maps.app.goo.gl`) reach the fake too. The allowlist is always judged on
 * the original URL, before this mapping.
 */
export const UPSTREAM_HOST_HEADER = 'x-upstream-host';

/**
 * Consent cookies that let a place page answer instead of the EU consent wall (consent.google.com),
 * as a desktop browser that already accepted would send them.
 */
export const CONSENT_COOKIES =
  'CONSENT=YES+cb.20240101-00-p0.en+FX+000; SOCS=CAESHAgBEhJnd3NfMjAyNDAxMDEtMF9SQzIaAmVuIAEaBgiAtaKtBg';

/** Desktop Chrome: mobile agents get a "lite" page without the pin. */
export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** How the resolver reaches the outside: the fetch to use and where Google's hosts really are. */
export interface UpstreamOptions {
  fetch: typeof globalThis.fetch;
  /** Origin standing in for every Maps host (tests), or undefined for the real hosts. */
  mapsOrigin: string | undefined;
  /** Origin of the Places API (New). */
  placesOrigin: string;
  requestTimeoutMs: number;
}

function signalFor(timeoutMs: number, signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
}

/**
 * Fetches an allowlisted Maps page like a desktop browser, without following redirects (the caller
 * checks each hop against the allowlist), within the per-request timeout and the batch's signal.
 */
export function fetchMapsPage(
  options: UpstreamOptions,
  url: URL,
  signal: AbortSignal,
): Promise<Response> {
  const headers: Record<string, string> = {
    'user-agent': DESKTOP_CHROME_UA,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'accept-language': 'en-US,en;q=0.9',
    cookie: CONSENT_COOKIES,
  };
  let target = url.href;
  if (options.mapsOrigin) {
    target = `${options.mapsOrigin}${url.pathname}${url.search}`;
    headers[UPSTREAM_HOST_HEADER] = url.hostname;
  }
  return options.fetch(target, {
    redirect: 'manual',
    headers,
    signal: signalFor(options.requestTimeoutMs, signal),
  });
}

/** Calls the Places API (New) for one place id with the `location` field mask. */
export function fetchPlace(
  options: UpstreamOptions,
  placeId: string,
  apiKey: string,
  signal: AbortSignal,
): Promise<Response> {
  return options.fetch(`${options.placesOrigin}/v1/places/${encodeURIComponent(placeId)}`, {
    redirect: 'error',
    headers: { 'X-Goog-Api-Key': apiKey, 'X-Goog-FieldMask': 'location' },
    signal: signalFor(options.requestTimeoutMs, signal),
  });
}

/**
 * Reads at most `maxBytes` of a body as text; the rest is dropped unread. The pin forms sit in the
 * page head, so a cut page still resolves.
 */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes));
}
