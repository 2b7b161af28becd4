import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { coordinatesForCid, coordinatesForFtid, type LatLng } from '../takeout/index.js';
import { distanceMetres } from './geo.js';
import { FAKE_GOOGLE_DISABLED_KEY } from './places-api.js';
import {
  ALL_PAGE_FORMS,
  CAMERA_OFFSET_METRES,
  cidFromPlaceId,
  ftidForCid,
  LEAN_DEFAULT_LOCATION,
  LOCALIZED_PRODUCT_NAMES,
  PAGE_LANGUAGES,
  REAL_PLACE_PAGES,
  PAGE_FORM_EVIDENCE,
  PAGE_FORMS,
  REQUESTER_LOCATION,
  startFakeGoogle,
  UPSTREAM_HOST_HEADER,
  type FakeGoogle,
  type PageForm,
} from './index.js';

const FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CID = '16519582940102929223';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';
const CONSENT = 'CONSENT=YES+cb; SOCS=CAESEwgDEgk0ODE3Nzk3MjQaAmVuIAEaBgiA_LyaBg';
const BY_FTID = `/maps/place/data=!4m2!3m1!1s${FTID}`;

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle();
});
afterAll(() => google.close());
beforeEach(() => google.clearRequests());

function get(host: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${google.url}${path}`, {
    redirect: 'manual',
    headers: { [UPSTREAM_HOST_HEADER]: host, cookie: CONSENT, ...headers },
  });
}

async function pageFor(cid: string, form: PageForm, path = `/maps?cid=${cid}`): Promise<string> {
  google.setPlace(cid, { form });
  try {
    return await (await get('www.google.com', path)).text();
  } finally {
    google.setPlace(cid, {});
  }
}

const NUMBER = '(-?\\d+(?:\\.\\d+)?)';

/** Every `[null,null,<lat>,<lng>],\"<ftid>\"` binding in a page (quotes escaped), in order. */
function bindings(text: string): { lat: number; lng: number; ftid: string; at: number }[] {
  const pattern = new RegExp(
    `\\[null,null,${NUMBER},${NUMBER}\\],\\\\"(0x[0-9a-f]+:0x[0-9a-f]+)\\\\"`,
    'g',
  );
  return [...text.matchAll(pattern)].map((match) => ({
    lat: Number(match[1]),
    lng: Number(match[2]),
    ftid: match[3]!,
    at: match.index,
  }));
}

/** The camera `APP_INITIALIZATION_STATE=[[[<zoom>,<lng>,<lat>]`, latitude first here. */
function camera(text: string): LatLng | undefined {
  const match = new RegExp(
    `APP_INITIALIZATION_STATE=\\[\\[\\[${NUMBER},${NUMBER},${NUMBER}\\]`,
  ).exec(text);
  return match ? { lat: Number(match[3]), lng: Number(match[2]) } : undefined;
}

/** A static-map parameter (`center`, `markers`) as a point. */
function staticParam(text: string, name: string): LatLng | undefined {
  const match = new RegExp(`[?;]${name}=${NUMBER}%2C${NUMBER}`).exec(text);
  return match ? { lat: Number(match[1]), lng: Number(match[2]) } : undefined;
}

describe('fake Google place pages', () => {
  const point = coordinatesForFtid(FTID);

  it('derives the place id reverse mapping used by the Places API', () => {
    expect(cidFromPlaceId(PLACE_ID)).toBe(CID);
    expect(cidFromPlaceId('ChIJnotAPlaceId')).toBeUndefined();
  });

  it('serves the full place-data page by default, binding the pin to the requested ftid', async () => {
    const page = await get('www.google.com', BY_FTID);
    expect(page.status).toBe(200);
    const text = await page.text();
    // Named as real full pages are: the product as <title>, the place in itemprop and og:title.
    expect(text).toMatch(/<title> Google [^<]+ <\/title>/);
    expect(text).toMatch(
      /<meta content="Fake Place 16519582940102929223 · [^"]+" itemprop="name">/,
    );
    expect(text).toMatch(
      /<meta content="Fake Place 16519582940102929223 · [^"]+" property="og:title">/,
    );
    expect(text).toMatch(
      /<meta content="https:\/\/lh5\.googleusercontent\.com\/p\/AF1Qip[\w-]+=w900-h900-k-no" property="og:image">/,
    );
    expect(staticParam(text, 'markers')).toEqual(point);
    expect(distanceMetres(staticParam(text, 'center')!, point)).toBeGreaterThan(150);
    const own = bindings(text).filter((binding) => binding.ftid === FTID);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ lat: point.lat, lng: point.lng });
    // Inside a JavaScript string, as real pages carry it: the quotes are escaped.
    expect(text).toContain(`[null,null,${point.lat},${point.lng}],\\"${FTID}\\"`);
    expect(own[0]!.at).toBeGreaterThan(20_000);
    expect(text.length).toBeLessThan(60_000);
    expect(google.requests[0]).toMatchObject({ host: 'www.google.com', method: 'GET' });
  });

  it('puts the camera 300–800 m from the place, never on it', async () => {
    for (const cid of [CID, '1', '42', '987654321987654321', '18446744073709551615']) {
      const text = await pageFor(cid, 'place-data');
      const view = camera(text);
      expect(view).toBeDefined();
      const metres = distanceMetres(view!, coordinatesForCid(cid));
      expect(metres).toBeGreaterThanOrEqual(CAMERA_OFFSET_METRES.min);
      expect(metres).toBeLessThanOrEqual(CAMERA_OFFSET_METRES.max);
    }
  });

  it('binds nearby places to their own 0x0:0x<cid> ids around the requested place', async () => {
    const text = await (await get('www.google.com', BY_FTID)).text();
    const all = bindings(text);
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const other of all.filter((binding) => binding.ftid !== FTID)) {
      expect(distanceMetres(other, point)).toBeGreaterThan(500);
      // Nearby places carry `0x0:0x<cid>`, as in real pages, never a whole ftid.
      expect(other.ftid).toMatch(/^0x0:0x[0-9a-f]+$/);
    }
    expect(text).toMatch(/\[\[null,null,-?[\d.]+,-?[\d.]+\],\[null,null,/);
  });

  it('writes the ftid the request named, by path or ftid=, and one carrying the CID for cid=', async () => {
    const short = '0x1001:0x2';
    const byPath = await (
      await get('www.google.com', `/maps/place/Some+Place/data=!4m2!3m1!1s${short}`)
    ).text();
    expect(byPath).toContain(
      `[null,null,${coordinatesForCid('2').lat},${coordinatesForCid('2').lng}],\\"${short}\\"`,
    );
    const byQuery = await (
      await get('maps.google.com', `/?ftid=${encodeURIComponent(FTID)}`)
    ).text();
    expect(byQuery).toContain(`[null,null,${point.lat},${point.lng}],\\"${FTID}\\"`);
    for (const path of [`/maps?cid=${CID}`, `/search?q=Somewhere&ludocid=${CID}`]) {
      const text = await (await get('www.google.com', path)).text();
      const ftid = ftidForCid(CID);
      expect(text).toContain(`[null,null,${point.lat},${point.lng}],\\"${ftid}\\"`);
      expect(ftid).toMatch(/^0x[0-9a-f]{16}:0x[0-9a-f]{16}$/);
      expect(BigInt(`0x${ftid.split(':0x')[1]}`).toString()).toBe(CID);
    }
  });

  it('puts markers= on the pin and center= 150–300 m off it in old static-map pages', async () => {
    for (const form of ['og-image', 'itemprop-image'] as const) {
      const text = await pageFor(CID, form);
      expect(text).toContain(form === 'og-image' ? 'property="og:image"' : 'itemprop="image"');
      const markers = staticParam(text, 'markers');
      const center = staticParam(text, 'center');
      expect(markers).toEqual(point);
      expect(text).toContain(`markers=${point.lat}%2C${point.lng}`);
      const metres = distanceMetres(center!, markers!);
      expect(metres).toBeGreaterThanOrEqual(150);
      expect(metres).toBeLessThanOrEqual(300);
      expect(text).not.toContain('[null,null,');
    }
  });

  it('serves a static map with only center=, on the pin', async () => {
    const text = await pageFor(CID, 'static-center-only');
    expect(staticParam(text, 'center')).toEqual(point);
    expect(text).not.toContain('markers=');
  });

  it('serves each form on request, and a cid lookup lands on the same pin', async () => {
    const app = await pageFor(CID, 'app-state');
    expect(app).toContain(`APP_INITIALIZATION_STATE=[[[2233.4,${point.lng},${point.lat}]`);
    expect(app).not.toContain('[null,null,');
    google.setPlace(CID, { form: 'itemprop-image' });
    const itemprop = await (await get('maps.google.com', `/?cid=${CID}`)).text();
    expect(itemprop).toContain('itemprop="image"');
    google.setPlace(CID, { form: 'final-url' });
    const moved = await get('www.google.com', `/maps?cid=${CID}`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toContain(`!3d${point.lat}!4d${point.lng}`);
    google.setPlace(CID, {});
  });

  it('redirects final-url places to a URL carrying the ftid and the pin', async () => {
    google.setPlace(CID, { form: 'final-url' });
    const byFtid = (await get('www.google.com', BY_FTID)).headers.get('location') ?? '';
    expect(byFtid).toContain(`!1s${FTID}!8m2!3d${point.lat}!4d${point.lng}`);
    const byCid = (await get('www.google.com', `/maps?cid=${CID}`)).headers.get('location') ?? '';
    expect(byCid).toContain(`!1s${ftidForCid(CID)}!8m2!3d${point.lat}!4d${point.lng}`);
    google.setPlace(CID, {});
    const landing = await get('www.google.com', new URL(byFtid).pathname);
    expect(landing.status).toBe(200);
    expect(await landing.text()).not.toContain(String(point.lat));
  });

  it('serves the lean page: product-name og:title, no name, a London camera, no place data', async () => {
    const text = await pageFor(CID, 'lean');
    expect(text).toContain('<meta content="Google Maps" property="og:title">');
    expect(text).toContain('<title>Google Maps</title>');
    expect(text).not.toContain('itemprop="name"');
    expect(text).not.toContain('[null,null,');
    expect(text).not.toContain(String(point.lat));
    expect(camera(text)).toEqual(LEAN_DEFAULT_LOCATION);
    const elsewhere = await startFakeGoogle({
      pageForm: 'lean',
      requesterLocation: { lat: 38.7, lng: -9.1 },
    });
    try {
      const lean = await fetch(`${elsewhere.url}${BY_FTID}`, {
        headers: { [UPSTREAM_HOST_HEADER]: 'www.google.com', cookie: CONSENT },
      });
      expect(camera(await lean.text())).toEqual({ lat: 38.7, lng: -9.1 });
    } finally {
      await elsewhere.close();
    }
  });

  it('lists the forms with the evidence each carries', () => {
    expect(ALL_PAGE_FORMS).toEqual([...PAGE_FORMS, 'lean']);
    expect(PAGE_FORMS).not.toContain('lean');
    expect(PAGE_FORM_EVIDENCE['place-data']).toBe('strong');
    expect(PAGE_FORM_EVIDENCE['final-url']).toBe('strong');
    expect(PAGE_FORM_EVIDENCE.lean).toBe('none');
    expect(PAGE_FORMS.filter((form) => PAGE_FORM_EVIDENCE[form] === 'weak')).toEqual([
      'og-image',
      'itemprop-image',
      'static-center-only',
      'app-state',
    ]);
  });

  it('redirects to the EU consent page only without consent cookies', async () => {
    const walled = await get('www.google.com', `/maps?cid=${CID}`, { cookie: '' });
    expect(walled.status).toBe(302);
    expect(walled.headers.get('location')).toMatch(
      /^https:\/\/consent\.google\.com\/ml\?continue=/,
    );
    const open = await get('www.google.com', `/maps?cid=${CID}`);
    expect(open.status).toBe(200);
  });

  it('serves the generic page for unknown places and flagged ones', async () => {
    const unknown = await (await get('www.google.com', '/maps/place/Nowhere')).text();
    expect(unknown).toContain('content="Google Maps" itemprop="name"');
    google.setPlace(CID, { generic: true });
    const flagged = await (await get('www.google.com', `/maps?cid=${CID}`)).text();
    expect(flagged).toContain('content="Google Maps" itemprop="name"');
    expect(flagged).toContain(`center=${REQUESTER_LOCATION.lat}%2C${REQUESTER_LOCATION.lng}`);
    google.setPlace(CID, {});
  });

  it('serves the generic page under each localized product name, with the requester location', async () => {
    expect(LOCALIZED_PRODUCT_NAMES.length).toBeGreaterThanOrEqual(12);
    expect(LOCALIZED_PRODUCT_NAMES).toContain(' Google マップ ');
    expect(new Set(LOCALIZED_PRODUCT_NAMES).size).toBe(LOCALIZED_PRODUCT_NAMES.length);
    for (const name of LOCALIZED_PRODUCT_NAMES) {
      google.setPlace(CID, { genericName: name });
      const text = await (await get('www.google.com', BY_FTID)).text();
      expect(text).toContain(`<title>${name}</title>`);
      expect(text).toContain(`<meta content="${name}" itemprop="name">`);
      expect(text).toContain(`<meta content="${name}" property="og:title">`);
      expect(camera(text)).toEqual(REQUESTER_LOCATION);
      expect(text).not.toContain(String(point.lat));
    }
    google.setPlace(CID, {});
  });

  it('answers failing and slow places as told', async () => {
    google.setPlace(CID, { status: 500 });
    expect((await get('www.google.com', `/maps?cid=${CID}`)).status).toBe(500);
    google.setPlace(CID, { delayMs: 1000 });
    const slow = get('www.google.com', `/maps?cid=${CID}`);
    expect(await stillPendingAfter(slow, get('www.google.com', '/maps?cid=42'))).toBe(true);
    expect((await slow).status).toBe(200);
    google.setPlace(CID, {});
  });

  it('follows registered redirect chains, including ones leaving the allowlist', async () => {
    google.addRedirect('https://maps.app.goo.gl/abc', 'https://goo.gl/maps/def', 301);
    google.addRedirect('https://goo.gl/maps/def', 'https://evil.example/steal');
    const first = await get('maps.app.goo.gl', '/abc');
    expect(first.status).toBe(301);
    expect(first.headers.get('location')).toBe('https://goo.gl/maps/def');
    const second = await get('goo.gl', '/maps/def');
    expect(second.headers.get('location')).toBe('https://evil.example/steal');
    expect((await get('evil.example', '/steal')).status).toBe(404);
  });

  it.each(PAGE_FORMS)('carries the exact pin in the %s form', async (form) => {
    google.setPlace(CID, { form });
    const answer = await get('www.google.com', BY_FTID);
    google.setPlace(CID, {});
    const text = `${answer.headers.get('location') ?? ''}${await answer.text()}`;
    const pins = [
      `[null,null,${point.lat},${point.lng}],"${FTID}"`,
      `markers=${point.lat}%2C${point.lng}`,
      `center=${point.lat}%2C${point.lng}`,
      `[[[2233.4,${point.lng},${point.lat}]`,
      `!3d${point.lat}!4d${point.lng}`,
    ];
    expect(pins.some((pin) => text.includes(pin))).toBe(true);
  });
});

