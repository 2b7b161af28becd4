import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { coordinatesForCid, type LatLng } from '../takeout/index.js';
import { headersOf, listenOnLoopback } from '../fake-stripe/loopback.js';
import { finalPlaceUrl, genericPage, placePage, type PageForm } from './pages.js';
import { cidFromFtid, cidFromPlaceId } from './place-id.js';

/**
 * The header a resolver sets when it sends a request meant for a Google host to this fake through
 * `MAPS_UPSTREAM_ORIGIN`: the original host (`www.google.com`, `maps.app.goo.gl`…). The path and
 * query stay as in the original URL. Without it the fake uses the `Host` header.
 */
export const UPSTREAM_HOST_HEADER = 'x-upstream-host';

/** The API key the fake's Places API accepts by default. */
export const FAKE_GOOGLE_API_KEY = 'fake-google-maps-key';

/** What the generic page shows by default: the "requester's location" a resolver must never use. */
export const REQUESTER_LOCATION: LatLng = { lat: 52.520008, lng: 13.404954 };

/** How the fake answers for one place (by CID), overriding its defaults. */
export interface PlaceBehaviour {
  /** The form the page carries the pin in. */
  form?: PageForm;
  /** Serve the generic "Google Maps" page (and 404 from the Places API). */
  generic?: boolean;
  /** Answer with this HTTP status instead (e.g. 500, 429). */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /**
   * Never answer: the request stays open until the client gives up or the fake closes. Tests of
   * timeouts use it so that only the timeout under test can end them, however slow the machine.
   */
  hang?: boolean;
  /** Coordinates other than the generator's. */
  coordinates?: LatLng;
}

/** One request the fake received. `host` is the original host the resolver meant. */
export interface RecordedGoogleRequest {
  method: string;
  host: string;
  path: string;
  headers: Record<string, string>;
}

/** Options for {@link startFakeGoogle}. */
export interface FakeGoogleOptions {
  /** Delay before every response (the benchmark uses 100 ms). */
  delayMs?: number;
  /** The default page form. */
  pageForm?: PageForm;
  /** The key the Places API accepts. */
  apiKey?: string;
  /** Answer place pages with the EU consent redirect unless CONSENT or SOCS cookies are sent (default true). */
  requireConsent?: boolean;
  /** What the generic page shows. */
  requesterLocation?: LatLng;
}

/** A running fake Google upstream: place pages, short links and the Places API (New). */
export interface FakeGoogle {
  /** `http://127.0.0.1:<port>`: give it as `MAPS_UPSTREAM_ORIGIN` and `PLACES_API_ORIGIN`. */
  url: string;
  port: number;
  apiKey: string;
  readonly requests: readonly RecordedGoogleRequest[];
  /** Sets how one place (by CID, decimal) is answered. */
  setPlace(cid: string, behaviour: PlaceBehaviour): void;
  /** Makes `from` (an absolute URL on any host) redirect to `to` (any absolute URL). */
  addRedirect(from: string, to: string, status?: number): void;
  /** Where the fake says this CID is. */
  coordinatesFor(cid: string): LatLng;
  clearRequests(): void;
  close(): Promise<void>;
}

/** What a hanging answer awaits: no timer, so nothing but the closing server ends the request. */
const NEVER = new Promise<void>(() => undefined);

