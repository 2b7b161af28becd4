import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { BODY_LIMIT_BYTES } from '../src/app.js';
import { PAYMENT_BODY_LIMIT_BYTES } from '../src/routes/payments.js';
import { MAX_JSON_DEPTH } from '../src/http/json-body.js';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { CookieJars, demoApp, settingsFor, UNLIMITED, WEB_FIXTURE } from './support.js';

let app: FastifyInstance;
let jars = new CookieJars();
afterEach(async () => {
  await app?.close();
  jars = new CookieJars();
});

/** POSTs as one browser (its cookies kept between calls, as with `credentials: 'include'`). */
async function post(path: string, payload: unknown, headers: Record<string, string> = {}) {
  const cookie = jars.header();
  const response = await app.inject({
    method: 'POST',
    url: path,
    payload: payload as object,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
  const setCookie = response.headers['set-cookie'];
  jars.keep(
    'me',
    setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie],
  );
  return response;
}

/** Posts a raw body to create-payment-intent, as any client could. */
function rawCreate(payload: string, contentType = 'application/json') {
  return app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: { 'content-type': contentType },
    payload,
  });
}

describe('health and config', () => {
  it('GET /api/health answers { ok: true, status, store }', async () => {
    app = await demoApp();
    const response = await app.inject('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, status: 'ok', store: 'memory' });
  });

  it('GET /api/config describes demo payments without a publishable key', async () => {
    app = await demoApp();
    expect((await app.inject('/api/config')).json()).toEqual({
      productName: 'PlacePort',
      contactEmail: 'feedback@example.com',
      payments: 'demo',
      pricePerPlaceCents: 10,
      minimumChargeCents: 50,
    });
  });

  it('GET /api/config gives the publishable key (never the secret) with Stripe keys', async () => {
    app = await buildApp({
      settings: settingsFor({
        STRIPE_SECRET_KEY: 'sk_test_secretValue1',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_publicValue1',
        CONTACT_EMAIL: 'help@placeport.example',
        PRODUCT_NAME: 'PlacePort Test',
      }),
    });
    const response = await app.inject('/api/config');
    expect(response.json()).toEqual({
      productName: 'PlacePort Test',
      contactEmail: 'help@placeport.example',
      payments: 'stripe',
      publishableKey: 'pk_test_publicValue1',
      pricePerPlaceCents: 10,
      minimumChargeCents: 50,
    });
    expect(response.body).not.toContain('sk_test');
  });
});

describe('request checking', () => {
  it('refuses unknown fields, missing fields and wrong types in the one error shape', async () => {
    app = await demoApp();
    const cases: [unknown, string][] = [
      [{ amount: 1.2, price: 1 }, 'Unknown field "price".'],
      [{}, 'Missing field "amount".'],
      [{ amount: '1.20' }, 'amount must be a number of dollars.'],
      [[1.2], 'Missing field "amount".'],
      [1.2, 'Invalid type: Expected Object but received 1.2'],
    ];
    for (const [payload, message] of cases) {
      const response = await rawCreate(JSON.stringify(payload));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'invalid_request', message } });
    }
  });

  it('refuses invalid JSON, other media types and empty bodies', async () => {
    app = await demoApp();
    const broken = await rawCreate('{"amount":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('invalid_json');
    const empty = await rawCreate('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toEqual({
      code: 'invalid_request',
      message: 'The request body is empty.',
    });
    const text = await rawCreate('amount=1', 'text/plain');
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('unsupported_media_type');
  });

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} unparsed, and counts no bracket inside a string`, async () => {
    app = await demoApp();
    const nested = (depth: number) =>
      `{"amount":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
    // At the limit it is parsed, and validation says what is wrong with it.
    const atLimit = await rawCreate(nested(MAX_JSON_DEPTH));
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().error.code).toBe('invalid_request');
    const past = await rawCreate(nested(MAX_JSON_DEPTH + 1));
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toEqual({
      code: 'invalid_json',
      message: 'The request body nests too deeply.',
    });
    const quoted = await rawCreate(`{"amount":"\\"${'['.repeat(50)}"}`);
    expect(quoted.json().error.code).toBe('invalid_request');
    // Prototype poisoning is still refused, as Fastify's own parser refuses it.
    const poisoned = await rawCreate('{"amount":1.2,"__proto__":{"x":1}}');
    expect(poisoned.statusCode).toBe(400);
  });

  it(`accepts payment bodies up to ${PAYMENT_BODY_LIMIT_BYTES} bytes and refuses larger ones`, async () => {
    app = await demoApp();
    const body = (size: number) => {
      const base = '{"amount":1.2}';
      return `${base.slice(0, -1)}${' '.repeat(size - base.length)}}`;
    };
    const atLimit = await rawCreate(body(PAYMENT_BODY_LIMIT_BYTES));
    expect(atLimit.statusCode).toBe(200);
    const over = await rawCreate(body(PAYMENT_BODY_LIMIT_BYTES + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json().error.code).toBe('payload_too_large');
  });

  it('hides the internals of unexpected failures behind one generic 500', async () => {
    app = await demoApp();
    app.get('/api/boom', async () => {
      throw new Error('database password is hunter2');
    });
    const response = await app.inject('/api/boom');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: {
        code: 'internal_error',
        message: 'Something went wrong on our side. Please try again.',
      },
    });
    expect(response.body).not.toContain('hunter2');
  });

  it('redacts authorization headers, cookies and keys from every log line', async () => {
    const lines: string[] = [];
    app = await demoApp({
      logger: {
        level: 'info',
        serializers: { req: (request) => ({ url: request.url, headers: request.headers }) },
        stream: { write: (line: string) => void lines.push(line) },
      },
    });
    await app.inject({
      url: '/api/health',
      headers: {
        authorization: 'Bearer sk_live_leak1',
        cookie: 'session=leak2',
        'x-goog-api-key': 'leak3',
      },
    });
    app.log.info(
      { stripe: { secretKey: 'sk_live_leak4', publishableKey: 'pk_live_leak5' } },
      'settings',
    );
    const output = lines.join('');
    expect(output).toContain('[redacted]');
    for (const secret of ['leak1', 'leak2', 'leak3', 'leak4', 'leak5'])
      expect(output).not.toContain(secret);
  });

  it(`uses a global body limit of ${BODY_LIMIT_BYTES} bytes`, () => {
    expect(BODY_LIMIT_BYTES).toBe(16 * 1024);
  });
});

