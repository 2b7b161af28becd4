/** Process entry of the `placeport` command (bin/placeport.js loads it after the build). */
import { runCli } from './main.js';

process.exitCode = await runCli(process.argv.slice(2));
