/**
 * Where a CLI run's time goes: the run once more under V8's sampling profiler (`node --cpu-prof`),
 * each sample put in the first phase its stack names, from the sampled function outwards. What ran
 * before the conversion's first step (Node starting, our modules loading) is start-up. The profile is
 * the main thread's only: GC work on helper threads and zlib on the thread pool are not in it, and
 * the profiler itself slows the run a little, so these are shares, not the run's times.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The phases, each by the functions that make it (their names as the bundle keeps them; esbuild
 * may add a digit to a name it renames). The first match from the sampled function outwards wins,
 * so `decode` under `eachRecord` is the parse and `encodeInto` under `writeNew` is the write.
 */
const PHASES: ReadonlyArray<readonly [phase: string, functions: readonly string[]]> = [
  ['garbage collection (main thread)', ['(garbage collector)']],
  ['waiting (I/O, thread pool)', ['(idle)']],
  ['unzip (zlib)', ['zlibInflate', 'readZipEntry', 'readZipDirectory']],
  [
    'CSV parse and cell copies',
    ['eachPlainRecord', 'eachRecord', 'parseSavedPlacesCsv', 'parseSavedPlacesJson'],
  ],
  ['coordinates from links', ['coordinateSources', 'placeNeed']],
  ['KML text', ['kmlChunks', 'placemark']],
  ['encoding and writing files', ['writeNew', 'writeAll']],
  ['lookups', ['resolveUrls', 'openLocalLookups']],
  [
    'the run around them (plans, results, summary)',
    ['runCommand', 'convertArchive', 'planOutputs', 'writePlans', 'summarize'],
  ],
];

const START_UP = "start-up (Node, loading the CLI's modules)";

function phaseOf(name: string): string | undefined {
  const bare = name.replace(/\d+$/, '');
  return PHASES.find(([, functions]) => functions.includes(bare))?.[0];
}

/** Milliseconds per phase of one profile, in the order of {@link PHASES}, start-up first. */
export function phasesOf(profile: CpuProfile): Array<[phase: string, ms: number]> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  let started = false;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    let phase: string | undefined;
    let ranRun = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      phase ??= phaseOf(name);
      if (name === 'runCommand') ranRun = true;
    }
    started ||= ranRun;
    const key = started ? (phase ?? 'other') : START_UP;
    totals.set(key, (totals.get(key) ?? 0) + ms);
  });
  const order = [START_UP, ...PHASES.map(([phase]) => phase), 'other'];
  return order.filter((phase) => totals.has(phase)).map((phase) => [phase, totals.get(phase)!]);
}

/**
 * Runs `node <args>` once under the profiler (its environment: `env`) and returns its phases, or
 * why it could not.
 */
export function profileRun(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  before: () => void,
): Array<[string, number]> | { failed: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'placeport-profile-'));
  try {
    before();
    const run = spawnSync(
      process.execPath,
      ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '200', ...args],
      { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    if (run.status !== 0) return { failed: `exited ${run.status}: ${run.stderr}` };
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) return { failed: 'no profile was written' };
    return phasesOf(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
