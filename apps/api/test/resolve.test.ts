import { extractCoordinates } from '@placeport/converter';
import { placeIdFromFtid, cidFromFtid } from '@placeport/converter/internal';
import { coordinatesForFtid, PAGE_FORMS, REQUESTER_LOCATION } from '@placeport/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './faults.js';
import { ftidFor, placeLinks, startStack, takeoutLink, type Stack } from './support.js';

let stack: Stack;
afterEach(() => stack?.close());

async function resolve(urls: string[], paymentIntentId?: string) {
  return stack.post('/api/resolve-urls-batch', {
    urls,
    ...(paymentIntentId ? { paymentIntentId } : {}),
  });
}

/** A demo intent for `places` places, authorized. */
async function paidIntent(places: number): Promise<string> {
  const created = await stack.post('/api/create-payment-intent', { amount: places / 10 });
  const id = created.body.paymentIntentId as string;
  await stack.post('/api/demo/authorize', { paymentIntentId: id });
  return id;
}

function coordinatesOf(resolved: unknown) {
  return extractCoordinates(String(resolved))?.coordinates;
}

describe('resolution through a real server and the fake Google', () => {
  it.each(PAGE_FORMS)(
    'reads the pin from a place page in the %s form, at the exact coordinates',
    async (form) => {
      stack = await startStack({ google: { pageForm: form } });
      const ftid = ftidFor(1);
      const link = takeoutLink(ftid);
      const { status, body } = await resolve([link]);
      expect(status).toBe(200);
      const results = body.results as Record<string, string>;
      expect(coordinatesOf(results[link])).toEqual(coordinatesForFtid(ftid));
      expect(results[link]).toContain(`query_place_id=${placeIdFromFtid(ftid)}`);
    },
  );

  it('looks old cid, ludocid and http links up by place id on an https page it builds', async () => {
    stack = await startStack();
    const ftid = ftidFor(7);
    const cid = cidFromFtid(ftid)!;
    const links = [
      `http://maps.google.com/?cid=${cid}`,
      `https://www.google.com/search?q=Somewhere&ludocid=${cid}`,
    ];
    const { body } = await resolve(links);
    const results = body.results as Record<string, string>;
    for (const link of links)
      expect(coordinatesOf(results[link])).toEqual(coordinatesForFtid(ftid));
    expect(stack.google.requests).toHaveLength(1);
    expect(stack.google.requests[0]).toMatchObject({
      host: 'www.google.com',
      path: `/maps?cid=${cid}`,
    });
  });

  it('asks like a desktop browser with consent cookies, so the EU consent wall never answers', async () => {
    stack = await startStack();
    await resolve([takeoutLink(ftidFor(2))]);
    const headers = stack.google.requests[0]?.headers ?? {};
    expect(headers['user-agent']).toMatch(/Windows NT 10\.0.*Chrome\//);
    expect(headers.cookie).toMatch(/CONSENT=YES/);
    expect(headers.cookie).toMatch(/SOCS=/);
  });

  it('never uses the generic "Google Maps" page (the requester location)', async () => {
    stack = await startStack();
    const ftid = ftidFor(3);
    stack.google.setPlace(cidFromFtid(ftid)!, { generic: true });
    const { status, body } = await resolve([takeoutLink(ftid)]);
    expect(status).toBe(200);
    expect(body.results).toEqual({});
    expect(JSON.stringify(body)).not.toContain(String(REQUESTER_LOCATION.lat));
  });

  it('skips failing places and keeps the others', async () => {
    stack = await startStack();
    const [bad, good] = [ftidFor(4), ftidFor(5)];
    stack.google.setPlace(cidFromFtid(bad)!, { status: 500 });
    const { body } = await resolve([takeoutLink(bad), takeoutLink(good)]);
    expect(Object.keys(body.results as object)).toEqual([takeoutLink(good)]);
  });

  it('follows a short-link chain hop by hop to the place', async () => {
    stack = await startStack();
    const ftid = ftidFor(6);
    stack.google.addRedirect('https://maps.app.goo.gl/Short1', 'https://goo.gl/maps/Short2');
    stack.google.addRedirect(
      'https://goo.gl/maps/Short2',
      `https://www.google.com/maps?cid=${cidFromFtid(ftid)}`,
    );
    const { body } = await resolve(['https://maps.app.goo.gl/Short1']);
    const results = body.results as Record<string, string>;
    expect(coordinatesOf(results['https://maps.app.goo.gl/Short1'])).toEqual(
      coordinatesForFtid(ftid),
    );
    expect(stack.google.requests.map((request) => request.host)).toEqual([
      'maps.app.goo.gl',
      'goo.gl',
      'www.google.com',
    ]);
  });

  it('reads the pin from a redirect URL without fetching that page', async () => {
    stack = await startStack({ google: { pageForm: 'final-url' } });
    const ftid = ftidFor(8);
    const { body } = await resolve([takeoutLink(ftid)]);
    expect(coordinatesOf((body.results as Record<string, string>)[takeoutLink(ftid)])).toEqual(
      coordinatesForFtid(ftid),
    );
    expect(stack.google.requests).toHaveLength(1);
  });

  it('uses the Places API (New) with the key and field mask when GOOGLE_MAPS_API_KEY is set', async () => {
    stack = await startStack({ placesApiKey: true });
    const ftid = ftidFor(9);
    const { body } = await resolve([takeoutLink(ftid)]);
    expect(coordinatesOf((body.results as Record<string, string>)[takeoutLink(ftid)])).toEqual(
      coordinatesForFtid(ftid),
    );
    expect(stack.google.requests).toHaveLength(1);
    expect(stack.google.requests[0]).toMatchObject({ path: `/v1/places/${placeIdFromFtid(ftid)}` });
    expect(stack.google.requests[0]?.headers).toMatchObject({
      'x-goog-api-key': stack.google.apiKey,
      'x-goog-fieldmask': 'location',
    });
  });

  it('falls back to the place pages when Google refuses the key, says so once, offers it no more', async () => {
    const lines: string[] = [];
    const logger = { level: 'info', stream: { write: (line: string) => lines.push(line) } };
    stack = await startStack({ placesApiKey: 'wrong-key-123456', config: { logger } });
    const ftid = ftidFor(10);
    const { body } = await resolve([takeoutLink(ftid)]);
    expect(coordinatesOf((body.results as Record<string, string>)[takeoutLink(ftid)])).toEqual(
      coordinatesForFtid(ftid),
    );
    expect(
      stack.google.requests.map((request) => request.host === 'www.google.com' || request.path),
    ).toEqual([`/v1/places/${placeIdFromFtid(ftid)}`, true]);
    stack.google.clearRequests();
    const next = ftidFor(11);
    const second = await resolve([takeoutLink(next)]);
    expect(Object.keys(second.body.results as object)).toEqual([takeoutLink(next)]);
    expect(stack.google.requests.map((request) => request.host)).toEqual(['www.google.com']);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.filter((line) => line.placesKeyRejected)).toEqual([
      expect.objectContaining({ level: 50, placesKeyRejected: 'API_KEY_INVALID' }),
    ]);
    expect(lines.join('')).not.toContain('wrong-key-123456');
  });

  it('falls back to the place page when the Places API cannot be reached', async () => {
    const unreachable: typeof fetch = (input, init) =>
      String(input).includes('/v1/places/')
        ? Promise.reject(new TypeError('fetch failed'))
        : fetch(input, init);
    stack = await startStack({ placesApiKey: true, config: { fetch: unreachable } });
    const ftid = ftidFor(13);
    const { body } = await resolve([takeoutLink(ftid)]);
    expect(coordinatesOf((body.results as Record<string, string>)[takeoutLink(ftid)])).toEqual(
      coordinatesForFtid(ftid),
    );
    expect(stack.google.requests.map((request) => request.host)).toEqual(['www.google.com']);
  });

  it('answers 503 google_unreachable when no lookup of a batch got an answer (the network is down)', async () => {
    const network: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    stack = await startStack({ config: { fetch: network } });
    const id = await paidIntent(40);
    const links = Array.from({ length: 20 }, (_, i) => takeoutLink(ftidFor(300 + i)));
    const first = await resolve(links, id);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('60');
    expect(first.body).toEqual({
      error: {
        code: 'google_unreachable',
        message:
          'Google cannot be reached from this server right now, so these links were not looked up.',
      },
    });
    // A link that carries its coordinates is still answered: the batch is a 200 with the rest failed.
    const pinned = 'https://www.google.com/maps/search/52.3676,4.9041';
    const mixed = await resolve([pinned, links[0]!], id);
    expect(mixed.status).toBe(200);
    expect(Object.keys(mixed.body.results as object)).toEqual([pinned]);
    expect(mixed.body.failures).toEqual({ [links[0]!]: 'unavailable' });
  });

  it('logs Google out of reach as a warning with its code, not as an error with a stack trace', async () => {
    const network: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const lines: { level: number; code?: string; err?: unknown }[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    stack = await startStack({ config: { fetch: network, logger: { level: 'info', stream } } });
    const answer = await resolve(placeLinks(4, 0));
    expect(answer.status).toBe(503);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const warning = lines.find((line) => line.level === 40 && line.code === 'google_unreachable');
    expect(warning).toBeDefined();
    expect(warning).not.toHaveProperty('err');
  });

  it('gives a free batch its links back when Google could not be reached, so retrying works', async () => {
    const network: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    stack = await startStack({ env: { FREE_LINKS_PER_DAY: '8' }, config: { fetch: network } });
    // Three tries of 4 links would have spent 12 of the day's 8 free lookups, none of them made:
    // the third would be refused as free_budget_used instead of saying Google cannot be reached.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await resolve(placeLinks(4, 4 * attempt));
      expect(answer.status).toBe(503);
      expect((answer.body.error as { code: string }).code).toBe('google_unreachable');
    }
  });

  it('gives a free batch its lookups back when Google could not be reached, also beside links answered', async () => {
    const network: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    stack = await startStack({ env: { FREE_LINKS_PER_DAY: '4' }, config: { fetch: network } });
    const pinned = 'https://www.google.com/maps/search/52.3676,4.9041';
    // Each batch would spend 3 of the day's 4 free lookups, none of them made: the second was
    // refused as free_budget_used.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await resolve([pinned, ...placeLinks(3, 3 * attempt)]);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.results as object)).toEqual([pinned]);
      expect(Object.values(answer.body.failures as object)).toEqual([
        'unavailable',
        'unavailable',
        'unavailable',
      ]);
    }
  });

  it('looks each distinct place up once per batch, whatever link form names it', async () => {
    stack = await startStack();
    const ftid = ftidFor(12);
    const links = [
      takeoutLink(ftid, 'Name A'),
      takeoutLink(ftid, 'Name B'),
      `http://maps.google.com/?cid=${cidFromFtid(ftid)}`,
    ];
    const { body } = await resolve(links);
    expect(Object.keys(body.results as object)).toHaveLength(3);
    expect(stack.google.requests).toHaveLength(1);
  });

  it('answers a repeated batch from the cache with no upstream request', async () => {
    stack = await startStack();
    const id = await paidIntent(40);
    const links = Array.from({ length: 20 }, (_, i) => takeoutLink(ftidFor(100 + i)));
    const first = await resolve(links, id);
    expect(Object.keys(first.body.results as object)).toHaveLength(20);
    expect(stack.google.requests).toHaveLength(20);
    stack.google.clearRequests();
    const second = await resolve(links, id);
    expect(second.body.results).toEqual(first.body.results);
    expect(stack.google.requests).toHaveLength(0);
  });

  it('answers links that already carry coordinates without any request', async () => {
    stack = await startStack();
    const link = 'https://www.google.com/maps/place/X/data=!4m5!3m4!8m2!3d48.137154!4d11.576124';
    const { body } = await resolve([link]);
    expect(coordinatesOf((body.results as Record<string, string>)[link])).toEqual({
      lat: 48.137154,
      lng: 11.576124,
    });
    expect(stack.upstream.calls).toHaveLength(0);
  });
});

