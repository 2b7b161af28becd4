/**
 * Why Google (or a PlacePort API) could not be reached, in words: the CLI watches the requests its
 * lookups send, so when the resolver stops because nothing answers, the run can say what the
 * network said ("connection refused", "DNS found no address for www.google.com") rather than only that
 * lookups failed.
 */

/** Error codes of the system and of undici, in words. */
const CODE_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'no route to the host',
  ENETDOWN: 'network down',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
  EPROTO: 'TLS error',
};

/** undici's words when a proxy answered its CONNECT with something else than 200. */
const PROXY_REFUSAL = /^Proxy response \((\d{3})\) !== 200/;

/**
 * The proxy's refusal to open a tunnel, in words, when that is why a request failed: undici says it
 * a few causes down ("Proxy response (407) !== 200 when HTTP Tunneling").
 */
function proxyRefusal(error: unknown): string | undefined {
  let at = error;
  for (let depth = 0; depth < 4 && at instanceof Error; depth += 1, at = at.cause) {
    const status = PROXY_REFUSAL.exec(at.message)?.[1];
    if (status === '407') return 'the proxy asks for a user name and password (407)';
    if (status) return `the proxy refused to connect (${status})`;
  }
  return undefined;
}

/** What a failed `fetch` says about the network, in a few words (no stack, no URL). */
export function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return 'no answer in time';
  }
  const proxied = proxyRefusal(error);
  if (proxied) return proxied;
  const cause = (error instanceof Error && error.cause) || error;
  const detail = cause as { code?: unknown; hostname?: unknown; message?: unknown };
  const code = typeof detail.code === 'string' ? detail.code : undefined;
  const host = typeof detail.hostname === 'string' ? detail.hostname : undefined;
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_NODATA') {
    return `DNS found no address for ${host ?? 'the host'}`;
  }
  if (code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
    return `DNS did not answer for ${host ?? 'the host'}`;
  }
  if (code === 'ERR_PRIVATE_ADDRESS') {
    return 'the name resolves to a private address (a captive portal or a filtering DNS?)';
  }
  if (code && CODE_TEXT[code]) return CODE_TEXT[code];
  if (code && /CERT|TLS|SSL/.test(code)) return `TLS error, ${code}`;
  const message = typeof detail.message === 'string' ? detail.message : String(cause);
  return code ? `${message}, ${code}` : message;
}

/** A fetch whose failures without an answer are remembered, and what they were. */
export interface WatchedFetch {
  fetch: typeof globalThis.fetch;
  /** Why the latest request got no answer, when no answer came after it; else undefined. */
  lastFailure(): string | undefined;
  /** Whether any request so far got an answer (of any status). */
  anyAnswer(): boolean;
}

/** Wraps `inner`: every request that ends without an answer is described; any answer clears it. */
export function watchNetwork(inner: typeof globalThis.fetch): WatchedFetch {
  let failure: string | undefined;
  let answered = false;
  const watched: typeof globalThis.fetch = async (input, init) => {
    try {
      const response = await inner(input, init);
      failure = undefined;
      answered = true;
      return response;
    } catch (error) {
      failure = describeNetworkError(error);
      throw error;
    }
  };
  return { fetch: watched, lastFailure: () => failure, anyAnswer: () => answered };
}
