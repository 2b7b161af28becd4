/**
 * (g) The progress line. A child process's stderr is never a terminal, so the line is tested here:
 * the formatter from given numbers, the line's redraws on a fake clock, and `runCli` in this
 * process with a stand-in terminal (progress drawn) and without one (nothing drawn).
 */
import { generateTakeout, startFakeGoogle, type FakeGoogle } from '@placeport/testkit';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliContext, type CliIo } from '../src/main.js';
import {
  createProgressLine,
  formatDuration,
  formatProgress,
  REDRAW_INTERVAL_MS,
} from '../src/progress.js';
import { tempFolder } from './support.js';

describe('formatProgress', () => {
  it('shows done / total, the rate and the time left at that rate', () => {
    expect(formatProgress({ done: 212, total: 588, elapsedMs: 15_000 })).toBe(
      'Looking up places: 212 / 588 · 14.1 a second · about 27 s left',
    );
    expect(formatProgress({ done: 50, total: 1000, elapsedMs: 100_000 })).toBe(
      'Looking up places: 50 / 1000 · 0.50 a second · about 31 min 40 s left',
    );
    expect(formatProgress({ done: 3000, total: 90_000, elapsedMs: 10_000 })).toBe(
      'Looking up places: 3000 / 90000 · 300 a second · about 4 min 50 s left',
    );
    expect(formatProgress({ done: 10, total: 100_000, elapsedMs: 60_000 })).toBe(
      'Looking up places: 10 / 100000 · 0.17 a second · about 166 h 39 min left',
    );
  });

  it('leaves out what it cannot know yet, and the time left once everything is done', () => {
    expect(formatProgress({ done: 0, total: 40, elapsedMs: 0 })).toBe('Looking up places: 0 / 40');
    expect(formatProgress({ done: 0, total: 40, elapsedMs: 5_000 })).toBe(
      'Looking up places: 0 / 40',
    );
    expect(formatProgress({ done: 40, total: 40, elapsedMs: 8_000 })).toBe(
      'Looking up places: 40 / 40 · 5.00 a second',
    );
    // A total that was low (a link sent again is added later) never shows more done than total.
    expect(formatProgress({ done: 45, total: 40, elapsedMs: 8_000 })).toBe(
      'Looking up places: 40 / 40 · 5.00 a second',
    );
  });

  it('formats durations for people', () => {
    expect(
      [0, 400, 1_000, 59_400, 60_000, 61_000, 3_600_000, 3_660_000].map(formatDuration),
    ).toEqual(['1 s', '1 s', '1 s', '59 s', '1 min', '1 min 1 s', '1 h', '1 h 1 min']);
  });
});

describe('createProgressLine', () => {
  it('redraws one line with \\r at most every 100 ms, always the last state, and ends it on finish', () => {
    let time = 1_000;
    const written: string[] = [];
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
    );
    line.update(0, 10);
    time += 1;
    line.update(1, 10); // too soon: not drawn
    time += REDRAW_INTERVAL_MS;
    line.update(5, 10);
    time += 1;
    line.update(10, 10); // the last one is always drawn
    line.finish();
    expect(written).toEqual([
      '\rLooking up places: 0 / 10\u001b[K',
      '\rLooking up places: 5 / 10 · 49.5 a second · about 1 s left\u001b[K',
      '\rLooking up places: 10 / 10 · 98.0 a second\u001b[K',
      '\rLooking up places: 10 / 10 · 98.0 a second\u001b[K',
      '\n',
    ]);
  });

  it('draws nothing when nothing was looked up', () => {
    const written: string[] = [];
    createProgressLine((text) => written.push(text)).finish();
    expect(written).toEqual([]);
  });
});

describe('runCli progress', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let google: FakeGoogle;
  let archive: string;
  const takeout = generateTakeout({
    seed: 21,
    includeNonPlaceLists: false,
    lists: [{ name: 'Walks', places: 8, kinds: { ftid: 1 } }],
  });

  beforeAll(async () => {
    ({ dir, remove } = await tempFolder('progress'));
    google = await startFakeGoogle();
    archive = path.join(dir, 'takeout.zip');
    await writeFile(archive, takeout.zip);
  });

  afterAll(async () => {
    await google.close();
    await remove();
  });

  const context = (): CliContext => ({
    env: {
      googleMapsApiKey: undefined,
      xdgCacheHome: dir,
      localAppData: undefined,
      mapsOrigin: google.url,
      placesApiOrigin: google.url,
    },
    platform: 'linux',
    homedir: dir,
  });

  function capture(terminal: boolean) {
    const out = { stdout: [] as string[], stderr: [] as string[], progress: [] as string[] };
    const io: CliIo = {
      stdout: (text) => out.stdout.push(text),
      stderr: (text) => out.stderr.push(text),
      ...(terminal ? { progress: (text: string) => out.progress.push(text) } : {}),
    };
    return { out, io };
  }

  it('draws lookups done / total on a terminal, ending at all of them, apart from the summary', async () => {
    const { out, io } = capture(true);
    const args = ['convert', archive, '--out', path.join(dir, 'tty'), '--no-cache'];
    expect(await runCli(args, io, context())).toBe(0);
    const places = new Set(takeout.lists[0]!.places.map((p) => p.cid)).size;
    expect(out.progress.length).toBeGreaterThanOrEqual(3);
    expect(out.progress[0]).toBe(`\rLooking up places: 0 / ${places}\u001b[K`);
    expect(out.progress.at(-2)).toMatch(
      new RegExp(`^\\rLooking up places: ${places} / ${places}( · [\\d.]+ a second)?\\u001b\\[K$`),
    );
    expect(out.progress.at(-1)).toBe('\n');
    expect(out.stderr).toEqual([]);
    expect(out.stdout.join('\n')).not.toContain('Looking up places:');
  });

  it('draws nothing when stderr is not a terminal', async () => {
    const { out, io } = capture(false);
    const args = ['convert', archive, '--out', path.join(dir, 'pipe'), '--no-cache'];
    expect(await runCli(args, io, context())).toBe(0);
    expect(out.progress).toEqual([]);
    expect(out.stderr).toEqual([]);
    expect(out.stdout.join('\n')).toContain('✓ Walks: 8 of 8 places converted');
  });
});
