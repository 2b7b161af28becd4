/**
 * Whole processes timed side by side for the CLI's benches: wall time from here, CPU (user + sys) and
 * peak memory (maximum resident set) from GNU `time` when `/usr/bin/time` is there. Sides run
 * alternately, the order flipped every round, so a machine that slows down mid-bench slows both;
 * ratios are medians of the per-round ratios.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';

/** True when GNU `time` can report each process's CPU and peak memory. */
export const hasGnuTime = existsSync(GNU_TIME);

/** What one process cost. CPU and peak are absent without GNU `time`. */
export interface ProcessFigures {
  wallMs: number;
  cpuMs?: number;
  peakMb?: number;
}

/** A command to run: what it is called in the report, and how to start it. */
export interface Side {
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Runs before each run of this side, untimed (e.g. removes the previous run's output). */
  before?: () => Promise<void>;
}

/**
 * The environment the benches run commands in: this process's, without `NODE_EXTRA_CA_CERTS`, which
 * costs every Node process some 30 ms of start-up reading certificates. Turbo does not pass it to
 * `pnpm bench`, so a bench run by hand measures the same as one run through turbo.
 */
export function benchEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

let scratch: string | undefined;

/** Runs `side` once; rejects when it exits with anything but 0 (its stderr in the message). */
export async function timeProcess(side: Side): Promise<ProcessFigures> {
  await side.before?.();
  scratch ??= await mkdtemp(path.join(tmpdir(), 'placeport-time-'));
  const report = path.join(scratch, 'time.txt');
  const [command, args] = hasGnuTime
    ? [GNU_TIME, ['-f', '%U %S %M', '-o', report, side.command, ...side.args]]
    : [side.command, [...side.args]];
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: side.cwd,
      env: side.env ?? benchEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${side.name} exited ${code}: ${text}`)),
    );
  });
  const wallMs = performance.now() - started;
  if (!hasGnuTime) return { wallMs };
  const [user, sys, maxKb] = (await readFile(report, 'utf8')).trim().split(/\s+/).map(Number);
  return { wallMs, cpuMs: ((user ?? 0) + (sys ?? 0)) * 1000, peakMb: (maxKb ?? 0) / 1024 };
}

/** Removes the timer's scratch folder. */
export async function cleanUp(): Promise<void> {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each side's runs, in round order. */
export type PairedRuns = [ProcessFigures[], ProcessFigures[]];

/** Runs `a` and `b` alternately `rounds` times (a, b, then b, a, …) after one untimed warm-up each. */
export async function paired(rounds: number, a: Side, b: Side): Promise<PairedRuns> {
  await timeProcess(a);
  await timeProcess(b);
  const runs: PairedRuns = [[], []];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      runs[0].push(await timeProcess(a));
      runs[1].push(await timeProcess(b));
    } else {
      runs[1].push(await timeProcess(b));
      runs[0].push(await timeProcess(a));
    }
  }
  return runs;
}

/** The median of `a`'s figure over `b`'s, round by round; undefined when either lacks it. */
export function pairedRatio(runs: PairedRuns, figure: keyof ProcessFigures): number | undefined {
  const ratios = runs[0].map((run, round) => {
    const mine = run[figure];
    const theirs = runs[1][round]?.[figure];
    return mine === undefined || !theirs ? undefined : mine / theirs;
  });
  if (ratios.some((ratio) => ratio === undefined)) return undefined;
  return median(ratios as number[]);
}

/** The median of one side's figure, undefined when it was not measured. */
export function medianOf(runs: readonly ProcessFigures[], figure: keyof ProcessFigures) {
  const values = runs.map((run) => run[figure]);
  return values.some((value) => value === undefined) ? undefined : median(values as number[]);
}

/**
 * One side's mean CPU, undefined when it was not measured: for runs of tens of milliseconds, as GNU
 * `time` reports CPU in steps of 10 ms, a median would be one of a few steps.
 */
export function meanCpu(runs: readonly ProcessFigures[]): number | undefined {
  if (runs.some((run) => run.cpuMs === undefined)) return undefined;
  return runs.reduce((sum, run) => sum + run.cpuMs!, 0) / runs.length;
}

/** The ratio of the two sides' mean CPU ({@link meanCpu}), undefined when either was not measured. */
export function meanCpuRatio(runs: PairedRuns): number | undefined {
  const [a, b] = [meanCpu(runs[0]), meanCpu(runs[1])];
  return a !== undefined && b ? a / b : undefined;
}

/** A figure for the report: `0.62 s`, `174 MB`, or `n/a` when not measured. */
export function show(value: number | undefined, unit: 's' | 'MB' | '×'): string {
  if (value === undefined) return 'n/a';
  if (unit === 's') return `${(value / 1000).toFixed(3)} s`;
  if (unit === 'MB') return `${value.toFixed(0)} MB`;
  return `${value.toFixed(2)}×`;
}
