// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeApi, startFakeApi } from '../test/fake-api';
import { createApi } from './client';
import { parseConfig } from './config';
import {
  ApiRequestError,
  NO_ANSWER_TEXT,
  NoAnswerError,
  PAYMENT_CALL_TIMEOUT_MS,
  readRefusal,
  refusalOf,
  requestJson,
} from './http';

let api: FakeApi;

beforeAll(async () => {
  api = await startFakeApi();
});

afterAll(async () => {
  await api.close();
});

describe('requestJson (seed sections 7 and 8)', () => {
  it('sends no content type and no body without a body', async () => {
    await requestJson(`${api.url}/api/health`, 'GET');
    const request = api.requests.at(-1)!;
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.rawBody).toBe('');
  });

  it('sends JSON with its content type when there is a body', async () => {
    await requestJson(`${api.url}/api/resolve-urls-batch`, 'POST', { urls: ['https://x'] });
    const request = api.requests.at(-1)!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ urls: ['https://x'] });
  });

  it('turns a non-OK answer into "status: response text"', async () => {
    await expect(requestJson(`${api.url}/api/nope`, 'GET')).rejects.toThrow(
      '404: {"error":{"code":"not_found","message":"Not Found"}}',
    );
  });

  it('uses the status text when the body is empty', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(503, 'Service Unavailable');
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await expect(requestJson(`http://127.0.0.1:${port}/`, 'GET')).rejects.toThrow(
      '503: Service Unavailable',
    );
    server.close();
  });
});

