import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { coordinatesForCid } from '../takeout/index.js';
import {
  adversarialPage,
  startFakeGoogle,
  THROTTLE_MODES,
  UPSTREAM_HOST_HEADER,
  type FakeGoogle,
} from './index.js';

const CID = '16519582940102929223';
const OTHER_CIDS = ['42', '4242', '987654321'];
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';
const CONSENT = 'CONSENT=YES+cb; SOCS=CAESEwgDEgk0ODE3Nzk3MjQaAmVuIAEaBgiA_LyaBg';

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle();
});
afterAll(() => google.close());
beforeEach(() => {
  google.clearRequests();
  google.setThrottleAll(undefined);
  for (const cid of [CID, ...OTHER_CIDS]) google.setPlace(cid, {});
});

function get(
  path: string,
  host = 'www.google.com',
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${google.url}${path}`, {
    redirect: 'manual',
    signal: init.signal,
    headers: { [UPSTREAM_HOST_HEADER]: host, cookie: CONSENT, ...init.headers },
  });
}

function places(placeId = PLACE_ID): Promise<Response> {
  return fetch(`${google.url}/v1/places/${placeId}`, {
    headers: { 'X-Goog-Api-Key': google.apiKey, 'X-Goog-FieldMask': 'location' },
  });
}

/** Resolves once the fake has recorded `count` requests (no timer: the test timeout ends a hang). */
async function recorded(count: number): Promise<void> {
  while (google.count() < count) await new Promise((resolve) => setImmediate(resolve));
}

describe('throttled places', () => {
  const page = `/maps?cid=${CID}`;
  const original = `https://www.google.com${page}`;

  it('redirects to the /sorry/ page with continue= and q=', async () => {
    google.setPlace(CID, { throttle: 'sorry' });
    const answer = await get(page);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('https://www.google.com/sorry/index');
    expect(location.searchParams.get('continue')).toBe(original);
    expect(location.searchParams.get('q')).toMatch(/^[\w-]+$/);
    const sorry = await get(`${location.pathname}${location.search}`);
    expect(sorry.status).toBe(429);
    expect(await sorry.text()).toContain('unusual traffic');
  });

  it('redirects to the consent wall even with consent cookies', async () => {
    google.setPlace(CID, { throttle: 'consent' });
    const answer = await get(page);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.origin).toBe('https://consent.google.com');
    expect(location.pathname).toBe('/ml');
    expect(location.searchParams.get('continue')).toBe(original);
    const wall = await get(`${location.pathname}${location.search}`, 'consent.google.com');
    expect(wall.status).toBe(200);
    expect(await wall.text()).not.toContain(String(coordinatesForCid(CID).lat));
  });

  it('answers 429 with Retry-After: 30 and 503, with small bodies', async () => {
    google.setPlace(CID, { throttle: 429 });
    const tooMany = await get(page);
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('30');
    expect((await tooMany.text()).length).toBeLessThan(2048);
    google.setPlace(CID, { throttle: 503 });
    const unavailable = await get(page);
    expect(unavailable.status).toBe(503);
    expect((await unavailable.text()).length).toBeLessThan(2048);
  });

  it('refuses the Places API with RESOURCE_EXHAUSTED for 429 and UNAVAILABLE for 503', async () => {
    google.setPlace(CID, { throttle: 429 });
    const tooMany = await places();
    expect(tooMany.status).toBe(429);
    const body = (await tooMany.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(body.error.message).toMatch(/^Quota exceeded/);
    google.setPlace(CID, { throttle: 503 });
    const unavailable = await places();
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
    google.setPlace(CID, { throttle: 'sorry' });
    expect((await places()).status).toBe(200);
  });
});