describe('fake Places API (New)', () => {
  const point = coordinatesForFtid(FTID);
  const places = (headers: Record<string, string>) =>
    fetch(`${google.url}/v1/places/${PLACE_ID}`, { headers });

  it('answers the location for a valid key and field mask', async () => {
    const answer = await places({
      'X-Goog-Api-Key': google.apiKey,
      'X-Goog-FieldMask': 'location',
    });
    expect(await answer.json()).toEqual({
      location: { latitude: point.lat, longitude: point.lng },
    });
  });

  it('refuses a wrong key, a key without the Places API and a missing field mask, as Google does', async () => {
    const wrongKey = await places({ 'X-Goog-Api-Key': 'nope', 'X-Goog-FieldMask': 'location' });
    expect(wrongKey.status).toBe(400);
    expect(await wrongKey.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: 'API key not valid. Please pass a valid API key.',
        details: [{ reason: 'API_KEY_INVALID', domain: 'googleapis.com' }, {}],
      },
    });
    const disabled = await places({
      'X-Goog-Api-Key': FAKE_GOOGLE_DISABLED_KEY,
      'X-Goog-FieldMask': 'location',
    });
    expect(disabled.status).toBe(403);
    expect(await disabled.json()).toMatchObject({
      error: { status: 'PERMISSION_DENIED', details: [{ reason: 'SERVICE_DISABLED' }] },
    });
    const noMask = await places({ 'X-Goog-Api-Key': google.apiKey });
    expect(noMask.status).toBe(400);
  });

  it('delays every answer when asked to', async () => {
    const slow = await startFakeGoogle({ delayMs: 1000 });
    const delayed = fetch(`${slow.url}/v1/places/${PLACE_ID}`);
    expect(await stillPendingAfter(delayed, places({}))).toBe(true);
    expect((await delayed).status).toBe(400);
    await slow.close();
  });
});

