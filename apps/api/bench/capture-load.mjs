/**
 * The load generator for `capture-payment`, run by api.bench.ts as a second process: autocannon's
 * programmatic API, because every capture needs its own authorized intent (the CLI sends one fixed
 * body). Each request's body comes from a prepared list through `requests[].setupRequest`; the
 * payer cookie that owns every intent is a fixed header. Runs exactly `amount` requests.
 *
 * Usage: node capture-load.mjs <job.json>, where the job is
 * `{ url, connections, amount, cookie, bodies: string[] }`; prints autocannon's result as JSON
 * plus `bodiesUsed`.
 */
import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';

const job = JSON.parse(await readFile(process.argv[2], 'utf8'));
let next = 0;

const result = await autocannon({
  url: job.url,
  connections: job.connections,
  amount: job.amount,
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie: job.cookie },
  requests: [
    {
      setupRequest: (request) => {
        // autocannon builds a connection's next request ahead of time, so a few bodies are built
        // but never sent; the job carries spares. Past them, a repeat (never expected) is counted.
        const body = job.bodies[Math.min(next, job.bodies.length - 1)];
        next += 1;
        return { ...request, body };
      },
    },
  ],
});

process.stdout.write(JSON.stringify({ ...result, bodiesUsed: next }));
