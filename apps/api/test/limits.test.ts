import { startFakeGoogle, type FakeGoogle } from '@placeport/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from '@placeport/resolver';
import { FREE_TIER_MAX_URLS, MAX_URLS_PER_CALL } from '@placeport/contract';
import { FREE_BODY_LIMIT_BYTES, RESOLVE_BODY_LIMIT_BYTES } from '../src/routes/resolve.js';
import { CookieJars, demoApp, placeLinks, settingsFor, UNLIMITED } from './support.js';

let app: FastifyInstance;
let jars = new CookieJars();
let google: FakeGoogle;
beforeAll(async () => {
  google = await startFakeGoogle();
});
afterAll(() => google.close());
afterEach(async () => {
  await app?.close();
  jars = new CookieJars();
});

/** One browser's request: its cookies sent, and the ones the API sets kept. */
async function send(url: string, payload: unknown, raw = false) {
  const cookie = jars.header();
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: raw ? (payload as string) : JSON.stringify(payload),
  });
  const set = response.headers['set-cookie'];
  jars.keep('me', set === undefined ? [] : Array.isArray(set) ? set : [set]);
  return response;
}

/** Distinct links that already carry their pin, so no upstream is needed to resolve them. */
function pinnedLinks(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `https://www.google.com/maps/place/P${i}/data=!3d${(i % 80) + 1}.5!4d${(i % 170) + 1}.25`,
  );
}

/**
 * The demo app looking places up at the fake Google: only links that need a lookup count against
 * an allowance, so the allowance tests send those ({@link placeLinks}).
 */
function demoAppWithGoogle(): Promise<FastifyInstance> {
  return demoApp({
    rateLimits: UNLIMITED,
    settings: settingsFor({ MAPS_UPSTREAM_ORIGIN: google.url }),
  });
}

async function resolve(urls: string[], paymentIntentId?: string) {
  const response = await send('/api/resolve-urls-batch', {
    urls,
    ...(paymentIntentId ? { paymentIntentId } : {}),
  });
  return { status: response.statusCode, body: response.json() };
}

async function paidIntent(places: number): Promise<string> {
  const created = await send('/api/create-payment-intent', { amount: places / 10 });
  const { paymentIntentId } = created.json();
  await send('/api/demo/authorize', { paymentIntentId });
  return paymentIntentId;
}

describe('resolution batch limits', () => {
  it(`resolves ${FREE_TIER_MAX_URLS} links without a payment and refuses ${FREE_TIER_MAX_URLS + 1}`, async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const atLimit = await resolve(pinnedLinks(FREE_TIER_MAX_URLS));
    expect(atLimit.status).toBe(200);
    expect(Object.keys(atLimit.body.results)).toHaveLength(FREE_TIER_MAX_URLS);
    const over = await resolve(pinnedLinks(FREE_TIER_MAX_URLS + 1));
    expect(over.status).toBe(402);
    expect(over.body.error.code).toBe('payment_required');
  });

  it('counts the raw list without a payment: 1,000 copies of one link are 1,000 links', async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const [link] = pinnedLinks(1);
    expect((await resolve([link!, link!])).status).toBe(200);
    const copies = await resolve(Array.from({ length: FREE_TIER_MAX_URLS + 1 }, () => link!));
    expect(copies.status).toBe(402);
  });

  it('counts distinct links with a payment: a repeated link costs nothing', async () => {
    app = await demoAppWithGoogle();
    const id = await paidIntent(5);
    const links = placeLinks(5);
    expect((await resolve([...links, ...links], id)).status).toBe(200);
    expect((await resolve(links, id)).status).toBe(200);
    expect((await resolve(placeLinks(1, 5), id)).status).toBe(403);
  });

  it("resolves a paid batch up to the intent's place count, and refuses one more", async () => {
    app = await demoAppWithGoogle();
    const id = await paidIntent(12);
    const over = await resolve(placeLinks(13), id);
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('too_many_urls');
    const atLimit = await resolve(placeLinks(12), id);
    expect(atLimit.status).toBe(200);
    expect(Object.keys(atLimit.body.results)).toHaveLength(12);
  });

  it('counts links over all calls of one payment', async () => {
    app = await demoAppWithGoogle();
    const id = await paidIntent(12);
    const links = placeLinks(13);
    expect((await resolve(links.slice(0, 8), id)).status).toBe(200);
    expect((await resolve(links.slice(8, 12), id)).status).toBe(200);
    const over = await resolve(links.slice(12), id);
    expect(over.status).toBe(403);
    expect(over.body.error).toEqual({
      code: 'link_allowance_used',
      message: 'This payment covers 12 places; 0 more links can be looked up.',
      limit: 12,
    });
  });

  it(`takes ${MAX_URLS_PER_CALL} links in one call and refuses ${MAX_URLS_PER_CALL + 1}`, async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const id = await paidIntent(MAX_URLS_PER_CALL);
    const atLimit = await resolve(pinnedLinks(MAX_URLS_PER_CALL), id);
    expect(atLimit.status).toBe(200);
    expect(Object.keys(atLimit.body.results)).toHaveLength(MAX_URLS_PER_CALL);
    const over = await resolve(pinnedLinks(MAX_URLS_PER_CALL + 1), id);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe(`urls: At most ${MAX_URLS_PER_CALL} links per request.`);
  });

  it(`takes links of ${MAX_URL_LENGTH} characters and refuses longer ones`, async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const base = 'https://www.google.com/maps/place/X/data=!3d1.5!4d2.5?pad=';
    const atLimit = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect((await resolve([atLimit])).status).toBe(200);
    const over = await resolve([`${atLimit}a`]);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe(
      `urls.0: A link can be at most ${MAX_URL_LENGTH} characters.`,
    );
  });

  it('refuses a resolve body over its size limit with 413, even from a paying browser', async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    await paidIntent(10);
    const response = await send(
      '/api/resolve-urls-batch',
      `{"urls":[],"pad":"${'x'.repeat(RESOLVE_BODY_LIMIT_BYTES)}"}`,
      true,
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
  });

  it(`reads at most ${FREE_BODY_LIMIT_BYTES} bytes from a browser without a payer cookie`, async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const body = (size: number) => {
      const head = '{"urls":["https://www.google.com/maps/search/1.5,2.5"],"pad":"';
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    // At the limit the body is read (and refused for its unknown field); one byte more is not read.
    const atLimit = await send('/api/resolve-urls-batch', body(FREE_BODY_LIMIT_BYTES), true);
    expect(atLimit.statusCode).toBe(400);
    const over = await send('/api/resolve-urls-batch', body(FREE_BODY_LIMIT_BYTES + 1), true);
    expect(over.statusCode).toBe(413);
    expect(over.json().error.message).toContain('Without a payment');
  });

  it('refuses unknown intents and malformed ids', async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    expect((await resolve(pinnedLinks(5), 'pi_unknown')).status).toBe(404);
    expect((await resolve(pinnedLinks(1), 'not-an-id')).status).toBe(400);
  });

  it('limits resolve calls per client per minute', async () => {
    app = await demoApp({ rateLimits: { ...UNLIMITED, resolvePerMinute: 2 } });
    expect((await resolve(pinnedLinks(1))).status).toBe(200);
    expect((await resolve(pinnedLinks(1))).status).toBe(200);
    expect((await resolve(pinnedLinks(1))).status).toBe(429);
  });
});
