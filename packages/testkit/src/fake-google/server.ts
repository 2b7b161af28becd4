import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { coordinatesForCid, type LatLng } from '../takeout/index.js';
import { headersOf, listenOnLoopback } from '../fake-stripe/loopback.js';
import { findFtid, ftidForCid } from './ftid.js';
import { errorPage, redirect, send } from './http.js';
import {
  escapeHtml,
  finalPlaceUrl,
  genericPage,
  LEAN_DEFAULT_LOCATION,
  placePage,
  type PageForm,
} from './pages.js';
import { cidFromFtid } from './place-id.js';
import { PAGE_LANGUAGES, type PageLanguage } from './localized.js';
import { realPageForCid } from './real-pages.js';
import { answerPlacesApi, NEVER, type PlacesApiBehaviour } from './places-api.js';
import {
  answerThrottled,
  consentPage,
  consentUrl,
  sorryPage,
  type ThrottleMode,
} from './throttle.js';

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
  /**
   * Serve the generic page under this product name (e.g. " Google マップ ", see
   * `LOCALIZED_PRODUCT_NAMES`); implies `generic`.
   */
  genericName?: string;
  /** Answer with this HTTP status instead (e.g. 500), on the page and the Places API. */
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
  /**
   * Refuse the client for this place's page: `sorry` and `consent` redirect (consent even with
   * the cookies), 429 (with `Retry-After: 30`) and 503 answer so, on the Places API too.
   */
  throttle?: ThrottleMode;
  /**
   * The first this many requests for the place's page fail with 404, then it answers normally (a
   * transient failure). Counted from the `setPlace` call; the Places API is not affected.
   */
  failTimes?: number;
  /** Serve exactly this body with 200 as the place's page (adversarial HTML). */
  body?: string;
  /** The content type of `body` (default `text/html; charset=UTF-8`). */
  contentType?: string;
  /** How the Places API answers for this place. */
  placesApi?: PlacesApiBehaviour;
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
  /** The default page form (default `place-data`). */
  pageForm?: PageForm;
  /** What generic pages show, and where lean pages look (default: London for lean pages). */
  requesterLocation?: LatLng;
  /**
   * The `lang` of `PAGE_LANGUAGES` every full page is served in (default: one per place, chosen by
   * its CID, so a run sees several).
   */
  language?: string;
}

/** Options of a registered redirect. */
export interface RedirectOptions {
  /** The first this many requests 404 before it redirects (a short link's transient 404). */
  failTimes?: number;
}

/** A running fake Google upstream: place pages, short links and the Places API (New). */
export interface FakeGoogle {
  /** `http://127.0.0.1:<port>`: give it as `MAPS_UPSTREAM_ORIGIN` and `PLACES_API_ORIGIN`. */
  url: string;
  port: number;
  apiKey: string;
  readonly requests: readonly RecordedGoogleRequest[];
  /** Sets how one place (by CID, decimal) is answered; resets its `failTimes` count. */
  setPlace(cid: string, behaviour: PlaceBehaviour): void;
  /** Makes `from` (an absolute URL on any host) redirect to `to` (any absolute URL). */
  addRedirect(from: string, to: string, status?: number, options?: RedirectOptions): void;
  /**
   * Refuses every place page (known, unknown and generic alike) in this mode until called with
   * `undefined`; 429 and 503 also refuse the Places API. Registered redirects still answer.
   */
  setThrottleAll(mode: ThrottleMode | undefined): void;
  /** Where the fake says this CID is. */
  coordinatesFor(cid: string): LatLng;
  /** How many recorded requests match `predicate` (all of them without one). */
  count(predicate?: (request: RecordedGoogleRequest) => boolean): number;
  clearRequests(): void;
  close(): Promise<void>;
}

