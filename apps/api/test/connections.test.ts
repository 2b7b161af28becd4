import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { BATCH_DEADLINE_MS } from '@placeport/resolver';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import {
  DEFAULT_CONNECTION_LIMITS as DEFAULTS,
  connectionLimits,
  type ConnectionLimits,
} from '../src/http/connections.js';
import { settingsFor, UNLIMITED } from './support.js';

/**
 * A limit no test may reach: far past vitest's 120 s test timeout. A test sets the one limit it is
 * about to something small and the others to this, so only that limit can close the connection.
 * Limits a request must get through are never set below 5 s: a loaded machine cannot fail them.
 */
const FAR = 600_000;

/** Node checks headers and request timeouts this often in the tests that make them small. */
const QUICK_CHECKS = { timeoutCheckIntervalMs: 100 };

const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: placeport.test\r\n\r\n';
const HEALTH_THEN_CLOSE =
  'GET /api/health HTTP/1.1\r\nHost: placeport.test\r\nConnection: close\r\n\r\n';
/** The health body of an app on the memory store. */
const HEALTH_BODY = '{"ok":true,"status":"ok","store":"memory"}';
const OK_RESPONSE =
  /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"ok":true,"status":"ok","store":"memory"\}$/;
/** The headers of a resolve upload of a typical size (500 links); the blank line is left out. */
// Under the free body limit, so the upload is read (slowly) rather than refused for its size.
const SLOW_UPLOAD =
  'POST /api/resolve-urls-batch HTTP/1.1\r\nHost: placeport.test\r\n' +
  'Content-Type: application/json\r\nContent-Length: 8000\r\n';
/** Node's answer when the headers or request timeout ends a request (Fastify's clientError body). */
const TIMEOUT_RESPONSE = /^HTTP\/1\.1 408 Request Timeout\r\n/;

let apps: FastifyInstance[] = [];
let clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients) client.socket.destroy();
  clients = [];
  await Promise.all(apps.map((app) => app.close()));
  apps = [];
});

/**
 * The whole API, listening on a random loopback port with the given connection limits; `prepare`
 * runs before it listens (Fastify takes no routes after that).
 */
async function listen(
  connections: Partial<ConnectionLimits>,
  env: Record<string, string> = {},
  prepare: (app: FastifyInstance) => void = () => undefined,
  logLines?: string[],
): Promise<{ app: FastifyInstance; port: number; url: string }> {
  const app = await buildApp({
    settings: settingsFor(env),
    rateLimits: UNLIMITED,
    connections,
    ...(logLines
      ? { logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } }
      : {}),
  });
  apps.push(app);
  prepare(app);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port, url };
}

/** A plain TCP client, so a test controls every byte and when (or whether) it is sent. */
interface RawClient {
  socket: Socket;
  /** Everything received since the last {@link RawClient.take}. */
  received(): string;
  /** Returns what was received and starts afresh. */
  take(): string;
  /** Resolves with what was received once `done` holds; rejects if the connection closes first. */
  until(done: (received: string) => boolean): Promise<string>;
  /** Resolves when the connection is closed, whoever closed it; never on a timer. */
  closed: Promise<void>;
  isClosed(): boolean;
}

