/**
 * Process entry of the `placeport` command (bin/placeport.js loads it after the build). Help and
 * wrong usage are answered here; the conversion's code (the converter, the writers, the summary) is
 * imported only for a run, so `placeport --help` costs little more than Node starting.
 */
import { readMachine } from './config.js';
import { startCommand } from './usage.js';

const argv = process.argv.slice(2);
const start = startCommand(
  argv,
  {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
  },
  readMachine,
);
if (start.kind === 'exit') {
  process.exitCode = start.code;
} else {
  const { runCli } = await import('./main.js');
  process.exitCode = await runCli(argv);
}
