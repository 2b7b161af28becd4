import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeStripeError, type StripeErrorBody } from './errors.js';
import { decodeForm, field, type FormObject } from './form.js';
import { IdempotencyStore, type StoredResponse } from './idempotency.js';
import { headersOf, listenOnLoopback } from './loopback.js';
import { searchIntents } from './search.js';
import {
  PaymentIntentStore,
  type FakePaymentIntent,
  type OrderedIntent,
} from './payment-intents.js';

/** One request the fake received, kept so tests can prove what did (and did not) reach "Stripe". */
export interface RecordedStripeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: FormObject;
  idempotencyKey: string | undefined;
  status: number;
  replayed: boolean;
}

/** A running fake Stripe API and the handles tests use to inspect and steer it. */
export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: give it to the API as `STRIPE_API_BASE`. */
  url: string;
  port: number;
  secretKey: string;
  publishableKey: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedStripeRequest[];
  /** The requests that could change state (every POST), in order. */
  mutations(): RecordedStripeRequest[];
  paymentIntent(id: string): FakePaymentIntent | undefined;
  paymentIntents(): FakePaymentIntent[];
  /** Authorizes an intent as a customer would in the browser (test helper; not recorded as a request). */
  authorize(id: string, paymentMethod?: string): FakePaymentIntent;
  /** Creates an intent directly, e.g. one that another product made on the same account. */
  createIntent(params: Record<string, string>): FakePaymentIntent;
  /**
   * Creates `count` open manual-capture authorizations of `amount` cents (default $10.00) directly,
   * e.g. 1,000 holds for a settlement sweep. Not recorded as requests; returned in creation order.
   */
  seedIntents(count: number, options?: SeedIntentsOptions): FakePaymentIntent[];
  /**
   * Freezes what search sees at the current state, as Stripe's search index lags behind writes
   * (up to a minute, longer in outages): later creates, captures and updates stay invisible to
   * `GET /v1/payment_intents/search` (retrieve stays current) until `releaseSearchIndex`.
   */
  holdSearchIndex(): void;
  releaseSearchIndex(): void;
  /** Moves the fake's clock, e.g. past Stripe's seven-day authorization expiry. */
  advanceClock(ms: number): void;
  /** Makes the next `count` requests fail with this Stripe error, without touching any state. */
  failNext(count: number, status: number, error: StripeErrorBody, options?: FailureOptions): void;
  clearRequests(): void;
  close(): Promise<void>;
}

/** Options for {@link FakeStripe.seedIntents}. */
/** How an injected failure behaves beyond its answer. */
export interface FailureOptions {
  /**
   * Saved under the request's idempotency key, as Stripe saves a failure from inside an endpoint
   * (a 500 `api_error`): a retry with the same key and parameters gets it again, for 24 hours. An
   * outage in front of Stripe's API (the default here) saves nothing.
   */
  savedUnderKey?: boolean;
  /** Only a request whose path ends with this (`/capture`) fails; others pass it by. */
  pathEndsWith?: string;
}

export interface SeedIntentsOptions {
  amount?: number;
  metadata?: (index: number) => Record<string, string>;
}

/** The only keys accepted; any others are rejected with Stripe's 401. */
const secretKey = 'sk_test_placeportFakeSecret';
const publishableKey = 'pk_test_placeportFakePublishable';

const INTENT_PATH = /^\/v1\/payment_intents(?:\/([A-Za-z0-9_]+)(?:\/(confirm|capture|cancel))?)?$/;
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-max-age': '600',
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, answer: StoredResponse, replayed: boolean): void {
  response.writeHead(answer.status, {
    ...CORS_HEADERS,
    'content-type': 'application/json',
    'request-id': `req_fake${Date.now().toString(36)}`,
    ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
  });
  response.end(JSON.stringify(answer.body));
}

function errorAnswer(error: FakeStripeError): StoredResponse {
  return { status: error.status, body: { error: error.body } };
}

type Caller = { kind: 'secret' } | { kind: 'publishable'; clientSecret: string } | { kind: 'none' };

/** What Stripe answers a publishable key (the browser) for anything but its own intent. */
function refusedToBrowser(): FakeStripeError {
  return new FakeStripeError(401, {
    type: 'invalid_request_error',
    message: 'This API call cannot be made with a publishable API key.',
  });
}