const GOOGLE_HOST = /^(?:(?:www|maps)\.)?google\.(?:com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;
const PLACES_PATH = /^\/v1\/places\/([^/?]+)$/;

function hasConsentCookie(request: IncomingMessage): boolean {
  const cookie = request.headers.cookie ?? '';
  return /(?:^|;\s*)(?:CONSENT=YES|SOCS=)/.test(cookie);
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

function html(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' });
  response.end(body);
}

function redirect(response: ServerResponse, location: string, status = 302): void {
  response.writeHead(status, { location, 'content-type': 'text/html; charset=UTF-8' });
  response.end(`<html><body>Moved <a href="${location}">here</a></body></html>`);
}

function googleError(
  response: ServerResponse,
  code: number,
  status: string,
  message: string,
): void {
  json(response, code, { error: { code, message, status } });
}

/** The CID a place-page URL names: an ftid in the path or `ftid=`, or `cid=` / `ludocid=`. */
function cidOfPage(url: URL): string | undefined {
  const fromFtid = cidFromFtid(decodeURIComponent(url.pathname) + url.search);
  if (fromFtid) return fromFtid;
  const cid = url.searchParams.get('cid') ?? url.searchParams.get('ludocid');
  return cid && /^\d{1,20}$/.test(cid) && BigInt(cid) > 0n ? BigInt(cid).toString(10) : undefined;
}

/**
 * Starts a fake Google upstream on 127.0.0.1 (random port). It serves place pages for any ftid or CID
 * at the testkit generator's coordinates (`coordinatesForCid`), in each form a real page carries the
 * pin; the generic "Google Maps" page for unknown places; the EU consent redirect when the consent
 * cookies are missing; redirects registered with `addRedirect` (short-link chains); per-place slow,
 * failing and generic answers; and the Places API (New) `GET /v1/places/{id}`, checking the key and
 * field mask. Every request is recorded. See {@link UPSTREAM_HOST_HEADER} for how hosts are named.
 */
export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const apiKey = options.apiKey ?? FAKE_GOOGLE_API_KEY;
  const defaultForm = options.pageForm ?? 'og-image';
  const requireConsent = options.requireConsent ?? true;
  const requester = options.requesterLocation ?? REQUESTER_LOCATION;
  const requests: RecordedGoogleRequest[] = [];
  const places = new Map<string, PlaceBehaviour>();
  const redirects = new Map<string, { to: string; status: number }>();

  const coordinatesFor = (cid: string): LatLng =>
    places.get(cid)?.coordinates ?? coordinatesForCid(cid);

  async function answerPlacesApi(
    request: IncomingMessage,
    response: ServerResponse,
    placeId: string,
  ): Promise<void> {
    if (request.headers['x-goog-api-key'] !== apiKey) {
      googleError(
        response,
        403,
        'PERMISSION_DENIED',
        'API key not valid. Please pass a valid API key.',
      );
      return;
    }
    const mask = request.headers['x-goog-fieldmask'];
    if (typeof mask !== 'string' || mask.trim() === '') {
      googleError(
        response,
        400,
        'INVALID_ARGUMENT',
        'FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it.',
      );
      return;
    }
    const cid = cidFromPlaceId(decodeURIComponent(placeId));
    if (!cid) {
      googleError(response, 400, 'INVALID_ARGUMENT', `Not a valid Place ID: ${placeId}`);
      return;
    }
    const behaviour = places.get(cid) ?? {};
    if (behaviour.hang) return NEVER;
    if (behaviour.delayMs) await sleep(behaviour.delayMs);
    if (behaviour.status) {
      googleError(
        response,
        behaviour.status,
        'UNAVAILABLE',
        'The service is currently unavailable.',
      );
      return;
    }
    if (behaviour.generic) {
      googleError(response, 404, 'NOT_FOUND', `Place ID ${placeId} was not found.`);
      return;
    }
    const fields = mask.split(',').map((name) => name.trim());
    const point = coordinatesFor(cid);
    const body: Record<string, unknown> = {};
    if (fields.includes('*') || fields.includes('id')) body.id = placeId;
    if (fields.includes('*') || fields.includes('location')) {
      body.location = { latitude: point.lat, longitude: point.lng };
    }
    json(response, 200, body);
  }

  async function answerPage(
    request: IncomingMessage,
    response: ServerResponse,
    host: string,
    url: URL,
  ): Promise<void> {
    if (requireConsent && !hasConsentCookie(request)) {
      const original = `https://${host}${url.pathname}${url.search}`;
      redirect(
        response,
        `https://consent.google.com/ml?continue=${encodeURIComponent(original)}&gl=DE&hl=en&pc=m&src=1`,
      );
      return;
    }
    if (url.pathname.includes('!3d')) {
      const name = decodeURIComponent(url.pathname.split('/')[3] ?? 'Place');
      html(response, 200, placePage(name, requester, 'final-url'));
      return;
    }
    const cid = cidOfPage(url);
    if (!cid) {
      html(response, 200, genericPage(requester));
      return;
    }
    const behaviour = places.get(cid) ?? {};
    if (behaviour.hang) return NEVER;
    if (behaviour.delayMs) await sleep(behaviour.delayMs);
    if (behaviour.status) {
      html(response, behaviour.status, '<html><body>Error</body></html>');
      return;
    }
    if (behaviour.generic) {
      html(response, 200, genericPage(requester));
      return;
    }
    const name = `Fake Place ${cid}`;
    const point = coordinatesFor(cid);
    const form = behaviour.form ?? defaultForm;
    if (form === 'final-url') {
      redirect(response, finalPlaceUrl(name, point));
      return;
    }
    html(response, 200, placePage(name, point, form));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const forwarded = request.headers[UPSTREAM_HOST_HEADER];
    const host = (typeof forwarded === 'string' ? forwarded : (request.headers.host ?? ''))
      .toLowerCase()
      .replace(/:\d+$/, '');
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    requests.push({
      method: request.method ?? 'GET',
      host,
      path: `${url.pathname}${url.search}`,
      headers: headersOf(request),
    });
    if (options.delayMs) await sleep(options.delayMs);

    const places = PLACES_PATH.exec(url.pathname);
    if (places) {
      await answerPlacesApi(request, response, places[1]!);
      return;
    }
    const registered = redirects.get(`${host}${url.pathname}${url.search}`);
    if (registered) {
      redirect(response, registered.to, registered.status);
      return;
    }
    if (GOOGLE_HOST.test(host)) {
      await answerPage(request, response, host, url);
      return;
    }
    html(response, 404, `<html><body>The fake Google does not serve ${host}</body></html>`);
  }

  const server = await listenOnLoopback(handle, () => '');

  return {
    url: server.url,
    port: server.port,
    apiKey,
    requests,
    setPlace: (cid, behaviour) => places.set(cid, behaviour),
    addRedirect: (from, to, status = 302) => {
      const source = new URL(from);
      redirects.set(`${source.hostname}${source.pathname}${source.search}`, { to, status });
    },
    coordinatesFor,
    clearRequests: () => {
      requests.length = 0;
    },
    close: server.close,
  };
}
