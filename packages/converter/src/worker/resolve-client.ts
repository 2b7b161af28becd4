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
 * The most bytes of an answer read: 16 MiB, more than the most links one request may carry
 * (the contract's `MAX_URLS_PER_CALL`) each with a link of the longest length (`MAX_URL_LENGTH`) on
 * both sides and four times that for JSON's escapes (16.4 MB). A 500-link answer of real links is
 * a few hundred KB; anything past this is not the API's answer, and is not read whole.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The most bytes of a refusal's body read for its message (the API's error bodies are a few hundred). */
export const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** The words of an OK answer that is not the API's (an HTML portal page, another service's JSON). */
export const NOT_AN_API = 'answered something that is not a PlacePort API';

/** A body read up to a limit: its text, and whether more was left unread. */
interface BoundedText {
  text: string;
  cut: boolean;
}

/** Reads at most `limit` bytes of `response`'s body as UTF-8; the rest is cancelled, never read. */
async function readAtMost(response: Response, limit: number): Promise<BoundedText> {
  const declared = Number(response.headers.get('content-length') ?? '');
  if (!response.body) return { text: '', cut: false };
  if (declared > limit) {
    await response.body.cancel().catch(() => {});
    return { text: '', cut: true };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), cut: false };
    const room = limit - size;
    size += value.byteLength;
    if (value.byteLength > room) {
      text += decoder.decode(value.subarray(0, room));
      await reader.cancel().catch(() => {});
      return { text, cut: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** `Retry-After` (delay-seconds or an HTTP date) in milliseconds from now, when it says. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The failure of an OK answer that is not the API's: the run treats it like any failed request. */
function notAnApi(response: Response, why: string): ResolveRequestError {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim();
  const detail = `${why}${type ? `, ${type}` : ''}`;
  return new ResolveRequestError(
    response.status,
    `${response.status}: The server ${NOT_AN_API} (${detail}).`,
    { notAnApi: detail },
  );
}

/** Reads an OK answer: the API's JSON, or a {@link notAnApi} failure. */
async function readAnswer(response: Response): Promise<v.InferOutput<typeof ResolveResponse>> {
  const { text, cut } = await readAtMost(response, MAX_ANSWER_BYTES);
  if (cut) throw notAnApi(response, `more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notAnApi(response, 'not JSON');
  }
  const parsed = v.safeParse(ResolveResponse, body);
  if (!parsed.success) throw notAnApi(response, 'JSON of another shape');
  return parsed.output;
}

/**
 * The client for `POST /api/resolve-urls-batch`. Sends credentials, JSON only with a body; a non-OK
 * answer becomes a {@link ResolveRequestError} "status: text" (the seed's rule; the body read up to
 * {@link MAX_ERROR_BODY_BYTES}) with the answer's `Retry-After`, which the pipeline turns into a
 * warning and a reason for every link of the batch; except 503 `google_unreachable`, the server
 * saying Google cannot be reached, which answers every link `unavailable` and tells the run to
 * stop sending (`unreachable`). An OK answer that is not the API's (not JSON, another shape, more
 * than {@link MAX_ANSWER_BYTES}) is a ResolveRequestError too, with its own (2xx) status and the
 * words {@link NOT_AN_API}.
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
      const { text } = await readAtMost(response, MAX_ERROR_BODY_BYTES).catch(() => ({
        text: '',
      }));
      if (response.status === 503 && readErrorBody(text)?.code === GOOGLE_UNREACHABLE) {
        // The server cannot reach Google: nothing more is sent this run, and nothing retried.
        const failures = Object.fromEntries(urls.map((url) => [url, 'unavailable' as const]));
        return { results: {}, failures, unreachable: true };
      }
      throw new ResolveRequestError(
        response.status,
        `${response.status}: ${text || response.statusText}`,
        {
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
          body: text || response.statusText,
        },
      );
    }
    const answer = await readAnswer(response);
    // Only answers for links that were asked about are taken.
    const asked = new Set(urls);
    const results = Object.fromEntries(
      Object.entries(answer.results).filter(([url]) => asked.has(url)),
    );
    const failures = Object.fromEntries(
      Object.entries(answer.failures ?? {})
        .filter(([url]) => asked.has(url))
        .map(([url, reason]) => [url, KNOWN_REASONS.has(reason) ? reason : 'not_found']),
    ) as Record<string, (typeof LOOKUP_FAILURES)[number]>;
    return { results, failures };
  };
}