const GOOGLE_HOST = /^(?:(?:www|maps)\.)?google\.(?:com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;
const PLACES_PATH = /^\/v1\/places\/([^/?]+)$/;

function hasConsentCookie(request: IncomingMessage): boolean {
  const cookie = request.headers.cookie ?? '';
  return /(?:^|;\s*)(?:CONSENT=YES|SOCS=)/.test(cookie);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The place a page URL names: an ftid in the path or `ftid=` (its CID), or `cid=` / `ludocid=`. */
function subjectOf(url: URL): { cid: string; ftid?: string } | undefined {
  const ftid =
    findFtid(safeDecode(url.pathname)) ??
    findFtid(url.searchParams.get('ftid') ?? '') ??
    findFtid(safeDecode(url.search));
  const fromFtid = ftid ? cidFromFtid(ftid) : undefined;
  if (ftid && fromFtid) return { cid: fromFtid, ftid };
  const cid = url.searchParams.get('cid') ?? url.searchParams.get('ludocid');
  return cid && /^\d{1,20}$/.test(cid) && BigInt(cid) > 0n && BigInt(cid) < 1n << 64n
    ? { cid: BigInt(cid).toString(10) }
    : undefined;
}

/** Firebase Dynamic Links' answer for a short link it does not (yet) know. */
const LINK_NOT_FOUND = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Dynamic Link Not Found</title></head><body><h1>Dynamic Link Not Found</h1><p>The requested URL was not found on this server.</p></body></html>`;

interface Redirect {
  to: string;
  status: number;
  failuresLeft: number;
}

/**
 * Starts a fake Google upstream on 127.0.0.1 (random port). It serves place pages for any ftid or CID
 * at the testkit generator's coordinates (`coordinatesForCid`), in each form a real page comes in
 * (`PageForm`; by default the full `place-data` page that binds the pin to the requested ftid);
 * the real full pages of `REAL_PLACE_PAGES` for their places, unchanged; the generic "Google Maps"
 * page (localized on request) for unknown places; the EU consent redirect
 * when the consent cookies are missing; redirects registered with `addRedirect` (short-link chains,
 * optionally failing first); per-place slow, hanging, failing, throttled, generic and raw-body
 * answers; a global throttle; and the Places API (New) `GET /v1/places/{id}`, checking the key and
 * field mask. Every request is recorded. See {@link UPSTREAM_HOST_HEADER} for how hosts are named.
 */
export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const apiKey = FAKE_GOOGLE_API_KEY;
  const defaultForm = options.pageForm ?? 'place-data';
  const requester = options.requesterLocation ?? REQUESTER_LOCATION;
  const leanLocation = options.requesterLocation ?? LEAN_DEFAULT_LOCATION;
  const requests: RecordedGoogleRequest[] = [];
  const places = new Map<string, PlaceBehaviour>();
  const failuresLeft = new Map<string, number>();
  const redirects = new Map<string, Redirect>();
  let throttleAll: ThrottleMode | undefined;

  const coordinatesFor = (cid: string): LatLng =>
    places.get(cid)?.coordinates ?? realPageForCid(cid)?.point ?? coordinatesForCid(cid);
  const languageOf = (cid: string): PageLanguage =>
    PAGE_LANGUAGES.find((language) => language.lang === options.language) ??
    PAGE_LANGUAGES[Number(BigInt(cid) % BigInt(PAGE_LANGUAGES.length))]!;

  /** Whether this request for `cid` is one of its first `failTimes`, counting it if so. */
  function failsNow(cid: string): boolean {
    const left = failuresLeft.get(cid) ?? 0;
    if (left <= 0) return false;
    failuresLeft.set(cid, left - 1);
    return true;
  }

  async function answerPage(
    request: IncomingMessage,
    response: ServerResponse,
    host: string,
    url: URL,
  ): Promise<void> {
    const original = `https://${host}${url.pathname}${url.search}`;
    if (url.pathname.startsWith('/sorry/')) {
      sorryPage(response);
      return;
    }
    if (throttleAll !== undefined) {
      answerThrottled(response, throttleAll, original);
      return;
    }
    if (!hasConsentCookie(request)) {
      redirect(response, consentUrl(original));
      return;
    }
    if (url.pathname.includes('!3d')) {
      const name = safeDecode(url.pathname.split('/')[3] ?? 'Place');
      send(
        response,
        200,
        placePage({ name, point: requester, ftid: '' }, 'final-url', leanLocation),
      );
      return;
    }
    const subject = subjectOf(url);
    if (!subject) {
      send(response, 200, genericPage(requester));
      return;
    }
    const { cid } = subject;
    const behaviour = places.get(cid) ?? {};
    if (behaviour.hang) return NEVER;
    if (behaviour.delayMs) await sleep(behaviour.delayMs);
    if (behaviour.throttle !== undefined) {
      answerThrottled(response, behaviour.throttle, original);
      return;
    }
    if (failsNow(cid)) {
      send(response, 404, errorPage(404));
      return;
    }
    if (behaviour.status) {
      send(response, behaviour.status, errorPage(behaviour.status));
      return;
    }
    if (behaviour.body !== undefined) {
      send(response, 200, behaviour.body, {
        'content-type': behaviour.contentType ?? 'text/html; charset=UTF-8',
      });
      return;
    }
    if (behaviour.generic || behaviour.genericName !== undefined) {
      send(response, 200, genericPage(requester, behaviour.genericName));
      return;
    }
    const real = realPageForCid(cid);
    if (real && behaviour.form === undefined && behaviour.coordinates === undefined) {
      send(response, 200, real.html());
      return;
    }
    const name = `Fake Place ${cid}`;
    const point = coordinatesFor(cid);
    const ftid = subject.ftid ?? ftidForCid(cid, point);
    const form = behaviour.form ?? defaultForm;
    if (form === 'final-url') {
      redirect(response, finalPlaceUrl(name, point, ftid));
      return;
    }
    send(
      response,
      200,
      placePage({ name, point, ftid, language: languageOf(cid) }, form, leanLocation),
    );
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

    const placesPath = PLACES_PATH.exec(url.pathname);
    if (placesPath) {
      const context = {
        apiKey,
        behaviourOf: (cid: string) => places.get(cid) ?? {},
        coordinatesFor,
        throttleAll: () => throttleAll,
      };
      await answerPlacesApi(context, request, response, safeDecode(placesPath[1]!));
      return;
    }
    const registered = redirects.get(`${host}${url.pathname}${url.search}`);
    if (registered) {
      if (registered.failuresLeft > 0) {
        registered.failuresLeft -= 1;
        send(response, 404, LINK_NOT_FOUND);
        return;
      }
      redirect(response, registered.to, registered.status);
      return;
    }
    if (host === 'consent.google.com') {
      consentPage(response);
      return;
    }
    if (GOOGLE_HOST.test(host)) {
      await answerPage(request, response, host, url);
      return;
    }
    send(
      response,
      404,
      `<html><body>The fake Google does not serve ${escapeHtml(host)}</body></html>`,
    );
  }

  const server = await listenOnLoopback(handle, () => '');

  return {
    url: server.url,
    port: server.port,
    apiKey,
    requests,
    setPlace: (cid, behaviour) => {
      places.set(cid, behaviour);
      failuresLeft.set(cid, behaviour.failTimes ?? 0);
    },
    addRedirect: (from, to, status = 302, redirectOptions = {}) => {
      const source = new URL(from);
      redirects.set(`${source.hostname}${source.pathname}${source.search}`, {
        to,
        status,
        failuresLeft: redirectOptions.failTimes ?? 0,
      });
    },
    setThrottleAll: (mode) => {
      throttleAll = mode;
    },
    coordinatesFor,
    count: (predicate) =>
      predicate ? requests.filter((request) => predicate(request)).length : requests.length,
    clearRequests: () => {
      requests.length = 0;
    },
    close: server.close,
  };
}
