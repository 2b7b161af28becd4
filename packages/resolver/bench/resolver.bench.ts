/**
 * Resolver benchmark (`pnpm --filter @placeport/resolver bench`), against the fake Google on
 * loopback answering every request after 100 ms:
 * 1. 10,000 distinct places, cold (every one looked up) and again (all from the cache): wall time,
 *    upstream requests, and the rate against what 32 requests in flight allow (320 a second); the
 *    fake Google runs in a process of its own here, so its work is not counted as the resolver's;
 * 2. a paid batch of 2,000 places alone, then while 10 free clients flood the free tier with
 *    4-link batches as fast as they are answered: the paid batch's slowdown;
 * 3. a paid batch of 100 places alone, then while 32 free links from 32 addresses hang (the free
 *    share of the slots, a quarter, is all they can hold): the paid batch's slowdown;
 * 4. the worst scan time of a 3 MiB hostile page (every adversarial form, worst of 5 runs).
 */
import {
  ADVERSARIAL_PAGE_NAMES,
  adversarialPages,
  ftidForCid,
  startFakeGoogle,
} from '@placeport/testkit';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MAX_PAGE_BYTES, UPSTREAM_CONCURRENCY } from '../src/limits.js';
import { readPage } from '../src/page.js';
import { createResolver, type Resolver } from '../src/resolver.js';

const UPSTREAM_DELAY_MS = 100;
const PLACES = 10_000;
const PAID_BATCH = 2_000;
const FREE_CLIENTS = 10;

const link = (cid: number) =>
  `https://www.google.com/maps/place/Bench/data=!4m2!3m1!1s${ftidForCid(BigInt(cid))}`;
const range = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => link(from + i));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Starts the fake Google in a child process; resolves with its URL and a way to stop it. */
async function fakeGoogleProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./fake-google-process.ts', import.meta.url)),
      String(UPSTREAM_DELAY_MS),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { url } = JSON.parse(line) as { url: string };
  return { url, stop: () => child.stdin!.end() };
}

async function main(): Promise<void> {
  const google = await startFakeGoogle({ delayMs: UPSTREAM_DELAY_MS });
  const apart = await fakeGoogleProcess();
  const fresh = (): Resolver =>
    createResolver({
      fetch: globalThis.fetch,
      mapsOrigin: google.url,
      tuning: { batchDeadlineMs: 10 * 60_000 },
    });
  try {
    console.log(
      `resolver benchmark: fake Google at ${UPSTREAM_DELAY_MS} ms per request, ${UPSTREAM_CONCURRENCY} in flight`,
    );
    let sent = 0;
    const resolver = createResolver({
      fetch: (input, init) => {
        sent += 1;
        return globalThis.fetch(input, init);
      },
      mapsOrigin: apart.url,
      tuning: { batchDeadlineMs: 10 * 60_000 },
    });
    const paid = { client: 'bench', priority: 'paid' as const };
    const links = range(1, PLACES);
    const cold = await timed(() => resolver.resolve(links, { requester: paid }));
    const coldRequests = sent;
    const warm = await timed(() => resolver.resolve(links, { requester: paid }));
    const rate = (PLACES / cold.ms) * 1000;
    const ceiling = (UPSTREAM_CONCURRENCY * 1000) / UPSTREAM_DELAY_MS;
    console.log(
      `${fmt(PLACES)} places cold: ${fmt(cold.ms)} ms, ${fmt(coldRequests)} upstream requests, ` +
        `${fmt(Object.keys(cold.value.results).length)} resolved (${fmt(rate)} places/s, ` +
        `${((rate / ceiling) * 100).toFixed(0)}% of the ${fmt(ceiling)} a second ${UPSTREAM_CONCURRENCY} in flight allow)`,
    );
    console.log(
      `${fmt(PLACES)} places cached: ${fmt(warm.ms)} ms, ${fmt(sent - coldRequests)} upstream requests`,
    );
    apart.stop();

    const alone = await timed(() =>
      fresh().resolve(range(100_000, PAID_BATCH), { requester: paid }),
    );
    const shared = fresh();
    let flooding = true;
    let freeCalls = 0;
    let nextFree = 500_000;
    const flood = Array.from({ length: FREE_CLIENTS }, async (_, client) => {
      while (flooding) {
        const batch = range(nextFree, 4);
        nextFree += 4;
        freeCalls += 1;
        await shared
          .resolve(batch, { requester: { client: `free-${client}`, priority: 'free' } })
          .catch(() => undefined);
      }
    });
    const contended = await timed(() =>
      shared.resolve(range(200_000, PAID_BATCH), { requester: paid }),
    );
    flooding = false;
    await Promise.all(flood);
    console.log(
      `paid batch of ${fmt(PAID_BATCH)}: alone ${fmt(alone.ms)} ms, with ${FREE_CLIENTS} free clients flooding ` +
        `${fmt(contended.ms)} ms (${(contended.ms / alone.ms).toFixed(2)}×; ${fmt(freeCalls)} free calls meanwhile)`,
    );

    const hungUp = fresh();
    const paidAlone = await timed(() => hungUp.resolve(range(300_000, 100), { requester: paid }));
    const hanging = Array.from({ length: UPSTREAM_CONCURRENCY }, (_, i) => 400_000 + i);
    for (const cid of hanging) google.setPlace(String(cid), { hang: true });
    const stuck = hanging.map((cid, i) =>
      hungUp
        .resolve([link(cid)], { requester: { client: `ip:198.51.100.${i}`, priority: 'free' } })
        .catch(() => undefined),
    );
    const paidBesideHanging = await timed(() =>
      hungUp.resolve(range(300_100, 100), { requester: paid }),
    );
    console.log(
      `paid batch of 100: alone ${fmt(paidAlone.ms)} ms, beside ${UPSTREAM_CONCURRENCY} hanging free links ` +
        `${fmt(paidBesideHanging.ms)} ms (${(paidBesideHanging.ms / paidAlone.ms).toFixed(2)}×; target ≤ 1.5×)`,
    );

    const pages = adversarialPages(MAX_PAGE_BYTES);
    let worst = { name: '', ms: 0 };
    for (const name of ADVERSARIAL_PAGE_NAMES) {
      for (let run = 0; run < 5; run += 1) {
        const started = performance.now();
        readPage(pages[name]);
        const ms = performance.now() - started;
        if (ms > worst.ms) worst = { name, ms };
      }
    }
    console.log(
      `worst scan of a 3 MiB hostile page: ${worst.ms.toFixed(1)} ms (${worst.name}; target < 50 ms, the event loop's longest hold)`,
    );
    // The hanging free links end at the request timeout (8 s) or when the fake closes.
    void Promise.all(stuck);
  } finally {
    await google.close();
  }
}

await main();