describe('only links that need a lookup are sent and counted (product.md, "Needs a lookup")', () => {
  const place = (host: string) => `https://${host}/maps/place/X/data=!4m2!3m1!1s${ftidFor(1)}`;
  /** Links the resolver refuses: look-alikes of Google's hosts, an IP literal, ids naming two places. */
  const refused = [
    place('maps.google.com.evil.example'),
    place('www.google.co.nl.example'),
    place('maps.google.com.de'),
    place('www.google.co.nl'),
    place('127.0.0.1'),
    `https://www.google.com/maps?cid=${cidFromFtid(ftidFor(1))}&query_place_id=${placeIdFromFtid(ftidFor(2))}`,
  ];
  const pin = 'https://www.google.com/maps/place/X/data=!4m5!3m4!8m2!3d48.137154!4d11.576124';

  function expectRefusedUnsent(body: Record<string, unknown>, links: readonly string[]) {
    const failures = body.failures as Record<string, string>;
    for (const link of links) expect(failures[link]).toBe('not_allowed');
    expect(coordinatesOf((body.results as Record<string, string>)[pin])).toEqual({
      lat: 48.137154,
      lng: 11.576124,
    });
    expect(stack.google.requests).toHaveLength(0);
  }

  it('without a payment: refused and pinned links spend nothing of the free budget', async () => {
    stack = await startStack({ env: { FREE_LINKS_PER_DAY: '4' } });
    for (const links of [refused.slice(0, 3), refused.slice(3, 6)]) {
      const { status, body } = await resolve([...links, pin]);
      expect(status).toBe(200);
      expectRefusedUnsent(body, links);
    }
    // The whole budget of the day is still there: 4 lookups, and not one more.
    const lookups = placeLinks(4);
    const { status, body } = await resolve(lookups);
    expect(status).toBe(200);
    expect(Object.keys(body.results as object).sort()).toEqual([...lookups].sort());
    const past = await resolve(placeLinks(1, 4));
    expect(past.status).toBe(402);
    expect(past.body.error).toEqual({
      code: 'free_budget_used',
      message: 'The 4 free lookups of today are used (0 left). A payment covers more.',
      limit: 4,
    });
  });

  it("without a payment: Takeout's link of a place without a location is not_found, unsent and free", async () => {
    stack = await startStack({ env: { FREE_LINKS_PER_DAY: '4' } });
    const nowhere = 'https://www.google.com/maps/search/0,0';
    const first = await resolve([nowhere, pin]);
    expect(first.status).toBe(200);
    expect(first.body.failures).toEqual({ [nowhere]: 'not_found' });
    expect(stack.google.requests).toHaveLength(0);
    // The day's 4 free lookups are all still there.
    const lookups = placeLinks(4);
    const { body } = await resolve(lookups);
    expect(Object.keys(body.results as object).sort()).toEqual([...lookups].sort());
  });

  it('answers links named like object properties (__proto__) as not_allowed, never drops one', async () => {
    stack = await startStack();
    const named = ['__proto__', 'constructor', 'toString'];
    const { status, body } = await resolve([...named, pin]);
    expect(status).toBe(200);
    // JSON.parse keeps `__proto__` as a key of its own, as a browser's does.
    expect(Object.entries(body.failures as object).sort()).toEqual(
      named.map((link) => [link, 'not_allowed']).sort(),
    );
    expect(Object.keys(body.results as object)).toEqual([pin]);
  });

  it("with a payment: refused and pinned links use nothing of the payment's allowance", async () => {
    stack = await startStack();
    const id = await paidIntent(5);
    const { status, body } = await resolve([...refused, pin], id);
    expect(status).toBe(200);
    expectRefusedUnsent(body, refused);
    // All 5 places of the payment can still be looked up, and not one more.
    const lookups = placeLinks(5);
    const paid = await resolve(lookups, id);
    expect(paid.status).toBe(200);
    expect(Object.keys(paid.body.results as object).sort()).toEqual([...lookups].sort());
    const past = await resolve(placeLinks(1, 5), id);
    expect(past.status).toBe(403);
    expect(past.body.error).toEqual({
      code: 'link_allowance_used',
      message: 'This payment covers 5 places; 0 more links can be looked up.',
      limit: 5,
    });
  });
});

