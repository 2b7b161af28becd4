/**
 * The environment the `placeport` command reads, in one place: lint forbids `process.env` in every
 * other file of this package. Read once per run by {@link readEnvironment}; the rest of the CLI
 * takes the parsed {@link CliEnvironment}, so tests can hand it any environment they like.
 */
import { homedir } from 'node:os';
import path from 'node:path';

/** A setting of the environment that does not hold what it should: a usage error (exit 2). */
export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}

/** What the CLI takes from the environment. */
export interface CliEnvironment {
  /** `GOOGLE_MAPS_API_KEY`: enables the Places API step of local lookups (`--google-maps-api-key` wins). */
  googleMapsApiKey: string | undefined;
  /** `XDG_CACHE_HOME`, when set to an absolute path (the XDG spec ignores relative ones). */
  xdgCacheHome: string | undefined;
  /** `LOCALAPPDATA` (Windows): where the cache folder goes there. */
  localAppData: string | undefined;
  /**
   * Test-only: `PLACEPORT_MAPS_ORIGIN` stands in for every Google Maps host (place pages, short
   * links), e.g. the testkit's fake Google on loopback. Documented in the README, not in `--help`.
   */
  mapsOrigin: string | undefined;
  /** Test-only: `PLACEPORT_PLACES_API_ORIGIN` stands in for `https://places.googleapis.com`. */
  placesApiOrigin: string | undefined;
  /**
   * Test-only: `PLACEPORT_RETRY_DELAY_MS` (a whole number of milliseconds, at most 60,000) instead
   * of the converter's 5 s before its first retry round (the later ones grow from it), so tests of
   * refused lookups do not wait out the real pauses.
   */
  retryDelayMs: number | undefined;
  /**
   * Test-only: `PLACEPORT_CACHE_SAVE_MS` (a whole number of milliseconds, 1 to 60,000) instead of
   * the 30 s between two saves of the cache file during the lookups (`CACHE_SAVE_EVERY_MS`), so a
   * test can kill a run once its finds are saved without waiting half a minute.
   */
  cacheSaveMs: number | undefined;
  /** The proxies lookups go through, read from the variables other tools read ({@link readProxies}). */
  proxies: ProxySettings;
}

/** A proxy given in the environment: the variable it came from, and its URL. */
export interface ProxyVariable {
  variable: string;
  url: string;
}

/**
 * The proxies of a machine that reaches the web through one, as curl, npm and git read them.
 * Lookups go through them (undici's tunnels), and a variable's URL is never printed: it may hold a
 * password. Only the variable's name is.
 */
export interface ProxySettings {
  /** For https origins (Google's, an https --api): `https_proxy`, `HTTPS_PROXY`, else {@link http}. */
  https?: ProxyVariable;
  /** For http origins (an --api on http): `http_proxy`, `HTTP_PROXY`. */
  http?: ProxyVariable;
  /** `no_proxy` or `NO_PROXY`: hosts reached directly (`localhost,127.0.0.1,.example.com`). */
  noProxy?: string;
  /**
   * A proxy variable set that lookups cannot go through, by name: `ALL_PROXY` (often a SOCKS
   * proxy), or a URL that is not an http(s) proxy (`socks5://…`). The summary says so when the
   * lookups could not get through.
   */
  unsupported?: string;
}

/**
 * The proxies `env` names. A lower-case name wins over its upper-case one, as curl reads them; an
 * http proxy serves https origins too when no https one is given, as npm and undici do; one given
 * without a scheme is http. A value that is not an http(s) URL (a SOCKS proxy) is not used, and
 * named in `unsupported`.
 */
export function readProxies(env: NodeJS.ProcessEnv): ProxySettings {
  const settings: ProxySettings = {};
  const pick = (names: readonly string[]): ProxyVariable | undefined => {
    for (const variable of names) {
      const given = nonEmpty(env[variable]);
      if (given === undefined) continue;
      // Without a scheme (`proxy.example:3128`) it is an http proxy, as curl reads it.
      const url = given.includes('://') ? given : `http://${given}`;
      const parsed = URL.canParse(url) ? new URL(url) : undefined;
      if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
        return { variable, url };
      }
      settings.unsupported ??= variable;
      return undefined;
    }
    return undefined;
  };
  const http = pick(['http_proxy', 'HTTP_PROXY']);
  const https = pick(['https_proxy', 'HTTPS_PROXY']) ?? http;
  if (https) settings.https = https;
  if (http) settings.http = http;
  const noProxy = nonEmpty(env.no_proxy) ?? nonEmpty(env.NO_PROXY);
  if (noProxy) settings.noProxy = noProxy;
  if (!https && !http) {
    const all = ['ALL_PROXY', 'all_proxy'].find((name) => nonEmpty(env[name]) !== undefined);
    if (all) settings.unsupported ??= all;
  }
  return settings;
}

/** The proxy `settings` give for an origin of `protocol` (`https:` or `http:`), if any. */
export function proxyFor(settings: ProxySettings, protocol: string): ProxyVariable | undefined {
  return protocol === 'https:' ? settings.https : settings.http;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** An http(s) origin (`http://127.0.0.1:4010`), without its trailing slash; anything else is refused. */
function origin(name: string, value: string | undefined): string | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    throw new EnvironmentError(`${name} must be an http(s) origin, e.g. http://127.0.0.1:4010`);
  }
  return url.origin;
}

