/**
 * A small local stand-in for the PlacePort API (architecture.md "Contracts") on 127.0.0.1, for
 * the web app's tests and for looking at the page before the real API runs. It records every
 * request, follows the contract's shapes and the server's money rules (product.md "Money": the
 * links it resolved for a payment are its count, capture charges `max(claimed, count)` capped at
 * the authorized places, under $0.50 cancels, a repeated capture answers the first result), and
 * can serve a built `dist/` with the SPA fallback.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

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
  /** Coordinates for a link without any, or null to leave it unresolved. */
  resolve?: (url: string) => string | null;
  /** A built web app to serve at `/`, unknown paths falling back to its index.html. */
  staticDir?: string;
  /**
   * Refusals the API gives, by path (`/api/create-payment-intent`): every call to that path is
   * answered `{ error: { code, message } }` with the status (and `Retry-After` when given).
   */
  refuse?: Record<string, { status: number; code: string; message: string; retryAfter?: number }>;
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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

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

async function serveStatic(dir: string, path: string, res: ServerResponse): Promise<void> {
  const safe = normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, '');
  let file = join(dir, safe);
  const found = await stat(file).catch(() => null);
  if (!found || found.isDirectory()) file = join(dir, 'index.html');
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(await readFile(file));
}

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const requests: RecordedRequest[] = [];
  const intents = new Map<
    string,
    {
      cents: number;
      status: string;
      /** Distinct links resolved for this payment: the server's own count. */
      resolved: Set<string>;
      /** The first capture's answer, repeated for any later one. */
      receipt?: Record<string, unknown>;
    }
  >();
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
        return fail(res, refusal.status, refusal.code, refusal.message);
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
            minimumChargeCents: 50,
          });
        case 'POST /api/create-payment-intent': {
          if (o.failIntent) return fail(res, 500, 'internal', 'Internal Server Error');
          const cents = Math.round(Number(fields.amount) * 100);
          if (!Number.isInteger(cents) || cents < 50) {
            return fail(res, 400, 'amount_too_small', 'Amount must be at least $0.50.');
          }
          const id = `pi_fake_${nextIntent++}`;
          intents.set(id, { cents, status: 'requires_payment_method', resolved: new Set() });
          return send(res, 200, { clientSecret: `${id}_secret_fake`, paymentIntentId: id });
        }
        case 'POST /api/demo/authorize': {
          const intent = intents.get(String(fields.paymentIntentId));
          if (!intent) return fail(res, 404, 'resource_missing', 'No such payment intent.');
          intent.status = 'requires_capture';
          return send(res, 200, { status: intent.status });
        }
        case 'POST /api/capture-payment': {
          if (o.failCapture) return fail(res, 502, 'upstream', 'Bad Gateway');
          const intent = intents.get(String(fields.paymentIntentId));
          if (!intent) return fail(res, 404, 'resource_missing', 'No such payment intent.');
          if (!intent.receipt) {
            const places = Math.min(
              intent.cents / 10,
              Math.max(Number(fields.convertedCount), intent.resolved.size),
            );
            const cents = places * 10;
            const cancelled = cents < 50;
            const captured = cancelled ? 0 : cents;
            intent.status = cancelled ? 'canceled' : 'succeeded';
            intent.receipt = o.thinCapture
              ? { cancelled, amountCaptured: captured / 100 }
              : {
                  cancelled,
                  amountCaptured: captured / 100,
                  amountAuthorized: intent.cents / 100,
                  amountReleased: (intent.cents - captured) / 100,
                  reference: String(fields.paymentIntentId),
                };
          }
          return send(res, 200, intent.receipt);
        }
        case 'POST /api/resolve-urls-batch': {
          const urls = Array.isArray(fields.urls) ? (fields.urls as unknown[]) : [];
          const payment =
            fields.paymentIntentId === undefined
              ? undefined
              : intents.get(String(fields.paymentIntentId));
          const results: Record<string, string> = {};
          for (const url of urls) {
            const resolved = typeof url === 'string' ? o.resolve?.(url) : null;
            if (typeof url === 'string' && resolved) {
              results[url] = resolved;
              payment?.resolved.add(url);
            }
          }
          return send(res, 200, { results });
        }
        default:
          if (path.startsWith('/api/')) return fail(res, 404, 'not_found', 'Not Found');
          if (o.staticDir && req.method === 'GET') return serveStatic(o.staticDir, path, res);
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