describe("the API's refusal, beside the seed's message", () => {
  it('carries the code, the message and Retry-After of an API error', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '7' });
      res.end(JSON.stringify({ error: { code: 'overloaded', message: 'Busy.' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const error = await requestJson(`http://127.0.0.1:${port}/`, 'GET').catch((e: unknown) => e);
    server.close();
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe('503: {"error":{"code":"overloaded","message":"Busy."}}');
    expect(refusalOf(error)).toEqual({
      status: 503,
      code: 'overloaded',
      message: 'Busy.',
      retryAfterSeconds: 7,
    });
  });

  it.each([
    ['an empty body', ''],
    ['a proxy page', '<html>Bad Gateway</html>'],
    ['JSON without the error shape', '{"ok":false}'],
    ['an error without a code', '{"error":{"message":"x"}}'],
  ])('is null for %s', (_what, text) => {
    expect(readRefusal(502, text, null)).toBeNull();
  });

  it("reads a refusal's numbers from their fields, leaving out any of the wrong type", () => {
    const fields = '"limit":20,"per":"day","amountCaptured":3.7';
    expect(readRefusal(429, `{"error":{"code":"x","message":"m",${fields}}}`, null)).toEqual({
      status: 429,
      code: 'x',
      message: 'm',
      limit: 20,
      per: 'day',
      amountCaptured: 3.7,
      retryAfterSeconds: null,
    });
    const wrong = '"limit":"20","per":"week","amountCaptured":null';
    expect(readRefusal(429, `{"error":{"code":"x","message":"m",${wrong}}}`, null)).toEqual({
      status: 429,
      code: 'x',
      message: 'm',
      retryAfterSeconds: null,
    });
  });

  it('ignores a Retry-After that is not a number of seconds', () => {
    const text = '{"error":{"code":"rate_limited","message":"Slow down."}}';
    expect(readRefusal(429, text, 'Wed, 21 Oct 2015 07:28:00 GMT')?.retryAfterSeconds).toBeNull();
    expect(refusalOf(new Error('x'))).toBeNull();
  });
});

/** Authorizes `authorizedCents` through a client, then captures `capture` of it: the intent and the outcome. */
async function authorizeThenCapture(
  authorizedCents: number,
  capture: { convertedCount: number; totalCount: number; actualAmountCents: number },
) {
  const client = createApi(api.url);
  const { paymentIntentId } = await client.createPaymentIntent(authorizedCents);
  const outcome = await client.capturePayment({ paymentIntentId, ...capture });
  return { paymentIntentId, outcome };
}

/** 37 of 50 places converted on a $5.00 authorization: $3.70 is captured. */
const PARTIAL_CAPTURE = { convertedCount: 37, totalCount: 50, actualAmountCents: 370 };

/** The receipt of {@link PARTIAL_CAPTURE}: $3.70 charged, $1.30 released. */
const partialReceipt = (reference: string) => ({
  cancelled: false,
  amountAuthorizedCents: 500,
  amountCapturedCents: 370,
  amountReleasedCents: 130,
  reference,
});

describe('createApi', () => {
  it('creates an intent for the maximum charge in dollars', async () => {
    const intent = await createApi(api.url).createPaymentIntent(370);
    expect(api.requests.at(-1)!.body).toEqual({ amount: 3.7 });
    expect(intent.paymentIntentId).toMatch(/^pi_fake_/);
    expect(intent.clientSecret).toContain('_secret_');
  });

  it('captures with the contract fields and reads the outcome in cents', async () => {
    const { paymentIntentId, outcome } = await authorizeThenCapture(500, PARTIAL_CAPTURE);
    expect(api.requests.at(-1)!.body).toEqual({
      paymentIntentId,
      actualAmount: 3.7,
      convertedCount: 37,
      totalCount: 50,
    });
    expect(outcome).toEqual(partialReceipt(paymentIntentId));
  });

  it('reads a cancelled capture: nothing charged, everything held released', async () => {
    const { paymentIntentId, outcome } = await authorizeThenCapture(1234, {
      convertedCount: 3,
      totalCount: 123,
      actualAmountCents: 30,
    });
    expect(outcome).toEqual({
      cancelled: true,
      amountAuthorizedCents: 1234,
      amountCapturedCents: 0,
      amountReleasedCents: 1234,
      reference: paymentIntentId,
    });
  });

  it("derives the receipt from the request when the answer has only the seed's fields", async () => {
    api.options.thinCapture = true;
    const { paymentIntentId, outcome } = await authorizeThenCapture(500, PARTIAL_CAPTURE);
    api.options.thinCapture = false;
    expect(outcome).toEqual(partialReceipt(paymentIntentId));
  });

  it('reads the config the server gives', async () => {
    api.options.payments = 'stripe';
    api.options.contactEmail = 'hello@placeport.test';
    const config = await createApi(api.url).getConfig();
    expect(config).toEqual({
      productName: 'PlacePort',
      contactEmail: 'hello@placeport.test',
      payments: 'stripe',
      publishableKey: 'pk_test_fake',
    });
    api.options.payments = 'demo';
  });
});

describe('a payment call that gets no answer', () => {
  /**
   * A server that takes every call and never answers it, and deadlines the test ends: each call's
   * deadline ends as soon as the server has the call (no real time passes). A call sent without a
   * deadline is answered with a 500 at once, so the test fails rather than waits.
   */
  async function silentServer() {
    const { createServer } = await import('node:http');
    const deadlines: { ms: number; controller: AbortController }[] = [];
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(`${request.method} ${request.url}`);
      const deadline = deadlines.at(-1)?.controller;
      if (deadline === undefined || deadline.signal.aborted) response.writeHead(500).end();
      else deadline.abort(new DOMException('signal timed out', 'TimeoutError'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = createApi(`http://127.0.0.1:${port}`, {
      deadline: (ms) => {
        const controller = new AbortController();
        deadlines.push({ ms, controller });
        return controller.signal;
      },
    });
    const close = () => {
      server.closeAllConnections();
      server.close();
    };
    return { client, deadlines, paths, close };
  }

  it('ends at its deadline as a lost answer, never a refusal: create, authorize, capture, status', async () => {
    const { client, deadlines, paths, close } = await silentServer();
    const calls = [
      () => client.createPaymentIntent(400),
      () => client.demoAuthorize('pi_1'),
      () =>
        client.capturePayment({
          paymentIntentId: 'pi_1',
          convertedCount: 1,
          totalCount: 40,
          actualAmountCents: 10,
        }),
      () => client.paymentStatus('pi_1'),
    ];
    try {
      for (const call of calls) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NoAnswerError);
        expect((error as Error).message).toBe(NO_ANSWER_TEXT);
        expect(refusalOf(error)).toBeNull();
      }
    } finally {
      close();
    }
    expect(paths).toEqual([
      'POST /api/create-payment-intent',
      'POST /api/demo/authorize',
      'POST /api/capture-payment',
      'GET /api/payments/pi_1',
    ]);
    expect(deadlines.map(({ ms }) => ms)).toEqual(Array(4).fill(PAYMENT_CALL_TIMEOUT_MS));
  });

  it('a refusal that comes before the deadline stays a refusal', async () => {
    api.options.refuse = {
      '/api/demo/authorize': { status: 409, code: 'payment_unexpected_state', message: 'No.' },
    };
    const controller = new AbortController();
    const error = await createApi(api.url, { deadline: () => controller.signal })
      .demoAuthorize('pi_1')
      .catch((e: unknown) => e);
    api.options.refuse = undefined;
    expect(refusalOf(error)?.code).toBe('payment_unexpected_state');
  });
});

describe('parseConfig', () => {
  it('falls back to demo payments and the defaults on a thin or broken body', () => {
    expect(parseConfig(null)).toEqual({
      productName: 'PlacePort',
      contactEmail: 'feedback@example.com',
      payments: 'demo',
      publishableKey: null,
    });
    expect(parseConfig({ payments: 'stripe' }).payments).toBe('demo');
    expect(parseConfig({ productName: '  ', contactEmail: 3 }).productName).toBe('PlacePort');
  });
});
