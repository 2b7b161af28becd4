import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { BATCH_DEADLINE_MS } from '@placeport/resolver';
import { clientKeyOf } from './client.js';

/** The production limits of connections; tests lower them through `buildApp({ connections })`. */
export const DEFAULT_CONNECTION_LIMITS = {
  /**
   * Longest time to receive one whole request, headers and body (Node's `server.requestTimeout`,
   * answered with 408 and a closed connection). Node stops this clock once the request has been
   * received: it never covers the time the route takes to answer, so a resolve batch answering at
   * its 45 s deadline is not cut by it. In 30 s a typical 500-link resolve body (about 100 KB)
   * arrives over an uplink of 30 kbit/s; slow-body clients, measured holding sockets for over six
   * minutes, are cut.
   */
  requestTimeoutMs: 30_000,
  /**
   * Longest time to receive a request's headers (Node's `server.headersTimeout`), the slowloris
   * defence. Real clients send them in one packet; 10 s allows a slow handshake and
   * retransmissions. Must be below `requestTimeoutMs`, which Node requires and which keeps the
   * body's budget.
   */
  headersTimeoutMs: 10_000,
  /**
   * How long an idle kept-alive connection waits for its next request (Node's default, and what
   * browsers expect). Fastify's own default is 72 s, meant for sitting behind a load balancer whose
   * idle timeout is 60 s; served directly, that is 72 s of an idle socket per visitor tab.
   */
  keepAliveTimeoutMs: 5_000,
  /**
   * The same behind a reverse proxy (`TRUST_PROXY`), whose connections are few and reused: longer
   * than the idle timeout of common load balancers (60 s), so the server never closes a connection
   * the proxy is about to send a request on (which the proxy answers with a 502). Fastify's default.
   */
  keepAliveBehindProxyMs: 72_000,
  /**
   * A socket with no bytes in either direction for this long is destroyed (Fastify's
   * `connectionTimeout`, Node's `server.timeout`): what frees half-open connections whose client
   * is gone, and responses nobody reads. A resolve call is silent while its batch runs, up to the
   * resolver's batch deadline (45 s), so this is that deadline plus 15 s for the answer to be
   * built and sent.
   */
  connectionTimeoutMs: BATCH_DEADLINE_MS + 15_000,
  /**
   * How often Node looks for requests past the headers or request timeout
   * (`connectionsCheckingInterval`). Node's default of 30 s would let a slow client overstay the
   * 10 s headers timeout fourfold; a sweep over the requests still arriving is cheap once a second.
   */
  timeoutCheckIntervalMs: 1_000,
  /**
   * Simultaneous connections one client ({@link clientKeyOf}: an IPv4 address, an IPv6 /64, this
   * machine's loopback addresses together) may hold; past it, new ones are closed at once. A
   * browser opens at most 6 per site, so this leaves room for a household or office behind one NAT
   * address, and stops one client from taking the whole `maxConnections`: counted per address, 33
   * loopback addresses (or 33 addresses of one /64) filled it.
   */
  maxConnectionsPerClient: 64,
  /**
   * Simultaneous connections the process accepts (Node's `server.maxConnections`); past it, new
   * ones are closed at once. Each is a file descriptor: this keeps well clear of the open-file
   * limit (Node raises its soft limit to the hard limit, often 4,096 or more), leaving descriptors
   * for upstream requests, static files and logs, so a flood of connections cannot stop the
   * process from working. It takes 32 clients at `maxConnectionsPerClient` to fill it.
   */
  maxConnections: 2_048,
};

/** The connection limits of one app. */
export type ConnectionLimits = typeof DEFAULT_CONNECTION_LIMITS;

/** The production limits with any given ones in their place; throws if they cannot work together. */
export function connectionLimits(overrides: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`Connection limit ${name} must be a positive whole number.`);
    }
  }
  if (limits.headersTimeoutMs >= limits.requestTimeoutMs) {
    throw new RangeError('headersTimeoutMs must be less than requestTimeoutMs.');
  }
  return limits;
}

/**
 * Installs on the app's HTTP server what Fastify has no option for: the headers timeout, the
 * process-wide connection cap, and the per-client cap (each connection counted under its client
 * key from accept to close; one past the cap is destroyed before any byte is read). The timeouts
 * Fastify does take (`requestTimeout`, `connectionTimeout`, `keepAliveTimeout`) are passed to
 * `Fastify()`. Behind a reverse proxy (`TRUST_PROXY`) every connection comes from the proxy, so
 * the per-client cap is then the proxy's job, and is not applied here.
 */
export function installConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  behindProxy: boolean,
): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.maxConnections = limits.maxConnections;
  if (behindProxy) return;

  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) {
      socket.destroy();
      return;
    }
    const client = clientKeyOf(address);
    const count = open.get(client) ?? 0;
    if (count >= limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