describe('setThrottleAll', () => {
  it.each(THROTTLE_MODES)('refuses every place page in mode %s until cleared', async (mode) => {
    google.setThrottleAll(mode);
    const paths = [...OTHER_CIDS.map((cid) => `/maps?cid=${cid}`), '/maps/place/Nowhere'];
    for (const path of paths) {
      const answer = await get(path);
      if (typeof mode === 'number') expect(answer.status).toBe(mode);
      else {
        expect(answer.status).toBe(302);
        expect(answer.headers.get('location')).toContain(
          mode === 'sorry'
            ? 'https://www.google.com/sorry/index?continue='
            : 'https://consent.google.com/ml?continue=',
        );
      }
    }
    const api = await places();
    expect(api.status).toBe(typeof mode === 'number' ? mode : 200);
    expect(google.count((request) => request.host === 'www.google.com')).toBe(paths.length);
    expect(google.count((request) => request.path.startsWith('/v1/places/'))).toBe(1);
    expect(google.count()).toBe(paths.length + 1);
    google.setThrottleAll(undefined);
    expect((await get(`/maps?cid=${OTHER_CIDS[0]}`)).status).toBe(200);
    expect((await places()).status).toBe(200);
  });

  it('leaves registered short links answering', async () => {
    google.addRedirect('https://maps.app.goo.gl/Kept', `https://www.google.com/maps?cid=${CID}`);
    google.setThrottleAll('sorry');
    expect((await get('/Kept', 'maps.app.goo.gl')).status).toBe(302);
    expect((await get(`/maps?cid=${CID}`)).headers.get('location')).toContain('/sorry/index');
  });
});

describe('transient failures', () => {
  it('fails a place failTimes times with 404, then answers normally', async () => {
    google.setPlace(CID, { failTimes: 2 });
    expect((await get(`/maps?cid=${CID}`)).status).toBe(404);
    expect((await get(`/maps?cid=${CID}`)).status).toBe(404);
    expect((await get(`/maps?cid=${CID}`)).status).toBe(200);
    expect((await get(`/maps?cid=${CID}`)).status).toBe(200);
  });

  it('lets a short link 404 failTimes times before redirecting', async () => {
    const target = `https://www.google.com/maps?cid=${CID}`;
    google.addRedirect('https://maps.app.goo.gl/Flaky', target, 302, { failTimes: 2 });
    const first = await get('/Flaky', 'maps.app.goo.gl');
    expect(first.status).toBe(404);
    expect(first.headers.get('location')).toBeNull();
    expect((await get('/Flaky', 'maps.app.goo.gl')).status).toBe(404);
    const third = await get('/Flaky', 'maps.app.goo.gl');
    expect(third.status).toBe(302);
    expect(third.headers.get('location')).toBe(target);
  });
});

describe('raw bodies', () => {
  it('serves exactly the body given, with its content type', async () => {
    google.setPlace(CID, { body: '<p>only this</p>', contentType: 'text/plain; charset=UTF-8' });
    const answer = await get(`/maps?cid=${CID}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(await answer.text()).toBe('<p>only this</p>');
  });

  it('serves a 3 MiB adversarial body byte for byte', async () => {
    const body = adversarialPage('meta-without-close');
    google.setPlace(CID, { body });
    const answer = await get(`/maps?cid=${CID}`);
    expect(answer.headers.get('content-length')).toBe(String(3 * 1024 * 1024));
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(bytes.length).toBe(3 * 1024 * 1024);
    expect(bytes.toString('utf8') === body).toBe(true);
  });
});

describe('Places API per place', () => {
  it('answers 404 NOT_FOUND with Google’s body', async () => {
    google.setPlace(CID, { placesApi: { notFound: true } });
    const answer = await places();
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
    });
    expect((await get(`/maps?cid=${CID}`)).status).toBe(200);
  });

  it('answers the status it is given, leaving the page alone', async () => {
    google.setPlace(CID, { placesApi: { status: 500 } });
    const answer = await places();
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    expect((await get(`/maps?cid=${CID}`)).status).toBe(200);
  });

  it('answers 404 for generic places, localized or not', async () => {
    google.setPlace(CID, { genericName: 'Google 地图' });
    expect((await places()).status).toBe(404);
  });
});

describe('hanging places', () => {
  it('keeps a page open until the client aborts', async () => {
    google.setPlace(CID, { hang: true });
    const controller = new AbortController();
    const pending = get(`/maps?cid=${CID}`, 'www.google.com', { signal: controller.signal });
    await recorded(1);
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('keeps a Places API answer open until the fake closes', async () => {
    const own = await startFakeGoogle();
    own.setPlace(CID, { hang: true });
    const pending = fetch(`${own.url}/v1/places/${PLACE_ID}`, {
      headers: { 'X-Goog-Api-Key': own.apiKey, 'X-Goog-FieldMask': 'location' },
    });
    while (own.count() < 1) await new Promise((resolve) => setImmediate(resolve));
    await own.close();
    await expect(pending).rejects.toThrow();
  });
});
