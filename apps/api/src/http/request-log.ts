import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The status the API wrote on a socket Node's HTTP server gave up on (`clientErrorHandler`), just
 * before closing it: a request whose body trickled past `requestTimeout` was answered 408 there,
 * and its log line says so.
 */
const writtenBeforeClose = new WeakMap<Socket, number>();

/** Records the status written on `socket` just before it is closed (see {@link installRequestLog}). */
export function noteStatusWritten(socket: Socket, status: number): void {
  writtenBeforeClose.set(socket, status);
}

/** The header a request's id comes in (from a trusted proxy) and is sent back in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming request id that is kept: letters, digits and `._:-`, at most 128 of them. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Each request's id, in its every log line (`reqId`) and its answer's `X-Request-Id`: the one a
 * trusted proxy sent (behind `TRUST_PROXY`, where the proxy's logs use it too) when it is a plain
 * token, else a random UUID, so ids are unique across processes and restarts. A client reaching
 * the server directly cannot choose its id.
 */
export function requestIdGenerator(trustIncoming: boolean): (request: IncomingMessage) => string {
  return (request) => {
    const given = trustIncoming ? request.headers[REQUEST_ID_HEADER] : undefined;
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  };
}

/** The longest part of a request's address a log line keeps (a 15 KB query made 15 KB lines). */
export const LOGGED_URL_CHARS = 200;

/** How often the count of requests refused for their rate or an unknown address is logged. */
export const REFUSALS_LOG_INTERVAL_MS = 60_000;

/** Statuses a flood is made of: each is logged at `debug`, and counted at `info` once a minute. */
const FLOOD_STATUSES = new Set([404, 429]);

/** A request's address as logged: at most {@link LOGGED_URL_CHARS} characters. */
export function loggedUrl(url: string): string {
  return url.length > LOGGED_URL_CHARS ? `${url.slice(0, LOGGED_URL_CHARS)}…` : url;
}

/** The level a refusal of `status` is logged at: a flood's are `debug`. */
export function refusalLevel(status: number): 'debug' | 'info' {
  return FLOOD_STATUSES.has(status) ? 'debug' : 'info';
}

/**
 * Every answer names its request's id ({@link requestIdGenerator}), and one log line per request,
 * when it is answered (in place of Fastify's two, "incoming request" and "request completed"): its
 * method, address (cut), status and time; a request whose connection closed before it was read,
 * one line saying so (with the status Node's HTTP server answered, if any). A flood's answers (404, 429)
 * are `debug`, and their count is said at `info` once a minute while there are any: one client
 * sending 4,600 requests a second wrote three info lines for each, 2.4 MB of log a second.
 */
export function installRequestLog(
  app: FastifyInstance,
  intervalMs = REFUSALS_LOG_INTERVAL_MS,
): void {
  const refused = new Map<number, number>();
  const timer = setInterval(() => {
    if (refused.size === 0) return;
    app.log.info(Object.fromEntries(refused), 'requests refused in the last minute, by status');
    refused.clear();
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  // A request whose connection closed before its answer: refused by Node's HTTP server (408 when
  // its body trickled past the request timeout, 400 when its client stopped sending halfway: see
  // noteStatusWritten), or dropped by its client (a reset). No answer is sent then, so onResponse
  // never runs and the request was missing from the log.
  app.addHook('onRequestAbort', async (request) => {
    const status = writtenBeforeClose.get(request.raw.socket);
    request.log.info(
      { method: request.method, url: loggedUrl(request.url), ...(status ? { status } : {}) },
      status ? 'request refused before it was read' : 'request dropped by the client',
    );
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply) => {
    const status = reply.statusCode;
    const line = {
      method: request.method,
      url: loggedUrl(request.url),
      status,
      ms: Math.round(reply.elapsedTime),
    };
    if (FLOOD_STATUSES.has(status)) {
      refused.set(status, (refused.get(status) ?? 0) + 1);
      request.log.debug(line, 'request completed');
    } else request.log.info(line, 'request completed');
  });
}
