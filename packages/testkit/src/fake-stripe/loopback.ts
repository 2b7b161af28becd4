import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request's headers as plain strings (repeated headers joined), for request logs. */
export function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** A server listening on 127.0.0.1 at a random port. */
export interface LoopbackServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `handle` on 127.0.0.1 (random port), used by both fakes. A handler that throws answers
 * 500 with `failure(error)` as its body; `close` drops open connections so tests end promptly.
 */
export async function listenOnLoopback(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  failure: (error: unknown) => string,
): Promise<LoopbackServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(failure(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
