/**
 * A small local stand-in for the PlacePort API (architecture.md "Contracts") on 127.0.0.1, for
 * the web app's tests. It records every request, follows the contract's shapes and answers what
 * the test sets. It does not copy the server's money rules (the API's own tests hold
 * those): a capture answers the receipt the test set, or else charges what the page claimed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '@placeport/contract';

export interface FakeApiOptions {
  payments?: 'demo' | 'stripe';
  publishableKey?: string;
  contactEmail?: string;
  /** Answer intent creation with a 500. */
  failIntent?: boolean;
  /** Answer capture with a 502. */
  failCapture?: boolean;
  /** Answer capture with the seed's fields only (`cancelled`, `amountCaptured`), no receipt. */
  thinCapture?: boolean;
  /**
   * The capture's answer, in the API's dollars (`cancelled`, `amountAuthorized`, `amountCaptured`,
   * `amountReleased`), whatever the page claimed; `reference` is the intent's id unless set. Tests
   * set it so the page must show what the server charged. Unset, the capture charges the claim
   * (cancelled when it is under the `minimumChargeCents` this fake's config announces).
   */
  capture?: Record<string, unknown>;
  /** Coordinates for a link without any, or null to leave it unresolved. */
  resolve?: (url: string) => string | null;
  /**
   * Refusals the API gives, by path (`/api/create-payment-intent`): every call to that path is
   * answered `{ error: { code, message, ...numbers } }` with the status (and `Retry-After` when
   * given).
   */
  refuse?: Record<string, ErrorBody & { status: number; retryAfter?: number }>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  body: unknown;
}

export interface FakeApi {
  url: string;
  requests: RecordedRequest[];
  /** Settings may be changed between requests. */
  options: FakeApiOptions;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { error: { code, message } });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string): unknown {
  try {
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return raw;
  }
}

/** What this fake's config announces as the smallest card charge. */
const MINIMUM_CHARGE_CENTS = 50;

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  /** The hold of each intent created, in cents, as the page asked for it. */
  const holds = new Map<string, number>();
  let nextIntent = 1;
  const api: FakeApi = { url: '', requests, options, close: async () => undefined };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const rawBody = await readBody(req);
      const body = parseBody(rawBody);
      if (path.startsWith('/api/')) {
        requests.push({ method: req.method ?? '', path, headers: req.headers, rawBody, body });
      }
      const fields = (body ?? {}) as Record<string, unknown>;
      const o = api.options;
      const refusal = o.refuse?.[path];
      if (refusal) {
        if (refusal.retryAfter !== undefined) {
          res.setHeader('retry-after', String(refusal.retryAfter));
        }
        const { status, retryAfter: _, ...error } = refusal;
        return send(res, status, { error });
      }
      switch (`${req.method} ${path}`) {
        case 'GET /api/health':
          return send(res, 200, { ok: true });
        case 'GET /api/config':
          return send(res, 200, {
            productName: 'PlacePort',
            contactEmail: o.contactEmail ?? 'feedback@example.com',
            payments: o.payments ?? 'demo',
            ...(o.payments === 'stripe'
              ? { publishableKey: o.publishableKey ?? 'pk_test_fake' }
              : {}),
            pricePerPlaceCents: 10,
            minimumChargeCents: MINIMUM_CHARGE_CENTS,
          });
        case 'POST /api/create-payment-intent': {
          if (o.failIntent) return fail(res, 500, 'internal', 'Internal Server Error');
          const id = `pi_fake_${nextIntent++}`;
          holds.set(id, Math.round(Number(fields.amount) * 100));
          return send(res, 200, { clientSecret: `${id}_secret_fake`, paymentIntentId: id });
        }
        case 'POST /api/demo/authorize': {
          if (!holds.has(String(fields.paymentIntentId))) {
            return fail(res, 404, 'resource_missing', 'No such payment intent.');
          }
          return send(res, 200, { status: 'requires_capture' });
        }
        case 'POST /api/capture-payment': {
          if (o.failCapture) return fail(res, 502, 'upstream', 'Bad Gateway');
          const reference = String(fields.paymentIntentId);
          const hold = holds.get(reference);
          if (hold === undefined)
            return fail(res, 404, 'resource_missing', 'No such payment intent.');
          if (o.capture) return send(res, 200, { reference, ...o.capture });
          const claimed = Math.round(Number(fields.actualAmount) * 100);
          const captured = claimed < MINIMUM_CHARGE_CENTS ? 0 : claimed;
          const cancelled = captured === 0;
          return send(
            res,
            200,
            o.thinCapture
              ? { cancelled, amountCaptured: captured / 100 }
              : {
                  cancelled,
                  amountCaptured: captured / 100,
                  amountAuthorized: hold / 100,
                  amountReleased: (hold - captured) / 100,
                  reference,
                },
          );
        }
        case 'POST /api/resolve-urls-batch': {
          const urls = Array.isArray(fields.urls) ? (fields.urls as unknown[]) : [];
          const results: Record<string, string> = {};
          for (const url of urls) {
            const resolved = typeof url === 'string' ? o.resolve?.(url) : null;
            if (typeof url === 'string' && resolved) results[url] = resolved;
          }
          return send(res, 200, { results });
        }
        default:
          return fail(res, 404, 'not_found', 'Not Found');
      }
    })().catch((error: unknown) => {
      fail(res, 500, 'internal', error instanceof Error ? error.message : 'Internal error');
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  api.url = `http://127.0.0.1:${port}`;
  api.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return api;
}