/** Connects to the server on 127.0.0.1, from `localAddress` (any of 127.0.0.0/8) when given. */
function open(port: number, localAddress?: string): RawClient {
  const socket = connect({ port, host: '127.0.0.1', ...(localAddress ? { localAddress } : {}) });
  let data = '';
  let isClosed = false;
  const listeners = new Set<() => void>();
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    data += chunk;
    for (const listener of listeners) listener();
  });
  // A connection the server cuts or refuses may be reset; 'close' is what the tests wait for.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      for (const listener of listeners) listener();
      resolve();
    }),
  );
  const client: RawClient = {
    socket,
    received: () => data,
    take() {
      const taken = data;
      data = '';
      return taken;
    },
    until(done) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(data)) {
            listeners.delete(check);
            resolve(data);
          } else if (isClosed) {
            listeners.delete(check);
            reject(new Error(`connection closed; received: ${JSON.stringify(data)}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
    closed,
    isClosed: () => isClosed,
  };
  clients.push(client);
  return client;
}

/** Sends `GET /api/health` on a kept-alive connection and returns the whole answer. */
async function health(client: RawClient): Promise<string> {
  client.take();
  client.socket.write(HEALTH);
  return client.until((received) => received.endsWith(HEALTH_BODY));
}

/** Asserts that each connection, in turn, still answers a health check on the same socket. */
async function expectAnswering(...connections: RawClient[]): Promise<void> {
  for (const connection of connections) expect(await health(connection)).toMatch(OK_RESPONSE);
}

/** Asserts that a new connection (from `localAddress` when given) is closed without an answer. */
async function expectRefused(port: number, localAddress?: string): Promise<void> {
  const refused = open(port, localAddress);
  refused.socket.write(HEALTH_THEN_CLOSE);
  await refused.closed;
  expect(refused.received()).toBe('');
}

/** Writes `chunk` every `everyMs` until the connection closes: a client that is slow, not idle. */
function trickle(client: RawClient, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (!client.socket.destroyed) client.socket.write(chunk);
  }, everyMs);
  void client.closed.then(() => clearInterval(timer));
}

/** Opens connections until the server keeps one (it may not have seen an earlier close yet). */
async function openAccepted(port: number): Promise<RawClient> {
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const client = open(port);
    client.socket.write(HEALTH);
    const answer = await client
      .until((received) => received.endsWith(HEALTH_BODY))
      .catch(() => undefined);
    if (answer !== undefined) return client;
  }
  throw new Error('no connection was accepted');
}

describe('production connection limits', () => {
  it('are the documented constants, consistent with each other and with the resolver', () => {
    expect(connectionLimits()).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      keepAliveBehindProxyMs: 72_000,
      connectionTimeoutMs: 60_000,
      timeoutCheckIntervalMs: 1_000,
      maxConnectionsPerClient: 64,
      maxConnections: 2_048,
    });
    expect(DEFAULTS.headersTimeoutMs).toBeLessThan(DEFAULTS.requestTimeoutMs);
    // A resolve call is silent until its batch deadline: the idle timeout must outlast it.
    expect(DEFAULTS.connectionTimeoutMs).toBeGreaterThan(BATCH_DEADLINE_MS);
    expect(() => connectionLimits({ headersTimeoutMs: 30_000 })).toThrow(RangeError);
    expect(() => connectionLimits({ maxConnections: 0 })).toThrow(RangeError);
  });

  it('are set on the server buildApp returns, and normal requests go through', async () => {
    const { app, url } = await listen({});
    expect(app.server.requestTimeout).toBe(DEFAULTS.requestTimeoutMs);
    expect(app.server.headersTimeout).toBe(DEFAULTS.headersTimeoutMs);
    expect(app.server.keepAliveTimeout).toBe(DEFAULTS.keepAliveTimeoutMs);
    expect(app.server.timeout).toBe(DEFAULTS.connectionTimeoutMs);
    expect(app.server.maxConnections).toBe(DEFAULTS.maxConnections);
    expect(Reflect.get(app.server, 'connectionsCheckingInterval')).toBe(
      DEFAULTS.timeoutCheckIntervalMs,
    );

    const healthResponse = await fetch(`${url}/api/health`);
    expect(healthResponse.status).toBe(200);
    expect(await healthResponse.json()).toEqual({ ok: true, status: 'ok', store: 'memory' });
    const created = await fetch(`${url}/api/create-payment-intent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1 }),
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ paymentIntentId: expect.any(String) });
  });
});

