import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from '@placeport/resolver';
import { FREE_TIER_MAX_URLS, MAX_URLS_PER_CALL } from '../src/allowance/limits.js';
import { RESOLVE_BODY_LIMIT_BYTES } from '../src/routes/resolve.js';
import { demoApp, UNLIMITED } from './support.js';

let app: FastifyInstance;
afterEach(() => app?.close());

/** Distinct links that already carry their pin, so no upstream is needed to resolve them. */
function pinnedLinks(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `https://www.google.com/maps/place/P${i}/data=!3d${(i % 80) + 1}.5!4d${(i % 170) + 1}.25`,
  );
}

async function resolve(urls: string[], paymentIntentId?: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/resolve-urls-batch',
    payload: { urls, ...(paymentIntentId ? { paymentIntentId } : {}) },
  });
  return { status: response.statusCode, body: response.json() };
}

async function paidIntent(places: number): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    payload: { amount: places / 10 },
  });
  const { paymentIntentId } = created.json();
  await app.inject({ method: 'POST', url: '/api/demo/authorize', payload: { paymentIntentId } });
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

  it('counts repeated links once toward the limit', async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const links = pinnedLinks(FREE_TIER_MAX_URLS);
    const { status } = await resolve([...links, ...links]);
    expect(status).toBe(200);
  });

  it("resolves a paid batch up to the intent's place count, and refuses one more", async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const id = await paidIntent(12);
    const over = await resolve(pinnedLinks(13), id);
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('too_many_urls');
    const atLimit = await resolve(pinnedLinks(12), id);
    expect(atLimit.status).toBe(200);
    expect(Object.keys(atLimit.body.results)).toHaveLength(12);
  });

  it('counts links over all calls of one payment', async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const id = await paidIntent(12);
    expect((await resolve(pinnedLinks(8), id)).status).toBe(200);
    expect((await resolve(pinnedLinks(4), id)).status).toBe(200);
    const over = await resolve(pinnedLinks(1), id);
    expect(over.status).toBe(403);
    expect(over.body.error).toEqual({
      code: 'link_allowance_used',
      message: 'This payment covers 12 places; 0 more links can be looked up.',
    });
  });

  it(`takes ${MAX_URLS_PER_CALL} links in one call and refuses ${MAX_URLS_PER_CALL + 1}`, async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const id = await paidIntent(5_000);
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

  it('refuses a resolve body over its size limit with 413', async () => {
    app = await demoApp({ rateLimits: UNLIMITED });
    const response = await app.inject({
      method: 'POST',
      url: '/api/resolve-urls-batch',
      headers: { 'content-type': 'application/json' },
      payload: `{"urls":[],"pad":"${'x'.repeat(RESOLVE_BODY_LIMIT_BYTES)}"}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
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
