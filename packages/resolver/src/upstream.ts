import { type LatLng } from '@placeport/converter';
import { isValidCoordinate } from '@placeport/converter/internal';
import { timeoutSignal, type Clock } from './clock.js';
import { MAX_PAGE_BYTES } from './limits.js';

/**
 * When a maps origin is set (tests), a request meant for `https://<host>/<path>` goes to
 * `<origin>/<path>` with the original host in this header; the fake Google in packages/testkit reads
 * it. The allowlist is always judged on the original URL, before this mapping.
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

/** How the resolver reaches the outside. */
export interface UpstreamOptions {
  fetch: typeof globalThis.fetch;
  clock: Clock;
  /** Origin standing in for every Maps host (tests), or undefined for the real hosts. */
  mapsOrigin: string | undefined;
  /** Origin of the Places API (New). */
  placesOrigin: string;
  requestTimeoutMs: number;
}

/** Why Google refused us: every one of these means "stop sending for a while". */
export type Refusal = 'consent' | 'sorry' | 'status_429' | 'status_503' | 'quota';

/** A failure worth one more try: a 5xx, a dropped connection, a short link's transient 404. */
export type Transient = 'status_5xx' | 'network' | 'short_link_404';

/** What one request to Google gave, classified so the caller never has to read statuses. */
export type Answer<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'redirect'; location: URL }
  | { kind: 'refused'; why: Refusal }
  | { kind: 'transient'; why: Transient }
  | { kind: 'timeout' }
  | { kind: 'missing'; why: string };

/** The Places API refusing the key itself (see {@link keyRejection}), with Google's reason. */
export type KeyRejected = { kind: 'key_rejected'; why: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A redirect that is Google refusing us rather than sending us on: the consent wall or `/sorry/`. */
export function refusalOf(location: URL): Refusal | undefined {
  if (location.hostname === 'consent.google.com' || location.hostname.startsWith('consent.')) {
    return 'consent';
  }
  if (location.pathname.startsWith('/sorry')) return 'sorry';
  return undefined;
}

function statusRefusal(status: number): Refusal | undefined {
  if (status === 429) return 'status_429';
  if (status === 503) return 'status_503';
  return undefined;
}

async function guarded<T, Other = never>(
  options: UpstreamOptions,
  parent: AbortSignal,
  run: (signal: AbortSignal) => Promise<Answer<T> | Other>,
): Promise<Answer<T> | Other> {
  const timed = timeoutSignal(options.clock, options.requestTimeoutMs, parent);
  try {
    return await run(timed.signal);
  } catch (error) {
    if (timed.timedOut) return { kind: 'timeout' };
    if (parent.aborted) throw error;
    return { kind: 'transient', why: 'network' };
  } finally {
    timed.dispose();
  }
}

/**
 * Fetches an allowlisted Maps page like a desktop browser, without following redirects (the caller
 * checks each hop), within the per-request timeout (which covers the body too) and `signal`.
 * The body is read up to {@link MAX_PAGE_BYTES}; the rest is dropped unread.
 */
export function fetchMapsPage(
  options: UpstreamOptions,
  url: URL,
  signal: AbortSignal,
  shortLink: boolean,
): Promise<Answer<{ url: URL; html: string }>> {
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
  return guarded(options, signal, async (timed) => {
    const response = await options.fetch(target, { redirect: 'manual', headers, signal: timed });
    const location = response.headers.get('location');
    if (REDIRECTS.has(response.status) && location) {
      await response.body?.cancel().catch(() => undefined);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { kind: 'missing', why: 'bad_redirect' };
      }
      const refused = refusalOf(next);
      return refused ? { kind: 'refused', why: refused } : { kind: 'redirect', location: next };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const refused = statusRefusal(response.status);
      if (refused) return { kind: 'refused', why: refused };
      if (response.status >= 500) return { kind: 'transient', why: 'status_5xx' };
      if (shortLink && response.status === 404) return { kind: 'transient', why: 'short_link_404' };
      return { kind: 'missing', why: `status_${response.status}` };
    }
    if (!(response.headers.get('content-type') ?? '').includes('text/html')) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'missing', why: 'not_html' };
    }
    return { kind: 'ok', value: { url, html: await readCapped(response, MAX_PAGE_BYTES) } };
  });
}

/** Google's reason for an API error (`API_KEY_INVALID`, `SERVICE_DISABLED`…), when its body names one. */
function errorReason(text: string): string | undefined {
  let body: { error?: { details?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return undefined;
  }
  const details = body?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as Array<{ reason?: unknown } | null>) {
    const reason = detail?.reason;
    // Printed in logs and the CLI's summary: only Google's own upper-case names get through.
    if (typeof reason === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(reason)) return reason;
  }
  return undefined;
}

/**
 * Whether Google refused the key itself rather than the place: an invalid or expired key (400
 * `API_KEY_INVALID`), or a key or project the Places API (New) is not open to (401, 403
 * `PERMISSION_DENIED`: the API not enabled, billing off, the key restricted to other APIs, hosts or
 * apps). Answers Google's reason, or the status when it names none; undefined for a place's own
 * error (400 for an id that is not one).
 */
export function keyRejection(status: number, text: string): string | undefined {
  const reason = errorReason(text);
  if (status === 401 || status === 403) return reason ?? `status_${status}`;
  if (status !== 400) return undefined;
  if (reason?.startsWith('API_KEY_')) return reason;
  return /API key (?:not valid|expired)/.test(text) ? 'API_KEY_INVALID' : undefined;
}

/**
 * Places API (New) `GET /v1/places/{id}` with the `location` field mask. 404 and invalid ids are
 * `missing`; 429 and `RESOURCE_EXHAUSTED` are Google refusing us; a refused key is `key_rejected`
 * ({@link keyRejection}); 5xx and network errors transient.
 */
export function fetchPlaceLocation(
  options: UpstreamOptions,
  placeId: string,
  apiKey: string,
  signal: AbortSignal,
): Promise<Answer<LatLng> | KeyRejected> {
  const url = `${options.placesOrigin}/v1/places/${encodeURIComponent(placeId)}`;
  return guarded(options, signal, async (timed) => {
    const response = await options.fetch(url, {
      redirect: 'error',
      headers: { 'X-Goog-Api-Key': apiKey, 'X-Goog-FieldMask': 'location' },
      signal: timed,
    });
    const text = await readCapped(response, 64 * 1024);
    if (!response.ok) {
      const refused = statusRefusal(response.status);
      if (refused) return { kind: 'refused', why: refused };
      if (text.includes('RESOURCE_EXHAUSTED')) return { kind: 'refused', why: 'quota' };
      const rejected = keyRejection(response.status, text);
      if (rejected) return { kind: 'key_rejected', why: rejected };
      if (response.status >= 500) return { kind: 'transient', why: 'status_5xx' };
      return { kind: 'missing', why: `status_${response.status}` };
    }
    let body: { location?: { latitude?: unknown; longitude?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return { kind: 'missing', why: 'not_json' };
    }
    const lat = body.location?.latitude;
    const lng = body.location?.longitude;
    return typeof lat === 'number' && typeof lng === 'number' && isValidCoordinate(lat, lng)
      ? { kind: 'ok', value: { lat, lng } }
      : { kind: 'missing', why: 'no_location' };
  });
}

/**
 * Reads at most `maxBytes` of a body as text; the rest is dropped unread. The place data sits well
 * inside real pages (under 2 MB), so a cut page still resolves.
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
  return new TextDecoder().decode(Buffer.concat(chunks, Math.min(total, maxBytes)));
}
