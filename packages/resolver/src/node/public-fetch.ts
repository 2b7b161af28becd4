import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici';

/** Thrown (through fetch) when a host is, or resolves to, an address that is not public. */
export class PrivateAddressError extends Error {
  readonly code = 'ERR_PRIVATE_ADDRESS';
  constructor(hostname: string, address: string) {
    super(
      hostname === address
        ? `${address} is not a public address`
        : `${hostname} resolves to ${address}, which is not a public address`,
    );
  }
}

/** True only for public unicast addresses (not loopback, private, link-local, multicast, reserved…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

type Lookup = (
  hostname: string,
  options: { all: true; family?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemLookup: Lookup = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);

/**
 * A DNS lookup for outgoing connections that refuses any host with a non-public address among its
 * answers: the allowlist names Google's hosts, and this makes sure the connection really goes to
 * the public internet, whatever DNS says (rebinding, a poisoned resolver, an internal override).
 */
export function publicOnlyLookup(resolve: Lookup = systemLookup): LookupFunction {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...(options as { family?: number }), all: true }, (error, addresses) => {
      if (error) return callback(error);
      const bad = addresses.find((entry) => !isPublicAddress(entry.address));
      if (bad || addresses.length === 0) {
        return callback(new PrivateAddressError(hostname, bad?.address ?? 'nothing'));
      }
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  }) as LookupFunction;
}

/** Options of {@link createPublicFetch}. */
export interface PublicFetchOptions {
  /** The DNS lookup to check (tests resolve Google's names to loopback to prove the refusal). */
  lookup?: Lookup;
  /** Sockets kept per origin. */
  connections?: number;
}

/**
 * A connector for undici that refuses a host written as an address (`127.0.0.1`, `[::1]`,
 * `[::ffff:10.0.0.1]`; the URL parser has already turned `2130706433` into `127.0.0.1`) that is not
 * public: Node connects to such a host without a DNS lookup, so {@link publicOnlyLookup} never
 * sees it. Every connection goes through here, a redirect's included.
 */
function publicOnlyConnector(lookup: LookupFunction): buildConnector.connector {
  const connect = buildConnector({ lookup });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (ipaddr.isValid(host) && !isPublicAddress(host)) {
      callback(new PrivateAddressError(host, host), null);
      return;
    }
    connect(options, callback);
  };
}

/**
 * The fetch the resolver uses in production: undici's, on an agent whose every connection goes
 * through {@link publicOnlyConnector} and {@link publicOnlyLookup}, so no request (nor any redirect
 * it follows) reaches a loopback, private or reserved address, whether the URL names it or DNS
 * answers it. (Only a test-only maps origin override, which the settings name explicitly, bypasses
 * it.)
 */
export function createPublicFetch(options: PublicFetchOptions = {}): typeof globalThis.fetch {
  const agent = new Agent({
    connect: publicOnlyConnector(publicOnlyLookup(options.lookup)),
    connections: options.connections ?? 16,
  });
  return fetchThrough(agent);
}

/** undici's fetch, every request of it sent by `dispatcher` (an agent, a proxy agent). */
export function fetchThrough(dispatcher: Dispatcher): typeof globalThis.fetch {
  return ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof globalThis.fetch;
}
