import { describe, expect, it } from 'vitest';
import { ResolveRequestError } from '../core/seams.js';
import {
  createResolveClient,
  MAX_ANSWER_BYTES,
  NOT_AN_API,
  retryAfterMs,
} from './resolve-client.js';

const LINKS = ['https://maps.google.com/?cid=1', 'https://maps.google.com/?cid=2'];

/** A fetch that answers every call with `status` and the API's error body for `code`. */
function refusing(status: number, code: string) {
  const calls: string[] = [];
  const fetchImpl: typeof fetch = async (input) => {
    calls.push(String(input));
    return new Response(JSON.stringify({ error: { code, message: 'Refused.' } }), {
      status,
      headers: { 'content-type': 'application/json', 'retry-after': '60' },
    });
  };
  return { calls, fetchImpl };
}

describe('the page’s resolve client', () => {
  it('reads 503 google_unreachable as every link unavailable and the upstream out of reach', async () => {
    const { calls, fetchImpl } = refusing(503, 'google_unreachable');
    const client = createResolveClient({ apiBase: 'http://127.0.0.1:1' }, fetchImpl);
    const answer = await client(LINKS, { signal: new AbortController().signal });
    expect(answer).toEqual({
      results: {},
      failures: { [LINKS[0]!]: 'unavailable', [LINKS[1]!]: 'unavailable' },
      unreachable: true,
    });
    expect(calls).toEqual(['http://127.0.0.1:1/api/resolve-urls-batch']);
  });

  it('keeps any other refusal a request error with its status (the run retries those links once)', async () => {
    const { fetchImpl } = refusing(503, 'overloaded');
    const client = createResolveClient({ apiBase: 'http://127.0.0.1:1' }, fetchImpl);
    const refused = client(LINKS, { signal: new AbortController().signal });
    await expect(refused).rejects.toBeInstanceOf(ResolveRequestError);
    await expect(refused).rejects.toMatchObject({ status: 503 });
  });
});

describe('the resolve client, against answers that are not the API’s', () => {
  const signal = new AbortController().signal;

  it('keeps the Retry-After of a refusal, in seconds or as a date', async () => {
    const answering = (retryAfter: string) => async () =>
      new Response('{"error":{"code":"rate_limited","message":"Please wait."}}', {
        status: 429,
        headers: { 'retry-after': retryAfter },
      });
    const seconds = createResolveClient({ apiBase: 'http://127.0.0.1:1' }, answering('53'));
    await expect(seconds(LINKS, { signal })).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 53_000,
    });
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0))).toBe(
      60_000,
    );
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('calls an OK answer that is not JSON (a captive portal) not a PlacePort API', async () => {
    const portal: typeof fetch = async () =>
      new Response('<html><title>Sign in to the Wi-Fi</title></html>', {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    const client = createResolveClient({ apiBase: 'http://127.0.0.1:1' }, portal);
    const failed = client(LINKS, { signal });
    await expect(failed).rejects.toBeInstanceOf(ResolveRequestError);
    await expect(failed).rejects.toMatchObject({
      status: 200,
      message: `200: The server ${NOT_AN_API} (not JSON, text/html).`,
    });
  });

  it(`reads no more than ${MAX_ANSWER_BYTES} bytes of an answer that never ends`, async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const endless: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const client = createResolveClient({ apiBase: 'http://127.0.0.1:1' }, endless);
    await expect(client(LINKS, { signal })).rejects.toMatchObject({
      status: 200,
      message: expect.stringContaining(`${NOT_AN_API} (more than 16 MiB`),
    });
    // Read up to the limit and a chunk or two the stream queued ahead, never on.
    expect(pulled).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 4 * chunk.byteLength);
  });
});
