import { describe, expect, it } from 'vitest';
import { clientKeyOf, LOOPBACK_CLIENT, UNREADABLE_CLIENT } from './client.js';

describe('clientKeyOf', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
  ])('%s → %s', (address, key) => {
    expect(clientKeyOf(address)).toBe(key);
  });

  it.each([
    // Ports some proxies append, brackets around IPv6, RFC 7239 quotes.
    ['203.0.113.5:1111', '203.0.113.5'],
    ['203.0.113.5:2222', '203.0.113.5'],
    ['[2001:db8:1:2::1]:3333', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]', '2001:db8:1:2::/64'],
    ['"[2001:db8:1:2::1]:4711"', '2001:db8:1:2::/64'],
    ['[::ffff:203.0.113.5]:80', '203.0.113.5'],
  ])('strips what proxies add: %s → %s', (entry, key) => {
    expect(clientKeyOf(entry)).toBe(key);
  });

  it.each(['127.0.0.1', '127.0.0.2', '127.255.0.9', '::1', '[::1]:8080', '::ffff:127.0.0.1'])(
    'every loopback address is one client: %s',
    (address) => {
      expect(clientKeyOf(address)).toBe(LOOPBACK_CLIENT);
    },
  );

  it.each([
    'not an address',
    'unknown',
    '_hidden',
    '',
    '203.0.113.5:',
    '203.0.113.5:99999999',
    '[2001:db8::1',
    '2001:db8::1]:80',
    '[203.0.113.5]:80:80',
    '999.1.1.1',
    `${'1'.repeat(200)}`,
  ])('anything unreadable shares one bucket: %j', (junk) => {
    expect(clientKeyOf(junk)).toBe(UNREADABLE_CLIENT);
  });

  it('gives every address of one /64 the same key, and the next /64 another', () => {
    expect(clientKeyOf('2001:db8:aa:bb::1')).toBe(clientKeyOf('2001:db8:aa:bb:9:8:7:6'));
    expect(clientKeyOf('2001:db8:aa:bc::1')).not.toBe(clientKeyOf('2001:db8:aa:bb::1'));
  });
});
