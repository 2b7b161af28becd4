// @vitest-environment node
import type { ConverterWorkerApi, WorkerDependencies } from '@placeport/converter/worker';
import type { RefusalFields } from '@placeport/contract';
import { describe, expect, it } from 'vitest';
import { createPageWorkerApi } from './pageWorker';

function refusalResponse(
  status: number,
  code: string,
  retryAfter?: string | null,
  numbers: RefusalFields = {},
): Response {
  return new Response(JSON.stringify({ error: { code, message: `${code}.`, ...numbers } }), {
    status,
    headers: retryAfter ? { 'Retry-After': retryAfter } : {},
  });
}

/** A converter whose `convert` calls the given fetch for each of `answers`' URLs, in order. */
function converterCalling(urls: string[], extra: Partial<ConverterWorkerApi> = {}) {
  let given: WorkerDependencies = {};
  const create = (dependencies: WorkerDependencies) => {
    given = dependencies;
    return {
      convert: async () => {
        for (const url of urls) {
          const response = await given.fetch!(url, { method: 'POST' });
          // The converter reads the body itself, as its resolve client does.
          await response.text();
        }
        return { ok: true, value: { lists: [], totals: { total: 0, converted: 0, skipped: 0 } } };
      },
      ...extra,
    } as unknown as ConverterWorkerApi;
  };
  return create;
}

describe('the page worker', () => {
  it("passes the device's return online, as the page heard it, to the converter's retry pauses", async () => {
    let given: WorkerDependencies = {};
    const api = createPageWorkerApi((dependencies) => {
      given = dependencies;
      return {} as ConverterWorkerApi;
    });
    const heard: string[] = [];
    given.connectivity!.addEventListener('online', (event) => heard.push(event.type));
    await api.deviceOnline();
    expect(heard).toEqual(['online']);
  });

  it("reads the API's refusals of lookups, one per code, and forgets them at the next run", async () => {
    const answers = [
      refusalResponse(503, 'overloaded', '30'),
      refusalResponse(503, 'overloaded', '30'),
      refusalResponse(402, 'free_budget_used', null, { limit: 20 }),
      refusalResponse(500, 'internal_error'),
      new Response('<html>Bad Gateway</html>', { status: 502 }),
    ];
    let next = 0;
    const fetchImpl = (async () => answers[next++]!) as typeof fetch;
    const resolve = 'http://127.0.0.1:8080/api/resolve-urls-batch';
    const api = createPageWorkerApi(
      converterCalling([resolve, resolve, resolve, resolve, resolve]),
      fetchImpl,
    );
    await api.convert({ paths: ['a'] });
    expect(await api.lookupRefusals()).toEqual([
      { status: 503, code: 'overloaded', message: 'overloaded.', retryAfterSeconds: 30 },
      {
        status: 402,
        code: 'free_budget_used',
        message: 'free_budget_used.',
        limit: 20,
        retryAfterSeconds: null,
      },
      { status: 500, code: 'internal_error', message: 'internal_error.', retryAfterSeconds: null },
    ]);
    next = 0;
    answers.splice(
      0,
      answers.length,
      ...Array.from({ length: 5 }, () => new Response('{"results":{}}', { status: 200 })),
    );
    await api.convert({ paths: ['a'] });
    expect(await api.lookupRefusals()).toEqual([]);
  });

  it('reads only the lookups call', async () => {
    const fetchImpl = (async () => refusalResponse(429, 'rate_limited')) as typeof fetch;
    const api = createPageWorkerApi(
      converterCalling(['http://127.0.0.1:8080/api/capture-payment']),
      fetchImpl,
    );
    await api.convert({ paths: ['a'] });
    expect(await api.lookupRefusals()).toEqual([]);
  });
});
