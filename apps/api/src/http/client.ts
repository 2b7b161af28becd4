import ipaddr from 'ipaddr.js';

/**
 * The key every client whose address cannot be read shares: junk or `unknown` in
 * `X-Forwarded-For`, an obfuscated RFC 7239 identifier. One bucket, so writing junk never buys a
 * fresh budget or a fresh rate limit.
 */
export const UNREADABLE_CLIENT = 'unreadable';

/** Every loopback address (127.0.0.0/8, ::1) is this machine: one client. */
export const LOOPBACK_CLIENT = 'loopback';

/** Longest text read as an address; anything longer is unreadable (and never scanned). */
const MAX_ADDRESS_LENGTH = 100;

/**
 * The address in a forwarded entry or a socket address, without what proxies put around it:
 * surrounding quotes (RFC 7239), the brackets of an IPv6 address, and a port after an IPv4
 * address or after a bracketed IPv6 one. An unbracketed IPv6 address keeps its last group: there
 * a port cannot be told from the address.
 */
function bareAddress(entry: string): string {
  let text = entry.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return withPort ? withPort[1]! : text;
}

function ipv4Key(address: ipaddr.IPv4): string {
  return address.range() === 'loopback' ? LOOPBACK_CLIENT : address.toString();
}

/**
 * Who a client is, the one key of its free budget, payment caps, rate limits, fair-queue turn
 * and connection cap: an IPv4 address as it is; an IPv6 address by its /64 prefix (one
 * subscriber usually holds a whole /64); an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a
 * dual-stack socket reports) as its IPv4 address; every loopback address as
 * {@link LOOPBACK_CLIENT}. Ports, brackets and quotes that proxies add to forwarded entries are
 * stripped first (`203.0.113.5:1111` and `203.0.113.5:2222` are one client); anything that is
 * still no address is {@link UNREADABLE_CLIENT}.
 */
export function clientKeyOf(address: string): string {
  if (address.length > MAX_ADDRESS_LENGTH) return UNREADABLE_CLIENT;
  const text = bareAddress(address);
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipv4Key(ipaddr.IPv4.parse(text));
  if (!ipaddr.IPv6.isValid(text)) return UNREADABLE_CLIENT;
  const parsed = ipaddr.IPv6.parse(text);
  if (parsed.isIPv4MappedAddress()) return ipv4Key(parsed.toIPv4Address());
  if (parsed.range() === 'loopback') return LOOPBACK_CLIENT;
  const prefix = [...parsed.parts.slice(0, 4), 0, 0, 0, 0];
  return `${new ipaddr.IPv6(prefix).toString()}/64`;
}
