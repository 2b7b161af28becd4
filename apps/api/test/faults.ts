/**
 * Tools of the fault tests: a tap in front of the fake Stripe that runs a step (such as killing
 * Redis) when a given request arrives, before passing it on; a fetch for the resolver that does
 * the same for upstream requests; waiting for a condition without a timer of our own; and a
 * record of unhandled rejections, which must stay empty.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request arriving at the tap: its method and path (with the query). */
export interface TappedRequest {
  method: string;
  path: string;
}

/** A loopback proxy in front of the fake Stripe (give its `url` as `STRIPE_API_BASE`). */
export interface StripeTap {
  url: string;
  /** Runs before each request is passed on; the request waits for it. */
  before: (request: TappedRequest) => void | Promise<void>;
  close(): Promise<void>;
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

function forwardedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && !HOP_HEADERS.has(name)) headers[name] = value;
  }
  return headers;
}

/** Starts a tap that passes every request to `target` (the fake Stripe's URL) unchanged. */
export async function startStripeTap(target: string): Promise<StripeTap> {
  const tap: StripeTap = { url: '', before: () => undefined, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      await tap.before({ method: request.method ?? 'GET', path: request.url ?? '/' });
      const answer = await fetch(`${target}${request.url ?? '/'}`, {
        method: request.method,
        headers: forwardedHeaders(request),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_HEADERS.has(name)) headers[name] = value;
      });
      response.writeHead(answer.status, headers);
      response.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tap.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tap.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return tap;
}

/** A fetch for the resolver that runs `before` ahead of each upstream request. */
export function tappedFetch(before: () => void | Promise<void>): typeof fetch {
  return async (input, init) => {
    await before();
    return fetch(input, init);
  };
}

/** Resolves once `done` holds, checking every 25 ms; only the test's own timeout bounds it. */
export async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * Records unhandled rejections in this test process while installed (vitest would report them
 * too; this makes the test that caused one fail by name). `stop()` returns what was recorded.
 */
export function recordUnhandledRejections(): { stop(): unknown[] } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return {
    stop() {
      process.off('unhandledRejection', listener);
      return seen;
    },
  };
}