/** A whole number of milliseconds from `least` (0 unless given) to 60,000; anything else is refused. */
function milliseconds(name: string, value: string | undefined, least = 0): number | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 60_000 || Number(text) < least) {
    throw new EnvironmentError(
      `${name} must be a whole number of milliseconds from ${least} to 60000`,
    );
  }
  return Number(text);
}

/** Parses the CLI's settings from `env` (the process's environment by default). */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env): CliEnvironment {
  const xdg = nonEmpty(env.XDG_CACHE_HOME);
  return {
    googleMapsApiKey: nonEmpty(env.GOOGLE_MAPS_API_KEY),
    xdgCacheHome: xdg && path.isAbsolute(xdg) ? xdg : undefined,
    localAppData: nonEmpty(env.LOCALAPPDATA),
    mapsOrigin: origin('PLACEPORT_MAPS_ORIGIN', env.PLACEPORT_MAPS_ORIGIN),
    placesApiOrigin: origin('PLACEPORT_PLACES_API_ORIGIN', env.PLACEPORT_PLACES_API_ORIGIN),
    retryDelayMs: milliseconds('PLACEPORT_RETRY_DELAY_MS', env.PLACEPORT_RETRY_DELAY_MS),
    cacheSaveMs: milliseconds('PLACEPORT_CACHE_SAVE_MS', env.PLACEPORT_CACHE_SAVE_MS, 1),
    proxies: readProxies(env),
  };
}

/** The machine a run is on: its environment (parsed), platform and home folder. */
export interface Machine {
  env: CliEnvironment;
  platform: NodeJS.Platform;
  homedir: string;
}

/** This process's machine; throws {@link EnvironmentError} for a setting that holds nothing valid. */
export function readMachine(): Machine {
  return { env: readEnvironment(), platform: process.platform, homedir: homedir() };
}

/**
 * Text for a terminal: control characters (C0 but tab and line feed, DEL, C1) shown as `\xHH`.
 * Messages quote what an archive holds (list names, a header's columns), and an escape sequence
 * there would otherwise reach the terminal: clear the screen, set its title, recolour what follows.
 */
export function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what it finds
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (control) => `\\x${control.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Streams that failed (EPIPE: the reader went away, `| head` ended; EIO: the terminal closed). */
const failedStreams = new WeakSet<NodeJS.WriteStream>();
const watchedStreams = new WeakSet<NodeJS.WriteStream>();

/**
 * Writes `text` to stdout or stderr unless it failed earlier. A write to a pipe whose reader is gone
 * fails afterwards, as an 'error' event that would end the process (exit 1, a stack trace) and lose
 * the run's work; it is taken here instead, and the stream is written to no more: the run goes on
 * without its messages, writes its files and its cache, and exits as it would have.
 */
export function writeOut(stream: NodeJS.WriteStream, text: string): void {
  if (failedStreams.has(stream)) return;
  if (!watchedStreams.has(stream)) {
    watchedStreams.add(stream);
    stream.on('error', () => failedStreams.add(stream));
  }
  stream.write(text);
}

/** This process's stdout and stderr, a line at a time (see {@link writeOut}). */
export const processPrinter = {
  stdout: (text: string) => writeOut(process.stdout, `${text}\n`),
  stderr: (text: string) => writeOut(process.stderr, `${text}\n`),
};

/** The cache file's format (cache-file.ts); a new shape takes a new number, and so a new file name. */
export const CACHE_FILE_VERSION = 1;
/** The cache file's name: an old file is simply not read by a version that does not know its shape. */
export const CACHE_FILE_NAME = `places-v${CACHE_FILE_VERSION}.json`;

/** Where a platform keeps per-user caches, for {@link defaultCacheFile}. */
export interface CacheLocationContext {
  env: Pick<CliEnvironment, 'xdgCacheHome' | 'localAppData'>;
  platform: NodeJS.Platform;
  homedir: string;
}

/**
 * The cache file's default path: `$XDG_CACHE_HOME/placeport/places-v1.json` when that is set, else
 * `~/Library/Caches/placeport/…` on macOS, `%LOCALAPPDATA%\placeport\Cache\…` on Windows and
 * `~/.cache/placeport/…` elsewhere.
 */
export function defaultCacheFile({ env, platform, homedir }: CacheLocationContext): string {
  if (env.xdgCacheHome) return path.join(env.xdgCacheHome, 'placeport', CACHE_FILE_NAME);
  if (platform === 'darwin') {
    return path.posix.join(homedir, 'Library', 'Caches', 'placeport', CACHE_FILE_NAME);
  }
  if (platform === 'win32') {
    const base = env.localAppData ?? path.win32.join(homedir, 'AppData', 'Local');
    return path.win32.join(base, 'placeport', 'Cache', CACHE_FILE_NAME);
  }
  return path.posix.join(homedir, '.cache', 'placeport', CACHE_FILE_NAME);
}
