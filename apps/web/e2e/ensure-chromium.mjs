#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is at /usr/bin/chromium before the browser tests and the browser
 * benchmark run. Playwright never downloads a browser here (only the npm registry and Debian's
 * archive are reachable), so the project installs Debian's own package as root with the testkit's
 * `ensureDebianProgram` (CI machines run as root); without root it stops with a message saying
 * how. Plain Node, no build step, so it runs before anything else.
 */
import { accessSync, constants } from 'node:fs';
import { ensureDebianProgram } from '@placeport/testkit/debian';

/** Where Debian's `chromium` package puts the browser; the tests launch exactly this file. */
const CHROMIUM_PATH = '/usr/bin/chromium';

try {
  ensureDebianProgram({
    name: CHROMIUM_PATH,
    debianPackage: 'chromium',
    find: () => {
      try {
        accessSync(CHROMIUM_PATH, constants.X_OK);
        return CHROMIUM_PATH;
      } catch {
        return undefined;
      }
    },
    log: (line) => console.log(`ensure-chromium: ${line}`),
  });
} catch (error) {
  console.error(`ensure-chromium: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
