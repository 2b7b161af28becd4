/** Process entry of the `placeport` command (bin/placeport.js loads it after the build). */
import { setMaxListeners } from 'node:events';
import { MAX_ABORT_LISTENERS, runCli } from './main.js';

setMaxListeners(MAX_ABORT_LISTENERS);
process.exitCode = await runCli(process.argv.slice(2));
