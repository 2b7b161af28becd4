import * as v from 'valibot';
import type { ResolveUrls } from '../pipeline.js';
import type { ResolveOptions } from './types.js';

const ResolveResponse = v.object({ results: v.record(v.string(), v.string()) });

/**
 * The client for `POST /api/resolve-urls-batch`. Sends credentials, JSON only with a body; a non-OK answer
 * becomes an Error "status: text" (the seed's rule), which the pipeline turns into a warning.
 */
export function createResolveClient(
  options: ResolveOptions,
  fetchImpl: typeof fetch = fetch,
): ResolveUrls {
  const endpoint = new URL('/api/resolve-urls-batch', options.apiBase).toString();
  return async (urls, { signal }) => {
    const body = options.paymentIntentId
      ? { urls, paymentIntentId: options.paymentIntentId }
      : { urls };
    const response = await fetchImpl(endpoint, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new Error(`${response.status}: ${text || response.statusText}`);
    }
    const parsed = v.safeParse(ResolveResponse, await response.json());
    if (!parsed.success) throw new Error('The resolution service answered in an unexpected shape.');
    // Only answers for links that were asked about are taken.
    const asked = new Set(urls);
    return Object.fromEntries(
      Object.entries(parsed.output.results).filter(([url]) => asked.has(url)),
    );
  };
}
