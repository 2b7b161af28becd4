/**
 * Makes sure a program from one of Debian's packages is installed before the tests that use it
 * (redis-server for the tests that start their own Redis, chromium for the browser tests). Only
 * the npm registry and Debian's archive are reachable here, so the project installs Debian's own
 * package with apt-get, as root (CI machines run as root); without root it stops with an error
 * saying how. Plain JavaScript (types in `debian.d.ts`) so bare Node runs it before anything is
 * compiled.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `program` on `PATH` (or in /usr/bin, /usr/sbin, /usr/local/bin), or undefined. */
export function findProgram(program) {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...dirs, '/usr/bin', '/usr/sbin', '/usr/local/bin']
    .map((dir) => join(dir, program))
    .find(isExecutable);
}

function run(command, args, log) {
  log(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with status ${result.status}`);
  }
}

/**
 * Returns the path of the program `find()` finds, installing Debian's `debianPackage` first
 * (`apt-get update`, then `apt-get install -y`) when it is missing and this process is root on a
 * system with apt-get. Otherwise throws an error that says how to install it.
 */
export function ensureDebianProgram({ name, debianPackage, find, installArgs = [], log }) {
  const found = find();
  if (found) return found;

  const howTo = `sudo apt-get update && sudo apt-get install -y ${debianPackage}`;
  if (process.platform !== 'linux' || !isExecutable('/usr/bin/apt-get')) {
    throw new Error(
      `${name} is missing and this is not a Debian-like system with apt-get. ` +
        `Install Debian's ${debianPackage} package (${howTo}) on a Debian or Ubuntu machine.`,
    );
  }
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(
      `${name} is missing and installing it needs root. Install it with:\n` +
        `  ${howTo}\nthen run the tests again.`,
    );
  }
  try {
    run('apt-get', ['update'], log);
    run('apt-get', ['install', '-y', ...installArgs, debianPackage], log);
  } catch (error) {
    throw new Error(`could not install ${debianPackage} (${error.message}). Try: ${howTo}`, {
      cause: error,
    });
  }
  const installed = find();
  if (!installed) throw new Error(`apt-get finished but ${name} is still missing.`);
  log(`installed ${installed}`);
  return installed;
}
