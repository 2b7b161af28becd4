/**
 * `pnpm bench`: what starting the CLI costs. `placeport --help` against `node -e 0` (Node itself
 * starting), whole processes, paired and alternated; prints each side's median wall time, mean CPU
 * time and the ratios (issue 19's target: wall within 1.5×). CPU is a ratio of means because GNU
 * `time` reports it in steps of 10 ms, a fifth of a run here. Needs the build, as turbo runs it.
 */
import { fileURLToPath } from 'node:url';
import {
  cleanUp,
  meanCpu,
  meanCpuRatio,
  medianOf,
  paired,
  pairedRatio,
  show,
} from './processes.js';

const ROUNDS = 31;
const BIN = fileURLToPath(new URL('../bin/placeport.cjs', import.meta.url));

try {
  const runs = await paired(
    ROUNDS,
    { name: 'placeport --help', command: process.execPath, args: [BIN, '--help'] },
    { name: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
  );
  const [help, node] = runs;
  console.log(`\nStart-up, ${ROUNDS} paired runs:`);
  console.log(
    `  placeport --help  ${show(medianOf(help, 'wallMs'), 's')} wall, ${show(meanCpu(help), 's')} CPU, ${show(medianOf(help, 'peakMb'), 'MB')} peak`,
  );
  console.log(
    `  node -e 0         ${show(medianOf(node, 'wallMs'), 's')} wall, ${show(meanCpu(node), 's')} CPU, ${show(medianOf(node, 'peakMb'), 'MB')} peak`,
  );
  console.log(
    `  ratio --help / node: wall ${show(pairedRatio(runs, 'wallMs'), '×')} (median of paired ratios; target within 1.50×), CPU ${show(meanCpuRatio(runs), '×')}`,
  );
} finally {
  await cleanUp();
}
