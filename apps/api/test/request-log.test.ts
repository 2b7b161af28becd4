/**
 * What the API logs of its requests (operations audit): one line per request, its address cut to
 * 200 characters; a flood's answers (404, 429) at debug, their count said at info once a minute.
 * One client's flood of refused requests wrote three info lines each, 2.4 MB of log a second.
 */
import { connect, type AddressInfo, type Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installRequestLog, LOGGED_URL_CHARS, REQUEST_ID_HEADER } from '../src/http/request-log.js';
import { demoApp, settingsFor } from './support.js';

interface Line {
  level: number;
  msg: string;
  url?: string;
  status?: number;
  [key: string]: unknown;
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A logger writing into `lines`, at `level`. */
function capture(level: string) {
  const lines: Line[] = [];
  return {
    lines,
    logger: {
      level,
      stream: { write: (line: string) => void lines.push(JSON.parse(line) as Line) },
    },
  };
}

const INFO = 30;

describe('the request log', () => {
  it('writes one info line per request answered, with its address cut, and none at info for a flood of 404s', async () => {
    const { lines, logger } = capture('info');
    app = await demoApp({ logger });
    const long = `/api/health?${'x'.repeat(15_000)}`;
    expect((await app.inject(long)).statusCode).toBe(200);
    for (let i = 0; i < 50; i += 1) expect((await app.inject('/api/nope')).statusCode).toBe(404);
    const requests = lines.filter((line) => line.msg === 'request completed');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ level: INFO, status: 200 });
    expect(requests[0]!.url).toHaveLength(LOGGED_URL_CHARS + 1);
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    expect(lines.filter((line) => line.level >= INFO && line.status === 404)).toEqual([]);
    // The whole log of 51 requests stays small.
    expect(JSON.stringify(lines).length).toBeLessThan(3_000);
  });

  it('keeps each 404 at debug, and says their count at info once an interval', async () => {
    const { lines, logger } = capture('debug');
    app = Fastify({ logger, logController: new LogController({ disableRequestLogging: true }) });
    installRequestLog(app, 20);
    await app.ready();
    for (let i = 0; i < 7; i += 1) await app.inject('/nope');
    expect(
      lines.filter((line) => line.msg === 'request completed' && line.status === 404),
    ).toHaveLength(7);
    expect(lines.every((line) => line.msg !== 'request completed' || line.level < INFO)).toBe(true);
    await expect
      .poll(() =>
        lines.find((line) => line.msg === 'requests refused in the last minute, by status'),
      )
      .toMatchObject({ level: INFO, 404: 7 });
  });

  it.each([
    {
      how: 'stops sending halfway (its side closed)',
      leave: (socket: Socket) => socket.end(),
      line: { msg: 'request refused before it was read', status: 400 },
    },
    {
      how: 'drops the connection (a reset)',
      leave: (socket: Socket) => socket.resetAndDestroy(),
      line: { msg: 'request dropped by the client' },
    },
  ])(
    'logs a request whose client $how before its body was read, with the status it got, if any',
    async ({ leave, line }) => {
      const { lines, logger } = capture('info');
      app = await demoApp({ logger });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as AddressInfo).port;
      const socket = connect({ port, host: '127.0.0.1' });
      socket.on('error', () => undefined);
      // Node's server emits 'request' once the headers are read, after Fastify's own listener has
      // taken the request in (its abort watch included): then the client leaves.
      const arrived = new Promise((resolve) => app!.server.once('request', resolve));
      socket.write(
        'POST /api/resolve-urls-batch HTTP/1.1\r\nHost: placeport.test\r\n' +
          'Content-Type: application/json\r\nContent-Length: 8000\r\n\r\n{"links":[',
      );
      await arrived;
      leave(socket);
      // It was missing from the log: no answer is sent on a closed connection, so no line was.
      const logged = () => lines.filter((entry) => entry.url === '/api/resolve-urls-batch');
      await expect.poll(logged, { timeout: 60_000 }).toHaveLength(1);
      expect(logged()[0]).toMatchObject({ level: INFO, method: 'POST', ...line });
      if (!('status' in line)) expect(logged()[0]).not.toHaveProperty('status');
      socket.destroy();
    },
  );

  it('gives every request a unique id, in its log line and its answer', async () => {
    const { lines, logger } = capture('info');
    app = await demoApp({ logger });
    const ids = new Set<string>();
    for (const url of ['/api/health', '/api/health', '/api/nope']) {
      const answer = await app.inject({ url, headers: { [REQUEST_ID_HEADER]: 'chosen-by-me' } });
      const id = String(answer.headers[REQUEST_ID_HEADER]);
      // Served directly, a client cannot choose its id (it would pose as another's in the log).
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(3);
    const logged = lines.filter((line) => line.msg === 'request completed').map((l) => l.reqId);
    expect(logged).toEqual([...ids].slice(0, 2));
  });

  it("keeps a trusted proxy's request id when it is a plain token, behind TRUST_PROXY", async () => {
    const { lines, logger } = capture('info');
    app = await demoApp({
      logger,
      settings: settingsFor({ TRUST_PROXY: '127.0.0.1', DEMO_PAYMENTS: 'on' }),
    });
    const kept = await app.inject({
      url: '/api/health',
      headers: { [REQUEST_ID_HEADER]: 'lb-7f3a:9.2_x' },
    });
    expect(kept.headers[REQUEST_ID_HEADER]).toBe('lb-7f3a:9.2_x');
    expect(lines.find((line) => line.msg === 'request completed')?.reqId).toBe('lb-7f3a:9.2_x');
    for (const given of ['a b', 'x'.repeat(129), '', 'id\u2028two', '<script>']) {
      const answer = await app.inject({
        url: '/api/health',
        headers: { [REQUEST_ID_HEADER]: given },
      });
      expect(answer.headers[REQUEST_ID_HEADER], given).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
