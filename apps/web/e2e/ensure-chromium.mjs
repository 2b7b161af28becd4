#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is at /usr/bin/chromium before the browser tests and the browser
 * benchmark run. Playwright never downloads a browser here (only the npm registry and Debian's
 * archive are reachable), so the project installs Debian's own package: `apt-get update`, then
 * `apt-get install -y chromium`, as root (CI machines run as root). Without root it stops with a
 * message saying how to install it. Plain Node, no dependencies, so it runs before anything else.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Where Debian's `chromium` package puts the browser; the tests launch exactly this file. */
const CHROMIUM_PATH = '/usr/bin/chromium';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(command, args) {
  console.log(`ensure-chromium: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with status ${result.status}`);
  }
}

function fail(message) {
  console.error(`ensure-chromium: ${message}`);
  process.exit(1);
}

if (isExecutable(CHROMIUM_PATH)) {
  process.exit(0);
}

const howTo = 'sudo apt-get update && sudo apt-get install -y chromium';
if (process.platform !== 'linux' || !isExecutable('/usr/bin/apt-get')) {
  fail(
    `${CHROMIUM_PATH} is missing and this is not a Debian-like system with apt-get. ` +
      `Install Debian's chromium package (${howTo}) on a Debian or Ubuntu machine.`,
  );
}
if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
  fail(
    `${CHROMIUM_PATH} is missing and installing it needs root. Install it with:\n  ${howTo}\n` +
      'then run the browser tests again.',
  );
}

try {
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', 'chromium']);
} catch (error) {
  fail(`could not install Chromium (${error.message}). Try: ${howTo}`);
}
if (!isExecutable(CHROMIUM_PATH)) {
  fail(`apt-get finished but ${CHROMIUM_PATH} is still missing.`);
}
console.log(`ensure-chromium: installed ${CHROMIUM_PATH}`);
