import { describe, expect, it } from 'vitest';
import { ResolveRequestError } from '../core/seams.js';
import { createResolveClient } from './resolve-client.js';

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
