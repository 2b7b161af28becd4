import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startRedis } from '@placeport/testkit';
import { describe, expect, it } from 'vitest';
import { until } from './faults.js';
import { TEST_PAYER_COOKIE_SECRET } from './support.js';

const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));

/** Starts src/server.ts in its own process with only the given environment. */
function startServer(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const address = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /PlacePort API listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(output)));
  });
  address.catch(() => undefined);
  /** The log line (JSON) whose text includes `text`: it must be there. */
  const logLine = (text: string): unknown =>
    JSON.parse(output.split('\n').find((line) => line.includes(text))!);
  return { child, address, output: () => output, logLine };
}

describe('server.ts', () => {
  it('serves demo payments with no keys, and shuts down gracefully on SIGTERM', async () => {
    const server = startServer({ PORT: '0', HOST: '127.0.0.1' });
    const base = await server.address;
    expect(await (await fetch(`${base}/api/health`)).json()).toEqual({
      ok: true,
      status: 'ok',
      store: 'memory',
    });
    const config = (await (await fetch(`${base}/api/config`)).json()) as { payments: string };
    expect(config.payments).toBe('demo');
    server.child.kill('SIGTERM');
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(0);
    expect(server.output()).toContain('"payments":"demo"');
    expect(server.output()).toContain('shutting down');
  });

  it('stops at start-up with a clear message for invalid settings, never echoing a secret', async () => {
    const server = startServer({ PORT: 'eighty', STRIPE_SECRET_KEY: 'sk_test_TopSecret123' });
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(1);
    expect(server.output()).toContain('PlacePort API cannot start.');
    expect(server.output()).toContain('PORT: must be a whole number from 0 to 65535');
    expect(server.output()).toContain(
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
    );
    expect(server.output()).not.toContain('TopSecret');
  });

  it('refuses to serve demo payments on an address other machines can reach', async () => {
    const server = startServer({ PORT: '0', HOST: '0.0.0.0' });
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(1);
    expect(server.output()).toContain(
      'demo payments (no Stripe keys) run only on a loopback address',
    );
  });

  it('refuses to serve demo payments behind a trusted proxy, even on loopback', async () => {
    const server = startServer({ PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: '1' });
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(1);
    expect(server.output()).toContain('PlacePort API cannot start.');
    expect(server.output()).toContain(
      'TRUST_PROXY: demo payments (no Stripe keys) do not run behind a proxy',
    );
  });

  it('serves demo payments behind a proxy with DEMO_PAYMENTS=on, warning, 1,000 places at most', async () => {
    const server = startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      TRUST_PROXY: '1',
      DEMO_PAYMENTS: 'on',
    });
    const base = await server.address;
    const create = (amount: number) =>
      fetch(`${base}/api/create-payment-intent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount }),
      });
    expect((await create(100)).status).toBe(200);
    const refused = await create(100.1);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('demo_limit');
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
    expect(server.output()).not.toContain('every other address');
    expect(server.logLine('DEMO_PAYMENTS=on: demo payments are served')).toMatchObject({
      level: 40,
      maxPlaces: 1000,
      msg: expect.stringContaining('where other machines can reach them'),
    });
  });

  it('answers --help with its settings, refuses other arguments, starting nothing', async () => {
    const help = startServer({ PORT: '0' }, ['--help']);
    const [helpCode] = await once(help.child, 'exit');
    expect(helpCode).toBe(0);
    expect(help.output()).toContain(
      'It takes no arguments. Its settings are environment variables',
    );
    expect(help.output()).toContain('  FREE_LINKS_PER_DAY\n');
    expect(help.output()).not.toContain('listening');

    const wrong = startServer({ PORT: '0' }, ['--port', '9000']);
    const [wrongCode] = await once(wrong.child, 'exit');
    expect(wrongCode).toBe(2);
    expect(wrong.output()).toContain('PlacePort API takes no arguments (--port 9000)');
    expect(wrong.output()).not.toContain('listening');
  });

  it('warns of a variable one slip from a setting, naming the one it likely means', async () => {
    const server = startServer({ PORT: '0', FREE_LINK_PER_DAY: '500' });
    await server.address;
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
    expect(server.logLine('FREE_LINK_PER_DAY')).toMatchObject({
      level: 40,
      msg: 'FREE_LINK_PER_DAY is not a setting and is ignored: did you mean FREE_LINKS_PER_DAY?',
    });
  });

  it('says when it listens on every address, not only the loopback one Fastify names', async () => {
    const server = startServer({ PORT: '0', HOST: '0.0.0.0', DEMO_PAYMENTS: 'on' });
    const base = await server.address;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
    expect(server.logLine('PlacePort API listening on')).toMatchObject({
      host: '0.0.0.0',
      msg: expect.stringMatching(
        /^PlacePort API listening on http:\/\/[\d.:]+ and on every other address of this machine \(HOST=0\.0\.0\.0\)$/,
      ),
    });
  });

  it('stays up through Redis outages on its sweep timer, answers degraded, and recovers by itself', async () => {
    const redis = await startRedis();
    const server = startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      PAYER_COOKIE_SECRET: TEST_PAYER_COOKIE_SECRET,
      // The sweep runs every 1.5 s (half of 3 s), so it meets the outage within moments.
      SETTLE_AFTER_MINUTES: '0.05',
    });
    try {
      const base = await server.address;
      const get = async (path: string) => (await fetch(`${base}${path}`)).json();
      const create = () =>
        fetch(`${base}/api/create-payment-intent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ amount: 1 }),
        });
      expect(await get('/api/health')).toEqual({ ok: true, status: 'ok', store: 'redis' });

      await redis.kill();
      const failedSweeps = () =>
        server.output().split('settlement: cannot take the lease').length - 1;
      // Two sweeps of the timer meet the dead Redis; the process must live through both.
      await until(() => failedSweeps() >= 2 || server.child.exitCode !== null);
      expect(server.child.exitCode).toBeNull();
      expect(await get('/api/health')).toEqual({
        ok: true,
        status: 'degraded',
        store: 'unavailable',
      });
      expect((await create()).status).toBe(503);

      await redis.restart();
      await until(async () => ((await get('/api/health')) as { status: string }).status === 'ok');
      expect((await create()).status).toBe(200);

      server.child.kill('SIGTERM');
      const [code] = await once(server.child, 'exit');
      expect(code).toBe(0);
      expect(server.output()).toContain('shared state (Redis) unavailable');
      expect(server.output()).toContain('shared state (Redis) is back');
      expect(server.output()).not.toMatch(/unhandled|MaxRetriesPerRequestError/i);
    } finally {
      server.child.kill('SIGKILL');
      await redis.stop();
    }
  });
});
