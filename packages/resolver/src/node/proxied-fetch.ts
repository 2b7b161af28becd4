import { EnvHttpProxyAgent } from 'undici';
import { fetchThrough } from './public-fetch.js';

/** Where requests go when the machine reaches the web through a proxy (HTTPS_PROXY and the rest). */
export interface ProxiedFetchOptions {
  /** The proxy for http origins (`http://proxy.example:3128`, credentials in it if it asks). */
  httpProxy?: string;
  /** The proxy for https origins (Google's): without one, {@link httpProxy}. */
  httpsProxy?: string;
  /** NO_PROXY as other tools read it: hosts (and `.domains`, `host:port`, `*`) reached directly. */
  noProxy?: string;
  /** Sockets kept per origin. */
  connections?: number;
}

/**
 * undici's fetch through a forward proxy (a tunnel, CONNECT, to each origin), for a computer that
 * reaches the web only through one: what curl, npm and git do with the same variables. The proxy
 * resolves and connects, so the public-address checks of `createPublicFetch` are its to make; the
 * caller's allowlist still decides every URL asked for. Nothing is read from the environment here:
 * the caller passes what it read (an unset proxy is none, not `process.env`'s).
 */
export function createProxiedFetch(options: ProxiedFetchOptions): typeof globalThis.fetch {
  const agent = new EnvHttpProxyAgent({
    httpProxy: options.httpProxy ?? '',
    httpsProxy: options.httpsProxy ?? options.httpProxy ?? '',
    noProxy: options.noProxy ?? '',
    connections: options.connections ?? 16,
  });
  return fetchThrough(agent);
}
