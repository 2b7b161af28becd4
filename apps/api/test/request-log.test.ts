/**
 * What the API logs of its requests (operations audit): one line per request, its address cut to
 * 200 characters; a flood's answers (404, 429) at debug, their count said at info once a minute.
 * One client's flood of refused requests wrote three info lines each, 2.4 MB of log a second.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installRequestLog, LOGGED_URL_CHARS } from '../src/http/request-log.js';
import { demoApp } from './support.js';

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
});
