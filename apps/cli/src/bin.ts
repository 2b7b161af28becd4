/**
 * Process entry of the `placeport` command, bundled as CommonJS into `dist/placeport.cjs`
 * (bin/placeport.cjs loads it after the build). Help and wrong usage are answered here without
 * Node's ES module loader, which alone costs a few milliseconds to start; the conversion's code (the
 * converter, the writers, the summary) is an ES module bundle, `dist/main.js`, imported only for a
 * run, so `placeport --help` costs little more than Node starting.
 */
import { processPrinter, readMachine, type Machine } from './config.js';
import { startCommand, type ConvertCommand } from './usage.js';

async function run(command: ConvertCommand, machine: Machine): Promise<void> {
  // A run reads its lists once and keeps them to the end, so most of what it allocates survives:
  // V8 then grows its young generation to 32 MB and never gives it back. Kept at its first size,
  // survivors move on to the old generation sooner (issue 19: peak 138 -> 105 MB at 50,000 places,
  // CPU 1.65 -> 1.37x GDAL's).
  // A flag to `node` would do the same but needs a second process, which --help would pay for.
  (await import('node:v8')).setFlagsFromString('--semi-space-growth-factor=1');
  const { runCommand } = await import('./main.js');
  process.exitCode = await runCommand(command, machine);
}

const start = startCommand(process.argv.slice(2), processPrinter, readMachine);
if (start.kind === 'exit') process.exitCode = start.code;
// A failure the run does not answer itself ends the process as an uncaught error would (exit 1).
else void run(start.command, start.machine);