describe('create-payment-intent and capture-payment in demo mode', () => {
  it('creates, authorizes and captures the converted places only', async () => {
    app = await demoApp();
    const created = await post('/api/create-payment-intent', { amount: 1.2 });
    expect(created.statusCode).toBe(200);
    const { paymentIntentId, clientSecret } = created.json();
    expect(clientSecret).toMatch(new RegExp(`^${paymentIntentId}_secret_`));
    const authorized = await post('/api/demo/authorize', { paymentIntentId });
    expect(authorized.json()).toEqual({ status: 'requires_capture' });
    const captured = await post('/api/capture-payment', {
      paymentIntentId,
      actualAmount: 0.8,
      convertedCount: 8,
      totalCount: 12,
    });
    expect(captured.json()).toMatchObject({ cancelled: false, amountCaptured: 0.8 });
    expect(await app.demoPayments?.retrieve(paymentIntentId)).toMatchObject({
      status: 'succeeded',
      amountReceived: 80,
    });
  });

  it('cancels when nothing, or less than the minimum, was converted', async () => {
    app = await demoApp();
    for (const converted of [0, 4]) {
      const { paymentIntentId } = (
        await post('/api/create-payment-intent', { amount: 1.2 })
      ).json();
      await post('/api/demo/authorize', { paymentIntentId });
      const response = await post('/api/capture-payment', {
        paymentIntentId,
        actualAmount: converted / 10,
        convertedCount: converted,
        totalCount: 12,
      });
      expect(response.json()).toMatchObject({ cancelled: true, amountCaptured: 0 });
      expect((await app.demoPayments?.retrieve(paymentIntentId))?.status).toBe('canceled');
    }
  });

  it('captures exactly the $0.50 minimum (5 places)', async () => {
    app = await demoApp();
    const { paymentIntentId } = (await post('/api/create-payment-intent', { amount: 1.2 })).json();
    await post('/api/demo/authorize', { paymentIntentId });
    const response = await post('/api/capture-payment', {
      paymentIntentId,
      actualAmount: 0.5,
      convertedCount: 5,
      totalCount: 12,
    });
    expect(response.json()).toMatchObject({ cancelled: false, amountCaptured: 0.5 });
  });

  it('refuses amounts that are not whole places, non-positive, under $0.50 or over the maximum', async () => {
    app = await demoApp();
    for (const [amount, code] of [
      [0.85, 'invalid_amount'],
      [0, 'invalid_amount'],
      [-1.2, 'invalid_amount'],
      [0.4, 'below_minimum_charge'],
      [10_000.1, 'too_many_places'],
    ] as const) {
      const response = await post('/api/create-payment-intent', { amount });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    expect((await post('/api/create-payment-intent', { amount: 10_000.1 })).json().error).toEqual({
      code: 'too_many_places',
      message: 'A payment can cover at most 100,000 places ($10000.00).',
      limit: 100_000,
    });
    // On loopback a demo payment covers up to the maximum; demo-payments.test.ts has the rest.
    expect((await post('/api/create-payment-intent', { amount: 10_000 })).statusCode).toBe(200);
  });

  it('answers unknown intents with a 404 and a clear message', async () => {
    app = await demoApp();
    const response = await post('/api/demo/authorize', { paymentIntentId: 'pi_nothere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: {
        code: 'payment_not_found',
        message: 'No payment with this reference was made in this browser.',
      },
    });
  });

  it('registers POST /api/demo/authorize only in demo mode', async () => {
    app = await buildApp({
      settings: settingsFor({
        STRIPE_SECRET_KEY: 'sk_test_a1',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_a1',
      }),
    });
    const response = await post('/api/demo/authorize', { paymentIntentId: 'pi_123' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});

describe('serving the web app', () => {
  it('serves index.html at / and hashed assets with a long cache', async () => {
    app = await demoApp();
    const page = await app.inject('/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('PlacePort test page');
    const asset = await app.inject('/assets/app-fixture.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("serves the build's .br or .gz to a browser that accepts it, and the file itself to others", async () => {
    const dist = await mkdtemp(join(tmpdir(), 'placeport-'));
    await cp(WEB_FIXTURE, dist, { recursive: true });
    const assets = join(dist, 'assets');
    const source = await readFile(join(assets, 'app-fixture.js'));
    await writeFile(join(assets, 'app-fixture.js.br'), brotliCompressSync(source));
    await writeFile(join(assets, 'app-fixture.js.gz'), gzipSync(source));
    try {
      app = await demoApp({ settings: settingsFor({ WEB_DIST: dist }) });
      const asked = (encoding?: string) =>
        app.inject({
          url: '/assets/app-fixture.js',
          headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
        });
      const brotli = await asked('gzip, deflate, br');
      expect(brotli.statusCode).toBe(200);
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers['content-type']).toContain('javascript');
      expect(brotli.headers.vary).toContain('accept-encoding');
      expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(brotli.rawPayload).equals(source)).toBe(true);

      const gzip = await asked('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).equals(source)).toBe(true);

      for (const plain of [await asked(), await asked('identity')]) {
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers.vary).toContain('accept-encoding');
        expect(plain.rawPayload.equals(source)).toBe(true);
      }
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it("never publishes the build's source maps", async () => {
    const dist = await mkdtemp(join(tmpdir(), 'placeport-'));
    await cp(WEB_FIXTURE, dist, { recursive: true });
    await writeFile(
      join(dist, 'assets', 'app-fixture.js.map'),
      '{"version":3,"sources":["secret.ts"]}',
    );
    try {
      app = await demoApp({ settings: settingsFor({ WEB_DIST: dist }) });
      for (const url of ['/assets/app-fixture.js.map', '/assets/app-fixture.js.MAP']) {
        const answer = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
        expect(answer.statusCode, url).toBe(404);
        expect(answer.body, url).not.toContain('secret.ts');
        expect(answer.body, url).toContain('PlacePort test page');
      }
      expect((await app.inject('/assets/app-fixture.js')).statusCode).toBe(200);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it("keeps only the build's own assets/ a year, whatever the folder the build lives in", async () => {
    // Deployed under a folder named assets (/srv/assets/placeport/dist): the shell must still be
    // revalidated, or browsers keep last year's page naming hashed files that are gone.
    const root = await mkdtemp(join(tmpdir(), 'placeport-'));
    const dist = join(root, 'assets', 'placeport', 'dist');
    await cp(WEB_FIXTURE, dist, { recursive: true });
    try {
      app = await demoApp({ settings: settingsFor({ WEB_DIST: dist }) });
      for (const url of ['/', '/index.html']) {
        expect((await app.inject(url)).headers['cache-control'], url).toBe('no-cache');
      }
      const asset = await app.inject('/assets/app-fixture.js');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('serves /index.html as the converter page, revalidated on every visit', async () => {
    app = await demoApp();
    for (const url of ['/', '/index.html', '/?from=bookmark']) {
      const page = await app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.body, url).toContain('PlacePort test page');
    }
  });

  it.each(['/nope', '/foo/bar', '/some/deep/link?x=1', '/index.htm', '/assets/gone.js'])(
    'answers %s with 404 and index.html (the 404 screen), never kept by a cache',
    async (url) => {
      app = await demoApp();
      const page = await app.inject(url);
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers.etag).toBeUndefined();
      expect(page.headers['last-modified']).toBeUndefined();
      expect(page.body).toContain('PlacePort test page');
    },
  );

  it('answers HEAD of an unknown page with 404 and no body', async () => {
    app = await demoApp();
    const head = await app.inject({ method: 'HEAD', url: '/nope' });
    expect(head.statusCode).toBe(404);
    expect(head.headers['content-type']).toContain('text/html');
    expect(head.body).toBe('');
  });

  it('answers JSON 404 under /api and for other methods, whatever the web app', async () => {
    app = await demoApp();
    const api = await app.inject('/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({
      error: { code: 'not_found', message: 'There is no GET /api/nothing-here.' },
    });
    const postPage = await app.inject({ method: 'POST', url: '/somewhere' });
    expect(postPage.statusCode).toBe(404);
    expect(postPage.json().error.code).toBe('not_found');
  });

  it('answers JSON 404 for every unknown path when no web app is built', async () => {
    app = await buildApp({ settings: { ...settingsFor(), webDist: undefined } });
    const response = await app.inject('/');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});

describe('security headers, CORS and rate limits', () => {
  it('sends a CSP allowing Stripe.js, api.stripe.com and a same-origin module worker', async () => {
    app = await demoApp();
    const csp = String((await app.inject('/')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("frame-ancestors 'none'");
    const headers = (await app.inject('/api/health')).headers;
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    // No frame, and not the page itself, may ask for the camera, location or devices.
    const permissions = String((await app.inject('/')).headers['permissions-policy']);
    for (const feature of ['camera', 'microphone', 'geolocation', 'usb']) {
      expect(permissions).toContain(`${feature}=()`);
    }
    expect(permissions).toContain('payment=(self "https://js.stripe.com")');
  });

  it('answers requests that arrive while it closes with 503 shutting_down, Retry-After and Connection: close', async () => {
    app = await demoApp();
    // Closing waits here, as it does while the sweep stops before its next authorization.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    app.addHook('preClose', () => held);
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    expect((await fetch(`${address}/api/config`)).status).toBe(200);
    const closed = app.close();
    while (!app.closing.aborted) await new Promise((resolve) => setTimeout(resolve, 10));
    const during = await fetch(`${address}/api/config`);
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('2');
    expect(during.headers.get('connection')).toBe('close');
    expect(await during.json()).toEqual({
      error: {
        code: 'shutting_down',
        message: 'This server is restarting; please try again in a moment.',
      },
    });
    release();
    await closed;
  });

  it('answers an address Fastify cannot route (a malformed escape) in its error shape, inert', async () => {
    app = await demoApp();
    for (const url of ['/%zz', '/api/payments/%zz']) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'bad_request', message: 'The address is not valid.' },
      });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it("answers what Node's HTTP parser refuses in the API's error shape, inert, and closes", async () => {
    app = await demoApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    /** Sends raw bytes and reads the whole answer (the server closes the connection). */
    const raw = async (request: string) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(request);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const [head, body] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      return { head: head!.toLowerCase(), body: JSON.parse(body!) as unknown };
    };
    // A smuggling shape: both Transfer-Encoding and Content-Length.
    const smuggled = await raw(
      'POST /api/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n',
    );
    expect(smuggled.head).toMatch(/^http\/1\.1 400 bad request/);
    expect(smuggled.body).toEqual({
      error: { code: 'bad_request', message: 'The request could not be read.' },
    });
    const huge = await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge.head).toMatch(/^http\/1\.1 431 /);
    expect(huge.body).toEqual({
      error: { code: 'headers_too_large', message: 'The request headers are too large.' },
    });
    for (const answer of [smuggled, huge]) {
      expect(answer.head).toContain('x-content-type-options: nosniff');
      expect(answer.head).toContain(
        "content-security-policy: default-src 'none'; frame-ancestors 'none'",
      );
      expect(answer.head).toContain('connection: close');
    }
  });

  it('allows CORS only for the configured origin', async () => {
    app = await buildApp({ settings: settingsFor({ CORS_ORIGIN: 'https://placeport.example' }) });
    const allowed = await app.inject({
      method: 'OPTIONS',
      url: '/api/create-payment-intent',
      headers: {
        origin: 'https://placeport.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://placeport.example');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const other = await app.inject({
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS headers at all without a configured origin', async () => {
    app = await demoApp();
    const response = await app.inject({
      url: '/api/health',
      headers: { origin: 'https://a.example' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('limits payment calls per client: the limit passes, one more is refused with 429', async () => {
    app = await demoApp({ rateLimits: { paymentPerMinute: 3 } });
    for (let i = 0; i < 3; i += 1) {
      expect((await post('/api/create-payment-intent', { amount: 1 })).statusCode).toBe(200);
    }
    const refused = await post('/api/create-payment-intent', { amount: 1 });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBeDefined();
    const otherClient = await app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: { amount: 1 },
      remoteAddress: '10.0.0.2',
    });
    expect(otherClient.statusCode).toBe(200);
  });

  it('scales every limit with RATE_LIMIT_FACTOR', async () => {
    app = await buildApp({ settings: settingsFor({ RATE_LIMIT_FACTOR: '0.05' }) });
    expect(app.rateLimits).toEqual({
      globalPerMinute: 30,
      paymentPerMinute: 3,
      resolvePerMinute: 15,
      intentsPerHour: 1,
      intentsPerDay: 3,
      payerChecksPerMinute: 1,
      providerReadsPerMinute: 2,
    });
    // One intent an hour at this factor: the second is refused by the creation cap.
    expect((await post('/api/create-payment-intent', { amount: 1 })).statusCode).toBe(200);
    const capped = await post('/api/create-payment-intent', { amount: 1 });
    expect(capped.statusCode).toBe(429);
    expect(capped.json().error.code).toBe('too_many_payments');
  });

  it('caps payments started per client per hour and per day, at and past the cap', async () => {
    app = await demoApp({
      rateLimits: { ...UNLIMITED, intentsPerHour: 3, intentsPerDay: 1_000 },
    });
    for (let i = 0; i < 3; i += 1) {
      expect((await post('/api/create-payment-intent', { amount: 1 })).statusCode).toBe(200);
    }
    const refused = await post('/api/create-payment-intent', { amount: 1 });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({
      code: 'too_many_payments',
      message: 'At most 3 payments can be started from one address in an hour. Try again later.',
      limit: 3,
      per: 'hour',
    });
    await app.close();
    app = await demoApp({ rateLimits: { ...UNLIMITED, intentsPerHour: 1_000, intentsPerDay: 2 } });
    expect((await post('/api/create-payment-intent', { amount: 1 })).statusCode).toBe(200);
    expect((await post('/api/create-payment-intent', { amount: 1 })).statusCode).toBe(200);
    expect((await post('/api/create-payment-intent', { amount: 1 })).json().error).toEqual({
      code: 'too_many_payments',
      message: 'At most 2 payments can be started from one address in a day. Try again later.',
      limit: 2,
      per: 'day',
    });
  });

  it('counts rate limits and payment caps per client key: ports and junk buy nothing', async () => {
    app = await demoApp({
      settings: settingsFor({ TRUST_PROXY: '1', DEMO_PAYMENTS: 'on' }),
      rateLimits: { ...UNLIMITED, globalPerMinute: 3, intentsPerHour: 2 },
    });
    const health = (entry: string) =>
      app.inject({ url: '/api/health', headers: { 'x-forwarded-for': entry } });
    expect((await health('198.51.100.7:1')).statusCode).toBe(200);
    expect((await health('198.51.100.7:2')).statusCode).toBe(200);
    expect((await health('198.51.100.7')).statusCode).toBe(200);
    expect((await health('198.51.100.7:4')).statusCode).toBe(429);
    expect((await health('[2001:db8:9:9::1]:1')).statusCode).toBe(200);
    const create = (entry: string) =>
      app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        payload: { amount: 1 },
        headers: { 'x-forwarded-for': entry },
      });
    expect((await create('unknown')).statusCode).toBe(200);
    expect((await create('junk')).statusCode).toBe(200);
    const capped = await create('_obfuscated');
    expect(capped.statusCode).toBe(429);
    expect(capped.json().error.code).toBe('too_many_payments');
  });

  it('limits all routes per client with the global limit', async () => {
    app = await demoApp({ rateLimits: { globalPerMinute: 2 } });
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/api/health')).statusCode).toBe(429);
  });
});
