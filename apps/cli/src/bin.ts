/**
 * Process entry of the `placeport` command, bundled as CommonJS into `dist/placeport.cjs`
 * (bin/placeport.cjs loads it after the build). Help and wrong usage are answered here without
 * Node's ES module loader, which alone costs a few milliseconds to start; the conversion's code (the
 * converter, the writers, the summary) is an ES module bundle, `dist/main.js`, imported only for a
 * run, so `placeport --help` costs little more than Node starting.
 */
import { printable, processPrinter, readMachine, type Machine } from './config.js';
import { startCommand, type ConvertCommand } from './usage.js';

/**
 * V8 settings for a run, set before its code is loaded (issue 19; figures are paired runs of the
 * bench's archives, this flag against none):
 * - `--semi-space-growth-factor=1`: a run reads its lists once and keeps them to the end, so most
 *   of what it allocates survives: V8 then grows its young generation to 32 MB and never gives it
 *   back. Kept at its first size, survivors move on to the old generation sooner (peak 138 -> 105
 *   MB at 50,000 places, CPU 1.65 -> 1.37x GDAL's).
 * - `--no-turbo-inlining`: a run is a fraction of a second, and V8's optimizing compiler spent more
 *   time inlining (papaparse's scanner and its closures, the placemark writer) than the inlined
 *   code saved, most of it on a second thread. Without it: 50,000 places wall -13%, CPU -22%, peak
 *   -5 MB; 5,000 places -18% / -27%; 100,000 places -9% / -15%; 500 places unchanged.
 * A flag to `node` would do the same but needs a second process, which --help would pay for.
 */
const RUN_V8_FLAGS = '--semi-space-growth-factor=1 --no-turbo-inlining';

async function run(command: ConvertCommand, machine: Machine): Promise<void> {
  (await import('node:v8')).setFlagsFromString(RUN_V8_FLAGS);
  const { runCommand } = await import('./main.js');
  process.exitCode = await runCommand(command, machine);
}

// Usage messages quote the arguments given (an option's name, a --format's value): made printable.
const start = startCommand(
  process.argv.slice(2),
  { ...processPrinter, stderr: (text) => processPrinter.stderr(printable(text)) },
  readMachine,
);
if (start.kind === 'exit') process.exitCode = start.code;
// A failure the run does not answer itself ends the process as an uncaught error would (exit 1).
else void run(start.command, start.machine);
