/**
 * How the browser tests and the browser benchmark start Chromium: Debian's build at a fixed path
 * (`ensure-chromium.mjs` installs it), with the flags that keep it quiet on a closed network and
 * working as root. Playwright launches it with a fresh profile each time.
 */

/** Debian's `chromium` package; Playwright never downloads a browser of its own here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Root needs `--no-sandbox`; the rest stop background connections that fail offline. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