describe('slow and idle clients', () => {
  it('cuts a client that keeps sending header lines but never ends them, after headersTimeout', async () => {
    const { port } = await listen({
      headersTimeoutMs: 300,
      requestTimeoutMs: FAR,
      connectionTimeoutMs: FAR,
      ...QUICK_CHECKS,
    });
    const client = open(port);
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: placeport.test\r\n');
    trickle(client, 'X-Slow: 1\r\n', 200);

    await client.closed;
    // Only the headers timeout answers 408 here: the request and idle timeouts are out of reach.
    expect(client.received()).toMatch(TIMEOUT_RESPONSE);
  });

  it('cuts a client whose headers arrived but whose body trickles, after requestTimeout, and logs the 408 it sent', async () => {
    const logLines: string[] = [];
    const { port } = await listen(
      { headersTimeoutMs: 400, requestTimeoutMs: 800, connectionTimeoutMs: FAR, ...QUICK_CHECKS },
      {},
      undefined,
      logLines,
    );
    // "100 Continue" proves the headers were read in time, so the cut is the request timeout's. A
    // machine stalled past the headers timeout before reading them makes a run prove nothing: retry.
    for (let attempt = 1; ; attempt += 1) {
      const client = open(port);
      client.socket.write(`${SLOW_UPLOAD}Expect: 100-continue\r\n\r\n`);
      const head = await client
        .until((received) => received.includes('\r\n\r\n'))
        .catch(() => client.received());
      if (!head.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        expect(head).toMatch(TIMEOUT_RESPONSE);
        expect(attempt, 'the server never read the headers in time').toBeLessThan(5);
        continue;
      }
      client.take();
      client.socket.write('{');
      // One byte every 200 ms: the 100,000-byte body would take over five hours.
      trickle(client, ' ', 200);

      await client.closed;
      expect(client.received()).toMatch(TIMEOUT_RESPONSE);
      // The request is logged, with the 408 the client got (it was missing from the log: no
      // answer is sent on a closed socket, so Fastify's onResponse never ran).
      const logged = () =>
        logLines
          .map((line) => JSON.parse(line) as { msg?: string; status?: number; url?: string })
          .filter((line) => line.url === '/api/resolve-urls-batch');
      await vi.waitFor(() => expect(logged()).toHaveLength(1), { timeout: 60_000 });
      expect(logged()[0]).toMatchObject({ msg: 'request refused before it was read', status: 408 });
      return;
    }
  });

  it('closes a kept-alive connection that stays idle after its answer, after keepAliveTimeout', async () => {
    const { port } = await listen({ keepAliveTimeoutMs: 300, connectionTimeoutMs: FAR });
    const client = open(port);
    const answer = await health(client);
    expect(answer).toMatch(OK_RESPONSE);
    expect(answer).toMatch(/\r\nConnection: keep-alive\r\n/i);
    client.take();

    await client.closed; // the client sends nothing more
    expect(client.received()).toBe('');
  });

  it('destroys a connection that never sends a byte, after connectionTimeout', async () => {
    const { port } = await listen({
      headersTimeoutMs: FAR,
      requestTimeoutMs: 2 * FAR,
      connectionTimeoutMs: 300,
    });
    const client = open(port);

    await client.closed;
    // No 408: the headers and request timeouts are out of reach; the idle timeout closes silently.
    expect(client.received()).toBe('');
  });

  it('never cuts an answer that takes longer than requestTimeout', async () => {
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // A route that answers only when the test says so, standing in for a long resolve batch.
    const { port, url } = await listen(
      { headersTimeoutMs: 5_000, requestTimeoutMs: 6_000, ...QUICK_CHECKS },
      {},
      (app) =>
        app.get('/api/test/held', async () => {
          started();
          await released;
          return { ok: true };
        }),
    );
    const held = fetch(`${url}/api/test/held`);
    held.catch(() => undefined); // awaited below; a failed test must not leave it unhandled
    await handlerStarted;

    // A second request begun after the held one is cut by the request timeout: by then the held
    // request, older still, is past it too, and Node's sweep has passed it over.
    const slow = open(port);
    slow.socket.write(`${SLOW_UPLOAD}\r\n{`);
    try {
      await slow.closed;
      expect(slow.received()).toMatch(TIMEOUT_RESPONSE);
    } finally {
      release(); // even on failure, so closing the app does not wait for the held answer
    }
    const response = await held;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});

describe('connection caps', () => {
  it('refuses a connection past the per-client cap; the first ones stay usable', async () => {
    const { port } = await listen({ maxConnectionsPerClient: 2 });
    const first = open(port);
    const second = open(port);
    await expectAnswering(first, second);

    await expectRefused(port);

    await expectAnswering(first, second);

    // A closed connection frees its place.
    first.socket.end();
    await first.closed;
    const fourth = await openAccepted(port);
    expect(fourth.isClosed()).toBe(false);
    await expectAnswering(second);
  });

  it('counts connections per client key: other loopback addresses are the same client', async () => {
    const { port } = await listen({ maxConnectionsPerClient: 2, maxConnections: 100 });
    const first = open(port, '127.0.0.1');
    const second = open(port, '127.0.0.2');
    await expectAnswering(first, second);

    // 33 loopback addresses once filled every slot; now each further one is the same client.
    for (const address of ['127.0.0.3', '127.0.0.33', '127.1.2.3']) {
      await expectRefused(port, address);
    }
    await expectAnswering(first, second);
  });

  it('refuses a connection past the process-wide cap; the first ones stay usable', async () => {
    const { port } = await listen({ maxConnections: 2 });
    const first = open(port);
    const second = open(port);
    await expectAnswering(first, second);

    await expectRefused(port);

    await expectAnswering(first, second);
  });

  it('leaves the per-client cap to the proxy when TRUST_PROXY is set', async () => {
    const behindProxy = { TRUST_PROXY: '1', DEMO_PAYMENTS: 'on' };
    const { app, port } = await listen({ maxConnectionsPerClient: 1 }, behindProxy);
    // And keeps its few reused connections longer than a load balancer's 60 s idle timeout,
    // so it never closes one the proxy is sending a request on (a 502).
    expect(app.server.keepAliveTimeout).toBe(DEFAULTS.keepAliveBehindProxyMs);
    expect(DEFAULTS.keepAliveBehindProxyMs).toBeGreaterThan(60_000);
    const first = open(port);
    const second = open(port);
    await expectAnswering(first, second);
  });
});
