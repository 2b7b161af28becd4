import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { coordinatesForFtid } from '../takeout/index.js';
import { cidFromPlaceId, startFakeGoogle, UPSTREAM_HOST_HEADER, type FakeGoogle } from './index.js';

const FTID = '0x14e732fd76f0d90d:0xe5415928d6702b47';
const CID = '16519582940102929223';
const PLACE_ID = 'ChIJDdnwdv0y5xQRRytw1ihZQeU';
const CONSENT = 'CONSENT=YES+cb; SOCS=CAESEwgDEgk0ODE3Nzk3MjQaAmVuIAEaBgiA_LyaBg';

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

describe('fake Google place pages', () => {
  const point = coordinatesForFtid(FTID);

  it('derives the place id reverse mapping used by the Places API', () => {
    expect(cidFromPlaceId(PLACE_ID)).toBe(CID);
    expect(cidFromPlaceId('ChIJnotAPlaceId')).toBeUndefined();
  });

  it('serves the og:image form for an ftid, at the generator coordinates', async () => {
    const page = await get('www.google.com', `/maps/place/data=!4m2!3m1!1s${FTID}`);
    const text = await page.text();
    expect(text).toContain(`center=${point.lat}%2C${point.lng}`);
    expect(text).toContain('property="og:image"');
    expect(google.requests[0]).toMatchObject({ host: 'www.google.com', method: 'GET' });
  });

  it('serves each form on request, and a cid lookup lands on the same pin', async () => {
    google.setPlace(CID, { form: 'app-state' });
    const app = await (await get('www.google.com', `/maps?cid=${CID}`)).text();
    expect(app).toContain(`APP_INITIALIZATION_STATE=[[[2233.4,${point.lng},${point.lat}]`);
    google.setPlace(CID, { form: 'itemprop-image' });
    const itemprop = await (await get('maps.google.com', `/?cid=${CID}`)).text();
    expect(itemprop).toContain('itemprop="image"');
    google.setPlace(CID, { form: 'final-url' });
    const moved = await get('www.google.com', `/maps?cid=${CID}`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toContain(`!3d${point.lat}!4d${point.lng}`);
    google.setPlace(CID, {});
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
    google.setPlace(CID, {});
  });

  it('answers failing and slow places as told', async () => {
    google.setPlace(CID, { status: 500 });
    expect((await get('www.google.com', `/maps?cid=${CID}`)).status).toBe(500);
    google.setPlace(CID, { delayMs: 150 });
    const started = Date.now();
    await get('www.google.com', `/maps?cid=${CID}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
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

  it('refuses a wrong key and a missing field mask', async () => {
    const wrongKey = await places({ 'X-Goog-Api-Key': 'nope', 'X-Goog-FieldMask': 'location' });
    expect(wrongKey.status).toBe(403);
    const noMask = await places({ 'X-Goog-Api-Key': google.apiKey });
    expect(noMask.status).toBe(400);
  });

  it('delays every answer when asked to', async () => {
    const slow = await startFakeGoogle({ delayMs: 100 });
    const started = Date.now();
    await fetch(`${slow.url}/v1/places/${PLACE_ID}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    await slow.close();
  });
});
