import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadSettings, misspeltSettings, SETTING_NAMES, SettingsError } from './config.js';

const SECRET = 'sk_test_abcdefSECRET123';
const PUBLISHABLE = 'pk_test_abcdefPUBLIC123';

function problemsOf(env: Record<string, string>): string {
  try {
    loadSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).message;
  }
  throw new Error('expected a SettingsError');
}

describe('loadSettings', () => {
  it('defaults to demo payments on 127.0.0.1:8080 with the product defaults', () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      stripe: undefined,
      googleMapsApiKey: undefined,
      mapsUpstreamOrigin: undefined,
      placesApiOrigin: 'https://places.googleapis.com',
      contactEmail: 'feedback@example.com',
      productName: 'PlacePort',
      corsOrigins: [],
      trustProxy: false,
      demoPayments: 'loopback',
    });
  });

  it('treats empty values as unset', () => {
    expect(
      loadSettings({ STRIPE_SECRET_KEY: '', STRIPE_PUBLISHABLE_KEY: ' ' }).stripe,
    ).toBeUndefined();
  });

  it('reads Stripe keys and a test API base', () => {
    const settings = loadSettings({
      STRIPE_SECRET_KEY: SECRET,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE,
      STRIPE_API_BASE: 'http://127.0.0.1:4010',
    });
    expect(settings.stripe?.secretKey).toBe(SECRET);
    expect(settings.stripe?.apiBase?.port).toBe('4010');
  });

  it('refuses a plain http Stripe base or Places API origin on another host while a key would go to it (operations audit)', () => {
    const keys = { STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE };
    const stripe = problemsOf({ ...keys, STRIPE_API_BASE: 'http://stripe-mock.internal:12111' });
    expect(stripe).toContain('STRIPE_API_BASE: must be an https origin');
    expect(stripe).not.toContain(SECRET);
    const google = problemsOf({
      GOOGLE_MAPS_API_KEY: 'AIzaSyTestKey123',
      PLACES_API_ORIGIN: 'http://places.example.com',
    });
    expect(google).toContain('PLACES_API_ORIGIN: must be an https origin');
    expect(google).not.toContain('AIzaSyTestKey123');
    // https anywhere, and http on this machine (the tests' fakes), are taken.
    for (const base of [
      'https://stripe-proxy.example.com',
      'http://127.0.0.1:4010',
      'http://[::1]:4010',
      'http://localhost:4010',
    ]) {
      expect(loadSettings({ ...keys, STRIPE_API_BASE: base }).stripe?.apiBase?.origin).toBe(
        new URL(base).origin,
      );
    }
    expect(
      loadSettings({
        GOOGLE_MAPS_API_KEY: 'AIzaSyTestKey123',
        PLACES_API_ORIGIN: 'http://127.0.0.1:9',
      }).placesApiOrigin,
    ).toBe('http://127.0.0.1:9');
    // Without a key to carry, a plain http origin carries nothing secret.
    expect(loadSettings({ PLACES_API_ORIGIN: 'http://places.example.com' }).placesApiOrigin).toBe(
      'http://places.example.com',
    );
  });

  it('refuses one Stripe key without the other, and mixed test/live keys, without echoing them', () => {
    const alone = problemsOf({ STRIPE_SECRET_KEY: SECRET });
    expect(alone).toContain('must be set together');
    expect(alone).not.toContain(SECRET);
    const mixed = problemsOf({
      STRIPE_SECRET_KEY: SECRET,
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc123',
    });
    expect(mixed).toContain('both be test keys or both live keys');
  });

  it('lists every invalid value at once, naming the variable and never the secret', () => {
    const message = problemsOf({
      PORT: '99999',
      STRIPE_SECRET_KEY: 'not-a-key-SECRETVALUE',
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE,
      MAPS_UPSTREAM_ORIGIN: 'http://127.0.0.1:1/path',
      CONTACT_EMAIL: 'nobody',
    });
    expect(message).toContain('PORT: must be a whole number from 0 to 65535');
    expect(message).toContain('STRIPE_SECRET_KEY: must be a Stripe secret key');
    expect(message).toContain('MAPS_UPSTREAM_ORIGIN: must be an http(s) origin');
    expect(message).toContain('CONTACT_EMAIL: must be an e-mail address');
    expect(message).not.toContain('SECRETVALUE');
  });

  it('accepts port 0 and 65535, refuses letters', () => {
    expect(loadSettings({ PORT: '0' }).port).toBe(0);
    expect(loadSettings({ PORT: '65535' }).port).toBe(65535);
    expect(problemsOf({ PORT: '80a' })).toContain('PORT');
  });

  it('reads RATE_LIMIT_FACTOR as a positive number', () => {
    expect(loadSettings({}).rateLimitFactor).toBe(1);
    expect(loadSettings({ RATE_LIMIT_FACTOR: '12.5' }).rateLimitFactor).toBe(12.5);
    expect(problemsOf({ RATE_LIMIT_FACTOR: '0' })).toContain('RATE_LIMIT_FACTOR');
    expect(problemsOf({ RATE_LIMIT_FACTOR: '-1' })).toContain('RATE_LIMIT_FACTOR');
  });

  it('parses CORS origins and refuses paths in them', () => {
    expect(
      loadSettings({ CORS_ORIGIN: 'https://a.example, http://localhost:5173' }).corsOrigins,
    ).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(problemsOf({ CORS_ORIGIN: 'https://a.example/app' })).toContain('CORS_ORIGIN');
  });

  it('serves WEB_DIST only when it holds index.html', () => {
    const folder = mkdtempSync(join(tmpdir(), 'placeport-web-'));
    expect(problemsOf({ WEB_DIST: folder })).toContain('has no index.html');
    writeFileSync(join(folder, 'index.html'), '<!doctype html>');
    expect(loadSettings({ WEB_DIST: folder }).webDist).toBe(folder);
  });

  it('takes TRUST_PROXY as a hop count or a list of proxy addresses, and refuses true', () => {
    const keys = { STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE };
    expect(loadSettings({}).trustProxy).toBe(false);
    expect(loadSettings({ ...keys, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadSettings({ ...keys, TRUST_PROXY: '10.0.0.1, 10.0.1.0/24' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.1.0/24',
    ]);
    expect(loadSettings({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(problemsOf({ TRUST_PROXY: 'true' })).toContain('never true');
    expect(problemsOf({ TRUST_PROXY: 'TRUE' })).toContain('never true');
    expect(problemsOf({ TRUST_PROXY: 'proxy.example' })).toContain('TRUST_PROXY');
  });

  describe('TRUST_PROXY ranges', () => {
    const keys = { STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE };
    const trusted = (value: string) => loadSettings({ ...keys, TRUST_PROXY: value }).trustProxy;
    const refused = (value: string) => problemsOf({ ...keys, TRUST_PROXY: value });

    it('takes ranges up to an IPv4 /8 and an IPv6 /32, and every one Fastify then compiles', () => {
      const values = [
        '10.0.0.0/8',
        '203.0.113.7/32',
        '2001:db8::/32',
        '2001:db8::1/128',
        '::ffff:10.0.0.0/104',
        '::ffff:10.0.0.1',
      ];
      for (const value of values) {
        expect(trusted(value), value).toEqual([value]);
        // Fastify compiles it at construction (proxy-addr), throwing on what it cannot read.
        expect(() => Fastify({ trustProxy: value }), value).not.toThrow();
      }
      expect(trusted('10.0.0.0/8, 2001:db8::/32')).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    });

    it('refuses wider ranges, which let every client inside choose its own address', () => {
      for (const value of ['10.0.0.0/7', '0.0.0.0/1,128.0.0.0/1', '2001:db8::/31', '::/1']) {
        expect(refused(value), value).toMatch(/TRUST_PROXY: .* is wider than an IPv[46] \/(8|32)/);
        expect(refused(value), value).toContain('could choose its own address');
      }
      expect(refused('10.0.0.1, 10.0.0.0/7')).toContain('10.0.0.0/7 is wider than an IPv4 /8');
    });

    it('refuses IPv6 ranges that hold every IPv4 client (as ::ffff:a.b.c.d) past the IPv4 limit', () => {
      for (const value of ['::ffff:0.0.0.0/96', '::ffff:10.0.0.0/103', '::/32', '::/80']) {
        expect(refused(value), value).toContain('could choose its own address');
      }
    });

    it('refuses /0 and what is no address as a settings error, never a crash at start', () => {
      const settingsError = (value: string) => {
        expect(() => loadSettings({ ...keys, TRUST_PROXY: value }), value).toThrow(SettingsError);
        return refused(value);
      };
      expect(settingsError('0.0.0.0/0')).toContain('0.0.0.0/0 is wider than an IPv4 /8');
      expect(settingsError('::/0')).toContain('::/0 is wider than an IPv6 /32');
      expect(settingsError('10.0.0.0/33')).toContain('10.0.0.0/33');
      expect(settingsError('2001:db8::/129')).toContain('2001:db8::/129');
      for (const value of ['10.0.0.256', '1.2.3', '10.0.0.01', ':::1', '1:2:3:4:5:6:7:8:9']) {
        expect(settingsError(value), value).toContain(`${value} is not an IP address`);
      }
    });
  });

  describe('demo payments (no Stripe keys)', () => {
    it('run on their own on a loopback HOST with no trusted proxy, covering any number of places', () => {
      for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
        expect(loadSettings({ HOST: host })).toMatchObject({
          stripe: undefined,
          demoPayments: 'loopback',
        });
      }
      // TRUST_PROXY=0 or false is no proxy; DEMO_PAYMENTS=on adds nothing on loopback.
      expect(loadSettings({ TRUST_PROXY: '0' }).demoPayments).toBe('loopback');
      expect(loadSettings({ TRUST_PROXY: 'false' }).demoPayments).toBe('loopback');
      expect(loadSettings({ DEMO_PAYMENTS: 'on' }).demoPayments).toBe('loopback');
    });

    it('refuse to start on an address other machines can reach, unless DEMO_PAYMENTS=on', () => {
      const refused = problemsOf({ HOST: '0.0.0.0' });
      expect(refused).toContain(
        'HOST: demo payments (no Stripe keys) run only on a loopback address; 0.0.0.0 is reachable from other machines',
      );
      expect(refused).toContain('DEMO_PAYMENTS=on');
      expect(problemsOf({ HOST: '203.0.113.7', DEMO_PAYMENTS: 'off' })).toContain(
        'run only on a loopback address',
      );
      expect(loadSettings({ HOST: '0.0.0.0', DEMO_PAYMENTS: 'on' }).demoPayments).toBe('reachable');
    });

    it('refuse to start behind a trusted proxy, even on loopback, unless DEMO_PAYMENTS=on', () => {
      for (const proxy of ['1', '10.0.0.1', '10.0.0.0/8, 192.168.1.1']) {
        const refused = problemsOf({ HOST: '127.0.0.1', TRUST_PROXY: proxy });
        expect(refused).toContain(
          'TRUST_PROXY: demo payments (no Stripe keys) do not run behind a proxy: it makes 127.0.0.1 reachable from other machines',
        );
        expect(refused).toContain('Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY');
        expect(refused).toContain('DEMO_PAYMENTS=on to allow demo payments there');
        expect(refused).toContain('at most 1,000 places a payment');
        expect(
          loadSettings({ HOST: '127.0.0.1', TRUST_PROXY: proxy, DEMO_PAYMENTS: 'on' }).demoPayments,
        ).toBe('reachable');
      }
    });

    it('are off with Stripe keys, wherever the server listens', () => {
      const keys = { STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE };
      for (const env of [{ HOST: '0.0.0.0' }, { TRUST_PROXY: '1' }, { DEMO_PAYMENTS: 'on' }]) {
        const settings = loadSettings({ ...keys, ...env });
        expect(settings.stripe).toEqual({
          secretKey: SECRET,
          publishableKey: PUBLISHABLE,
          apiBase: undefined,
        });
        expect(settings.demoPayments).toBeUndefined();
      }
      // One key alone is a Stripe problem, not a demo one.
      const alone = problemsOf({ HOST: '0.0.0.0', STRIPE_SECRET_KEY: SECRET });
      expect(alone).toContain('must be set together');
      expect(alone).not.toContain('loopback');
    });

    it('take DEMO_PAYMENTS as on or off only', () => {
      expect(problemsOf({ DEMO_PAYMENTS: 'yes' })).toContain('DEMO_PAYMENTS: must be on or off');
    });
  });

  it('reads the money settings with their defaults and bounds', () => {
    const defaults = loadSettings({});
    expect(defaults).toMatchObject({
      settleAfterMinutes: 30,
      freeLinksPerDay: 20,
      redisUrl: undefined,
      payerCookieSecretSet: false,
    });
    expect(defaults.payerCookieSecrets).toHaveLength(1);
    expect(defaults.payerCookieSecrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(loadSettings({}).payerCookieSecrets).not.toEqual(defaults.payerCookieSecrets);
    // With Stripe, the default survives a restart (the same keys give the same secret) and is
    // not the Stripe key itself.
    const stripe = { STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE };
    const first = loadSettings(stripe).payerCookieSecrets;
    expect(loadSettings(stripe).payerCookieSecrets).toEqual(first);
    expect(first[0]!.length).toBeGreaterThanOrEqual(32);
    expect(first[0]).not.toContain(SECRET);
    expect(
      loadSettings({ ...stripe, STRIPE_SECRET_KEY: `${SECRET}2` }).payerCookieSecrets,
    ).not.toEqual(first);
    const secret = 'x'.repeat(32);
    expect(loadSettings({ PAYER_COOKIE_SECRET: secret })).toMatchObject({
      payerCookieSecrets: [secret],
      payerCookieSecretSet: true,
    });
    expect(problemsOf({ PAYER_COOKIE_SECRET: 'x'.repeat(31) })).toContain('PAYER_COOKIE_SECRET');
    expect(loadSettings({ SETTLE_AFTER_MINUTES: '0.05' }).settleAfterMinutes).toBe(0.05);
    expect(loadSettings({ SETTLE_AFTER_MINUTES: '10080' }).settleAfterMinutes).toBe(10_080);
    expect(problemsOf({ SETTLE_AFTER_MINUTES: '0.04' })).toContain('SETTLE_AFTER_MINUTES');
    expect(problemsOf({ SETTLE_AFTER_MINUTES: '0' })).toContain('SETTLE_AFTER_MINUTES');
    expect(problemsOf({ SETTLE_AFTER_MINUTES: '10081' })).toContain('SETTLE_AFTER_MINUTES');
    expect(loadSettings({ FREE_LINKS_PER_DAY: '0' }).freeLinksPerDay).toBe(0);
    expect(loadSettings({ FREE_LINKS_PER_DAY: '10000' }).freeLinksPerDay).toBe(10_000);
    expect(problemsOf({ FREE_LINKS_PER_DAY: '10001' })).toContain('FREE_LINKS_PER_DAY');
    expect(
      loadSettings({ REDIS_URL: 'redis://:pw@127.0.0.1:6379/0', PAYER_COOKIE_SECRET: secret })
        .redisUrl,
    ).toBe('redis://:pw@127.0.0.1:6379/0');
    expect(problemsOf({ REDIS_URL: 'http://127.0.0.1' })).toContain(
      'REDIS_URL: must be a redis://, rediss:// or unix:// (a socket: unix:///run/redis.sock) URL',
    );
    expect(
      loadSettings({ REDIS_URL: 'unix:///run/redis.sock', PAYER_COOKIE_SECRET: secret }).redisUrl,
    ).toBe('unix:///run/redis.sock');
  });

  it('takes PAYER_COOKIE_SECRET as a comma-separated list: the first signs, all verify', () => {
    const [current, previous] = ['c'.repeat(40), 'p'.repeat(32)];
    expect(
      loadSettings({ PAYER_COOKIE_SECRET: ` ${current} , ${previous},` }).payerCookieSecrets,
    ).toEqual([current, previous]);
    const short = problemsOf({ PAYER_COOKIE_SECRET: `${current},tooShortOldSecret` });
    expect(short).toContain('PAYER_COOKIE_SECRET: must be one secret of at least 32 characters');
    expect(short).not.toContain('tooShortOldSecret');
    expect(short).not.toContain(current);
    expect(problemsOf({ PAYER_COOKIE_SECRET: ' , ' })).toContain('PAYER_COOKIE_SECRET');
  });

  it('refuses REDIS_URL without PAYER_COOKIE_SECRET: instances would refuse each other', () => {
    const problems = problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(problems).toContain('PAYER_COOKIE_SECRET: must be set with REDIS_URL');
    expect(problems).toContain('each would otherwise sign payer cookies with a key of its own');
    expect(
      loadSettings({ REDIS_URL: 'redis://127.0.0.1:6379', PAYER_COOKIE_SECRET: 'k'.repeat(32) })
        .payerCookieSecretSet,
    ).toBe(true);
  });

  it('never echoes a secret in its messages', () => {
    const message = problemsOf({
      PAYER_COOKIE_SECRET: 'tooShortSecret',
      REDIS_URL: 'http://:hunter2@x',
    });
    expect(message).not.toContain('tooShortSecret');
    expect(message).not.toContain('hunter2');
  });
});

describe('misspeltSettings', () => {
  it('names a variable one slip from a setting, with the setting it likely means', () => {
    expect(
      misspeltSettings({
        FREE_LINK_PER_DAY: '500',
        port: '9000',
        REDIS_URI: 'redis://x',
        CORS_ORIGINS: 'https://a.example',
        LOGLEVEL: 'debug',
      }),
    ).toEqual([
      { given: 'FREE_LINK_PER_DAY', meant: 'FREE_LINKS_PER_DAY' },
      { given: 'port', meant: 'PORT' },
      { given: 'REDIS_URI', meant: 'REDIS_URL' },
      { given: 'CORS_ORIGINS', meant: 'CORS_ORIGIN' },
      { given: 'LOGLEVEL', meant: 'LOG_LEVEL' },
    ]);
  });

  it("says nothing of the settings themselves nor of a machine's usual variables", () => {
    const env = Object.fromEntries(
      [
        ...SETTING_NAMES,
        ...['HOME', 'HOSTNAME', 'PATH', 'PWD', 'OLDPWD', 'TERM', 'USER', 'SHELL', 'LANG', 'TZ'],
        ...['NODE_ENV', 'CI', 'LOGNAME', 'COLORTERM', 'SHLVL', 'REDIS_HOST', 'STRIPE_KEY'],
      ].map((name) => [name, 'x']),
    );
    expect(misspeltSettings(env)).toEqual([]);
    expect(SETTING_NAMES).toContain('FREE_LINKS_PER_DAY');
    // Every setting loadSettings reads is in the list --help prints.
    expect(SETTING_NAMES).toHaveLength(20);
  });
});