function unrecognized(method: string, path: string): FakeStripeError {
  return new FakeStripeError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}).`,
  });
}

/** Stripe redacts metadata from objects it returns to publishable-key (browser) requests. */
function redactForBrowser(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const record = body as Record<string, unknown>;
  if (record.object === 'payment_intent') return { ...record, metadata: {} };
  if (typeof record.error === 'object' && record.error !== null) {
    const error = record.error as Record<string, unknown>;
    if (error.payment_intent) {
      return { error: { ...error, payment_intent: redactForBrowser(error.payment_intent) } };
    }
  }
  return body;
}

/**
 * Starts a fake of Stripe's PaymentIntents API on 127.0.0.1 (random port). The `stripe` SDK talks to
 * it through `host`/`port`/`protocol: 'http'`; a browser (Stripe.js or a shim) can confirm through it
 * with the publishable key and `client_secret`, so it answers CORS `*` and reads form bodies.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const store = new PaymentIntentStore();
  const idempotency = new IdempotencyStore();
  const requests: RecordedStripeRequest[] = [];
  const failures: Array<StoredResponse & FailureOptions> = [];
  /** What search sees while the index is held (see `holdSearchIndex`); live otherwise. */
  let heldSearchIndex: OrderedIntent[] | undefined;

  function callerOf(request: IncomingMessage, params: FormObject): Caller {
    const auth = request.headers.authorization;
    if (auth !== undefined)
      return auth === `Bearer ${secretKey}` ? { kind: 'secret' } : { kind: 'none' };
    const key = field(params, 'key');
    const clientSecret = field(params, 'client_secret');
    return key === publishableKey && clientSecret
      ? { kind: 'publishable', clientSecret }
      : { kind: 'none' };
  }

  function route(method: string, path: string, params: FormObject, caller: Caller): unknown {
    const match = INTENT_PATH.exec(path);
    if (!match) throw unrecognized(method, path);
    const [, id, action] = match;
    if (id === 'search' && !action) {
      if (method !== 'GET') throw unrecognized(method, path);
      if (caller.kind !== 'secret') throw refusedToBrowser();
      return searchIntents(heldSearchIndex ?? store.ordered(), params);
    }
    if (caller.kind === 'publishable') {
      const intent = id ? store.get(id) : undefined;
      const allowed = intent && (action === 'confirm' || (!action && method === 'GET'));
      if (!intent || !allowed || intent.client_secret !== caller.clientSecret) {
        throw refusedToBrowser();
      }
    }
    if (!id && method === 'POST') return store.create(params);
    if (id && !action && method === 'GET') return store.get(id);
    if (id && !action && method === 'POST') return store.update(id, params);
    if (id && method === 'POST' && action === 'confirm') return store.confirm(id, params);
    if (id && method === 'POST' && action === 'capture') return store.capture(id, params);
    if (id && method === 'POST' && action === 'cancel') return store.cancel(id, params);
    throw unrecognized(method, path);
  }

  function answer(
    method: string,
    path: string,
    params: FormObject,
    caller: Caller,
  ): StoredResponse {
    let result: StoredResponse;
    try {
      result = { status: 200, body: structuredClone(route(method, path, params, caller)) };
    } catch (error) {
      if (!(error instanceof FakeStripeError)) throw error;
      result = structuredClone(errorAnswer(error));
    }
    return caller.kind === 'publishable'
      ? { status: result.status, body: redactForBrowser(result.body) }
      : result;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (method === 'OPTIONS') {
      response.writeHead(204, {
        ...CORS_HEADERS,
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
      });
      response.end();
      return;
    }
    const raw = await readBody(request);
    const query = Object.fromEntries(url.searchParams);
    const body = decodeForm(raw);
    // GET parameters come in the query string.
    const params: FormObject = { ...decodeForm(url.search), ...body };
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    const record: RecordedStripeRequest = {
      method,
      path: url.pathname,
      query,
      headers: headersOf(request),
      body,
      idempotencyKey,
      status: 0,
      replayed: false,
    };
    requests.push(record);

    const caller = callerOf(request, params);
    const scope = caller.kind === 'secret' ? secretKey : publishableKey;
    const fingerprint = `${method} ${url.pathname} ${raw}`;
    let result: StoredResponse;
    const at = failures.findIndex(
      (failure) => !failure.pathEndsWith || url.pathname.endsWith(failure.pathEndsWith),
    );
    const injected = at >= 0 ? failures.splice(at, 1)[0] : undefined;
    if (injected) {
      result = { status: injected.status, body: injected.body };
      if (injected.savedUnderKey && method === 'POST' && idempotencyKey && caller.kind !== 'none') {
        idempotency.save(scope, idempotencyKey, fingerprint, result);
      }
    } else if (caller.kind === 'none') {
      result = errorAnswer(
        new FakeStripeError(401, {
          type: 'invalid_request_error',
          message: request.headers.authorization
            ? 'Invalid API Key provided: sk_test_****'
            : 'You did not provide an API key.',
        }),
      );
    } else if (method === 'POST' && idempotencyKey) {
      const found = idempotency.lookup(scope, idempotencyKey, fingerprint);
      if (found.kind === 'replay') {
        result = found.response;
        record.replayed = true;
      } else if (found.kind === 'mismatch') {
        result = errorAnswer(
          new FakeStripeError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          }),
        );
      } else {
        result = answer(method, url.pathname, params, caller);
        idempotency.save(scope, idempotencyKey, fingerprint, result);
      }
    } else {
      result = answer(method, url.pathname, params, caller);
    }
    record.status = result.status;
    send(response, result, record.replayed);
  }

  const server = await listenOnLoopback(handle, (error) =>
    JSON.stringify({
      error: { type: 'api_error', message: `Fake Stripe failed: ${String(error)}` },
    }),
  );

  return {
    url: server.url,
    port: server.port,
    secretKey,
    publishableKey,
    requests,
    mutations: () => requests.filter((request) => request.method === 'POST'),
    paymentIntent: (id) => store.all().find((intent) => intent.id === id),
    paymentIntents: () => store.all(),
    authorize: (id, paymentMethod = 'pm_card_visa') =>
      store.confirm(id, { payment_method: paymentMethod }),
    createIntent: (params) => store.create(decodeForm(new URLSearchParams(params).toString())),
    seedIntents: (count, { amount = 1000, metadata = () => ({}) } = {}) =>
      Array.from({ length: count }, (_, index) => {
        const { id } = store.create({
          amount: String(amount),
          currency: 'usd',
          capture_method: 'manual',
          automatic_payment_methods: { enabled: 'true', allow_redirects: 'never' },
          metadata: metadata(index),
        });
        return store.confirm(id, { payment_method: 'pm_card_visa' });
      }),
    holdSearchIndex: () => {
      heldSearchIndex = structuredClone(store.ordered());
    },
    releaseSearchIndex: () => {
      heldSearchIndex = undefined;
    },
    advanceClock: (ms) => store.advanceClock(ms),
    failNext: (count, status, error, options = {}) => {
      for (let i = 0; i < count; i += 1) failures.push({ status, body: { error }, ...options });
    },
    clearRequests: () => {
      requests.length = 0;
    },
    close: server.close,
  };
}
