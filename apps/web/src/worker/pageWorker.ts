/**
 * What the page's conversion worker exposes: the converter's worker API, plus what the API said
 * when it refused lookups. When the API refuses a lookup request as a whole (`free_budget_used`,
 * `overloaded`, `link_allowance_used`, …), the converter gives its places a reason (`limit`,
 * `unavailable`) but not the API's code; the fetch the converter is given here reads each refusal
 * on its way, so the results can name the cause and what to do. The worker file
 * (`converter.worker.ts`) is only `Comlink.expose` of this.
 */
import type { ConverterWorkerApi, WorkerDependencies } from '@placeport/converter/worker';
import { readRefusal, type Refusal } from '../api/http';

/** The converter's worker API as this page's worker exposes it. */
export interface PageWorkerApi extends ConverterWorkerApi {
  /** What the API said when it refused lookups during the last `convert`: one per code, first seen first. */
  lookupRefusals(): Promise<Refusal[]>;
  /**
   * The page heard the device come back online: a retry round's pause ends now, so the lookups that
   * failed while it was offline go again at once (a dedicated worker is not told itself in every
   * browser: Chromium tells only the page).
   */
  deviceOnline(): Promise<void>;
}

/** The path of the API call whose refusals are read. */
const RESOLVE_PATH = '/api/resolve-urls-batch';

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

/**
 * Builds the page's worker API over the converter's (`create`, given the fetch that reads
 * refusals). `fetchImpl` is the worker's own fetch unless a test passes one.
 */
export function createPageWorkerApi(
  create: (dependencies: WorkerDependencies) => ConverterWorkerApi,
  fetchImpl: typeof fetch = fetch,
): PageWorkerApi {
  const refusals = new Map<string, Refusal>();

  const reading: typeof fetch = async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.ok && new URL(urlOf(input), 'http://page').pathname === RESOLVE_PATH) {
      const text = await response
        .clone()
        .text()
        .catch(() => '');
      const refusal = readRefusal(response.status, text, response.headers.get('retry-after'));
      if (refusal && !refusals.has(refusal.code)) refusals.set(refusal.code, refusal);
    }
    return response;
  };

  const device = new EventTarget();
  const converter = create({ fetch: reading, connectivity: device });
  return {
    ...converter,
    async convert(options, onProgress) {
      refusals.clear();
      return converter.convert(options, onProgress);
    },
    async lookupRefusals() {
      return [...refusals.values()];
    },
    async deviceOnline() {
      device.dispatchEvent(new Event('online'));
    },
  };
}