describe('bounded work', () => {
  // The slow place never answers and the other bound is 10 minutes, so only the bound under test
  // ends these; the bound is 5 s so that the fast place's one loopback request fits on a loaded
  // machine.
  it('returns the places resolved by the batch deadline and leaves the slow ones out', async () => {
    stack = await startStack({
      config: { resolver: { batchDeadlineMs: 5_000, requestTimeoutMs: 600_000 } },
    });
    const [slow, fast] = [ftidFor(20), ftidFor(21)];
    stack.google.setPlace(cidFromFtid(slow)!, { hang: true });
    const started = Date.now();
    const { status, body } = await resolve([takeoutLink(slow), takeoutLink(fast)]);
    expect(status).toBe(200);
    expect(Object.keys(body.results as object)).toEqual([takeoutLink(fast)]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_990);
  });

  it('on close, a batch under way answers at once with what it found', async () => {
    // Nothing but the close ends the slow lookup: without it, close would wait 10 minutes.
    stack = await startStack({
      config: { resolver: { batchDeadlineMs: 600_000, requestTimeoutMs: 600_000 } },
    });
    const [slow, fast] = [ftidFor(24), ftidFor(25)];
    stack.google.setPlace(cidFromFtid(slow)!, { hang: true });
    const answer = resolve([takeoutLink(slow), takeoutLink(fast)]);
    const cache = stack.app.state.placeCache();
    await until(async () => (await cache.get(`cid:${cidFromFtid(fast)}`)) !== undefined);
    const closed = stack.app.close();
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(Object.keys(body.results as object)).toEqual([takeoutLink(fast)]);
    expect(body.failures).toEqual({ [takeoutLink(slow)]: 'unavailable' });
    await closed;
  });

  it('gives up on one slow request after the per-request timeout', async () => {
    stack = await startStack({
      config: { resolver: { requestTimeoutMs: 5_000, batchDeadlineMs: 600_000 } },
    });
    const [slow, fast] = [ftidFor(22), ftidFor(23)];
    stack.google.setPlace(cidFromFtid(slow)!, { hang: true });
    const { body } = await resolve([takeoutLink(slow), takeoutLink(fast)]);
    expect(Object.keys(body.results as object)).toEqual([takeoutLink(fast)]);
  });

  it('keeps at most `concurrency` upstream requests in flight', async () => {
    stack = await startStack({ google: { delayMs: 30 }, config: { resolver: { concurrency: 3 } } });
    const id = await paidIntent(12);
    const links = Array.from({ length: 12 }, (_, i) => takeoutLink(ftidFor(200 + i)));
    const { body } = await resolve(links, id);
    expect(Object.keys(body.results as object)).toHaveLength(12);
    expect(stack.upstream.stats.peak).toBe(3);
  });
});

describe('a full queue', () => {
  it('refuses a free batch with 503 overloaded and Retry-After, while a paid one still goes', async () => {
    // No slot and no room to wait for free lookups: every free batch is refused at once.
    stack = await startStack({ config: { resolver: { maxActiveFree: 0, maxQueuedFree: 0 } } });
    const refused = await resolve(placeLinks(2));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body).toEqual({
      error: { code: 'overloaded', message: 'Too many lookups are waiting; try again shortly.' },
    });
    const id = await paidIntent(5);
    expect((await resolve(placeLinks(2), id)).status).toBe(200);
  });
});