/** Whether `pending` is still unsettled once `other` has settled: a delay, without timing it. */
async function stillPendingAfter(pending: Promise<unknown>, other: Promise<unknown>) {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  pending.then(mark, mark);
  await other;
  return !settled;
}

/** The Places API id of an ftid (product.md: `0a 12 09 <hi u64 LE> 11 <lo u64 LE>`, base64url). */
function placeIdFromFtid(ftid: string): string {
  const [hi, lo] = ftid.split(':').map((half) => BigInt(half)) as [bigint, bigint];
  const bytes = Buffer.alloc(20);
  bytes.set([0x0a, 0x12, 0x09]);
  bytes.writeBigUInt64LE(hi, 3);
  bytes[11] = 0x11;
  bytes.writeBigUInt64LE(lo, 12);
  return bytes.toString('base64url');
}

describe('real full pages and languages', () => {
  const [real] = REAL_PLACE_PAGES;

  it('serves the real Dutch page, unchanged, for its ftid and its CID', async () => {
    expect(real).toBeDefined();
    const html = real!.html();
    expect(html).toContain('<title> Google Maps </title>');
    expect(html).toContain(`[null,null,44.4490541,26.0888398],\\"${real!.ftid}\\"`);
    for (const path of [`/maps/place/data=!4m2!3m1!1s${real!.ftid}`, `/maps?cid=${real!.cid}`]) {
      expect(await (await get('www.google.com', path)).text()).toBe(html);
    }
    expect(google.coordinatesFor(real!.cid)).toEqual({ lat: 44.4490541, lng: 26.0888398 });
  });

  it("answers the real page's pin from the Places API", async () => {
    const placeId = placeIdFromFtid(real!.ftid);
    const answer = await fetch(`${google.url}/v1/places/${placeId}`, {
      headers: { 'X-Goog-Api-Key': google.apiKey, 'X-Goog-FieldMask': 'location' },
    });
    expect(await answer.json()).toEqual({
      location: { latitude: 44.4490541, longitude: 26.0888398 },
    });
  });

  it('serves full pages in several languages, each titled with the localized product name', async () => {
    const seen = new Set<string>();
    for (let cid = 1; cid <= 2 * PAGE_LANGUAGES.length; cid += 1) {
      const text = await pageFor(String(cid), 'place-data');
      const lang = /<html[^>]* lang="([^"]+)"/.exec(text)?.[1];
      const language = PAGE_LANGUAGES.find((candidate) => candidate.lang === lang);
      expect(language).toBeDefined();
      expect(text).toContain(`<title>${language!.title}</title>`);
      seen.add(lang!);
    }
    expect(seen.size).toBe(PAGE_LANGUAGES.length);
  });

  it('serves every page in one language when asked to', async () => {
    const japanese = await startFakeGoogle({ language: 'ja' });
    try {
      for (const cid of ['1', '2', '3']) {
        const text = await (
          await fetch(`${japanese.url}/maps?cid=${cid}`, {
            headers: { [UPSTREAM_HOST_HEADER]: 'www.google.com', cookie: CONSENT },
          })
        ).text();
        expect(text).toContain('<title> Google マップ </title>');
      }
    } finally {
      await japanese.close();
    }
  });
});
