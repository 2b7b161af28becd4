import { GOOGLE_UNREACHABLE, readErrorBody } from '@placeport/contract';
import * as v from 'valibot';
import { LOOKUP_FAILURES } from '../core/reasons.js';
import { ResolveRequestError, type ResolveUrls } from '../core/seams.js';
import type { ResolveOptions } from './types.js';

const ResolveResponse = v.object({
  results: v.record(v.string(), v.string()),
  // Older servers answered `results` alone; an unknown reason is read as "not found".
  failures: v.optional(v.record(v.string(), v.string())),
});

const KNOWN_REASONS = new Set<string>(LOOKUP_FAILURES);

/**
 * The client for `POST /api/resolve-urls-batch`. Sends credentials, JSON only with a body; a non-OK
 * answer becomes a {@link ResolveRequestError} "status: text" (the seed's rule), which the pipeline
 * turns into a warning and a reason for every link of the batch; except 503 `google_unreachable`,
 * the server saying Google cannot be reached, which answers every link `unavailable` and tells the
 * run to stop sending (`unreachable`).
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
      if (response.status === 503 && readErrorBody(text)?.code === GOOGLE_UNREACHABLE) {
        // The server cannot reach Google: nothing more is sent this run, and nothing retried.
        const failures = Object.fromEntries(urls.map((url) => [url, 'unavailable' as const]));
        return { results: {}, failures, unreachable: true };
      }
      throw new ResolveRequestError(
        response.status,
        `${response.status}: ${text || response.statusText}`,
      );
    }
    const parsed = v.safeParse(ResolveResponse, await response.json());
    if (!parsed.success) throw new Error('The resolution service answered in an unexpected shape.');
    // Only answers for links that were asked about are taken.
    const asked = new Set(urls);
    const results = Object.fromEntries(
      Object.entries(parsed.output.results).filter(([url]) => asked.has(url)),
    );
    const failures = Object.fromEntries(
      Object.entries(parsed.output.failures ?? {})
        .filter(([url]) => asked.has(url))
        .map(([url, reason]) => [url, KNOWN_REASONS.has(reason) ? reason : 'not_found']),
    ) as Record<string, (typeof LOOKUP_FAILURES)[number]>;
    return { results, failures };
  };
}
