/**
 * (g) The progress line. A child process's stderr is never a terminal, so the line is tested here:
 * the formatter from given numbers, the line's redraws on a fake clock, and `runCli` in this
 * process with a stand-in terminal (progress drawn) and without one (nothing drawn).
 */
import { generateTakeout, startFakeGoogle, type FakeGoogle } from '@placeport/testkit';
import { existsSync } from 'node:fs';
import { access, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { packTar } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliContext, type CliIo, type Interrupts } from '../src/main.js';
import {
  createProgressLine,
  fitted,
  formatDuration,
  formatProgress,
  formatReading,
  SHOW_READING_BYTES,
  LOG_INTERVAL_MS,
  RATE_WINDOW_MS,
  REDRAW_INTERVAL_MS,
  TICK_INTERVAL_MS,
} from '../src/progress.js';
import type { CliSummary } from '../src/summary.js';
import { tempFolder } from './support.js';

describe('formatProgress', () => {
  it('shows done / total, the recent rate and the time left at that rate', () => {
    expect(formatProgress({ done: 212, total: 588, perSecond: 14.13 })).toBe(
      'Looking up places: 212 / 588 · 14.1 a second · about 27 s left',
    );
    expect(formatProgress({ done: 50, total: 1000, perSecond: 0.5 })).toBe(
      'Looking up places: 50 / 1000 · 0.50 a second · about 31 min 40 s left',
    );
    expect(formatProgress({ done: 3000, total: 90_000, perSecond: 300 })).toBe(
      'Looking up places: 3000 / 90000 · 300 a second · about 4 min 50 s left',
    );
    expect(formatProgress({ done: 10, total: 100_000, perSecond: 10 / 60 })).toBe(
      'Looking up places: 10 / 100000 · 0.17 a second · about 166 h 39 min left',
    );
  });

  it('leaves out what it cannot know yet, and the time left once everything is done', () => {
    expect(formatProgress({ done: 0, total: 40, perSecond: undefined })).toBe(
      'Looking up places: 0 / 40',
    );
    expect(formatProgress({ done: 12, total: 40, perSecond: 0 })).toBe(
      'Looking up places: 12 / 40',
    );
    expect(formatProgress({ done: 40, total: 40, perSecond: 5 })).toBe(
      'Looking up places: 40 / 40 · 5.00 a second',
    );
    expect(formatProgress({ done: 45, total: 40, perSecond: 5 })).toBe(
      'Looking up places: 40 / 40 · 5.00 a second',
    );
  });

  it('once the run stopped sending, counts only the places looked up, with no rate or time left', () => {
    expect(formatProgress({ done: 96, total: 96, unsent: 84, perSecond: 19 })).toBe(
      'Looking up places: 12 / 96',
    );
    expect(formatProgress({ done: 96, total: 96, unsent: 0, perSecond: 19 })).toBe(
      'Looking up places: 96 / 96 · 19.0 a second',
    );
  });

  it('while the run pauses before a retry round, says how many places wait and for how long, counting down', () => {
    expect(
      formatProgress({ done: 100, total: 315, retry: { places: 215, inMs: 18_000 }, perSecond: 5 }),
    ).toBe('Looking up places: 100 / 315 · 215 to try again in 18 s');
    let time = 2_000;
    const written: string[] = [];
    const ticks: Array<() => void> = [];
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
      {
        every: (tick) => {
          ticks.push(tick);
          return () => {};
        },
      },
    );
    line.update(100, 315, { retry: { places: 215, at: 20_000 } });
    expect(written.at(-1)).toBe(
      '\rLooking up places: 100 / 315 · 215 to try again in 18 s\u001b[K',
    );
    time = 3_000;
    ticks[0]!();
    expect(written.at(-1)).toBe(
      '\rLooking up places: 100 / 315 · 215 to try again in 17 s\u001b[K',
    );
    // The round starts: the count goes on, with no countdown.
    time = 20_000;
    line.update(100, 315);
    expect(written.at(-1)).toBe('\rLooking up places: 100 / 315\u001b[K');
  });

  it('formats durations for people', () => {
    expect(
      [0, 400, 1_000, 59_400, 60_000, 61_000, 3_600_000, 3_660_000].map(formatDuration),
    ).toEqual(['1 s', '1 s', '1 s', '59 s', '1 min', '1 min 1 s', '1 h', '1 h 1 min']);
  });
});

describe('formatReading', () => {
  it('shows the bytes read of the file, in GB or MB as its size is, the rate and the time left', () => {
    const reading = formatReading('takeout-001.tgz');
    expect(
      reading({ done: 1.2 * 1024 ** 3, total: 2 * 1024 ** 3, perSecond: 310 * 1024 ** 2 }),
    ).toBe('Reading takeout-001.tgz: 1.2 / 2.0 GB · 310 MB a second · about 3 s left');
    expect(reading({ done: 10 * 1024 ** 2, total: 700 * 1024 ** 2, perSecond: undefined })).toBe(
      'Reading takeout-001.tgz: 10 / 700 MB',
    );
    expect(
      reading({ done: 700 * 1024 ** 2, total: 700 * 1024 ** 2, perSecond: 2 * 1024 ** 2 }),
    ).toBe('Reading takeout-001.tgz: 700 / 700 MB · 2 MB a second');
    // Slower than a megabyte a second (a network drive): in KB, never "0 MB a second".
    expect(reading({ done: 100 * 1024 ** 2, total: 500 * 1024 ** 2, perSecond: 300 * 1024 })).toBe(
      'Reading takeout-001.tgz: 100 / 500 MB · 300 KB a second · about 22 min 45 s left',
    );
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

  it('cuts the line to the width of the terminal, so a narrow terminal does not wrap it into a stack of copies', () => {
    const written: string[] = [];
    let columns: number | undefined = 20;
    let time = 0;
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
      { columns: () => columns },
    );
    line.update(3, 10);
    columns = 80;
    time += REDRAW_INTERVAL_MS;
    line.update(4, 10);
    expect(written).toEqual([
      '\rLooking up places:…\u001b[K',
      '\rLooking up places: 4 / 10 · 10.0 a second · about 1 s left\u001b[K',
    ]);
    // At the width, one short of it, and without a width (not a terminal, or unknown).
    const text = 'Looking up places: 3 / 10';
    expect(fitted(text, text.length)).toBe(`${text.slice(0, text.length - 2)}…`);
    expect(fitted(text, text.length + 1)).toBe(text);
    expect(fitted(text, undefined)).toBe(text);
    expect([...fitted('Looking · up ★ places', 10)]).toHaveLength(9);
  });

  it('prints a warning on a line of its own, with the progress drawn again below it', () => {
    const written: string[] = [];
    const write = (text: string) => written.push(text);
    const line = createProgressLine(write, () => 0);
    line.above(() => write('before any progress\n'));
    line.update(3, 10);
    line.above(() => write('warning\n'));
    expect(written).toEqual([
      'before any progress\n',
      '\rLooking up places: 3 / 10\u001b[K',
      '\r\u001b[K',
      'warning\n',
      '\rLooking up places: 3 / 10\u001b[K',
    ]);
    // Not a terminal: whole lines already, nothing to clear.
    const logged: string[] = [];
    const log = createProgressLine(
      (text) => logged.push(text),
      () => 0,
      { terminal: false },
    );
    log.update(3, 10);
    log.above(() => logged.push('warning\n'));
    expect(logged).toEqual(['Looking up places: 3 / 10\n', 'warning\n']);
  });

  it(`estimates from the recent rate (the last ${RATE_WINDOW_MS / 1000} s), not the average since the start`, () => {
    let time = 0;
    const written: string[] = [];
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
    );
    line.update(0, 1000);
    // A fast start: 500 in 5 s ...
    time = 5_000;
    line.update(500, 1000);
    expect(written.at(-1)).toContain('100 a second · about 5 s left');
    // ... then 1 a second for a minute: the estimate follows.
    for (let s = 1; s <= 60; s += 1) {
      time = 5_000 + s * 1_000;
      line.update(500 + s, 1000);
    }
    expect(written.at(-1)).toBe(
      '\rLooking up places: 560 / 1000 · 1.00 a second · about 7 min 20 s left\u001b[K',
    );
  });

  it('follows the clock through a stall: the rate goes once a whole window has passed without an answer, and the answers after it are spread over the window, not the stall', () => {
    let time = 0;
    const written: string[] = [];
    const ticks: Array<() => void> = [];
    let stopped = 0;
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
      {
        every: (tick, ms) => {
          expect(ms).toBe(TICK_INTERVAL_MS);
          ticks.push(tick);
          return () => (stopped += 1);
        },
      },
    );
    // 10 a second for 30 s.
    for (let s = 0; s <= 30; s += 1) {
      time = s * 1_000;
      line.update(s * 10, 1000);
    }
    expect(ticks).toHaveLength(1);
    expect(written.at(-1)).toBe(
      '\rLooking up places: 300 / 1000 · 10.0 a second · about 1 min 10 s left\u001b[K',
    );
    // Then nothing for two minutes: the line is looked at every second, and changes with the clock.
    const shownAt = (seconds: number) => {
      time = seconds * 1_000;
      ticks[0]!();
      return written.at(-1);
    };
    expect(shownAt(40)).toBe(
      '\rLooking up places: 300 / 1000 · 5.00 a second · about 2 min 20 s left\u001b[K',
    );
    expect(shownAt(51)).toBe('\rLooking up places: 300 / 1000\u001b[K');
    const drawn = written.length;
    expect(shownAt(100)).toBe('\rLooking up places: 300 / 1000\u001b[K');
    expect(written).toHaveLength(drawn); // unchanged: not drawn again
    // 32 answers at 150 s: 32 in the last 20 s, not 32 in the last 120 s (about 42 min left).
    time = 150_000;
    line.update(332, 1000);
    expect(written.at(-1)).toBe(
      '\rLooking up places: 332 / 1000 · 1.60 a second · about 6 min 58 s left\u001b[K',
    );
    line.finish();
    expect(stopped).toBe(1);
  });

  it('ends a stopped run without a rate or a time left, and counts only the places sent', () => {
    let time = 0;
    const written: string[] = [];
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
      { every: () => () => {} },
    );
    line.update(0, 96);
    time = 2_000;
    line.update(12, 96);
    expect(written.at(-1)).toContain('· 6.00 a second · about 14 s left');
    time = 2_500;
    line.update(96, 96, { unsent: 84 });
    line.finish({ stopped: true });
    expect(written.slice(-2)).toEqual(['\rLooking up places: 12 / 96\u001b[K', '\n']);
    // Ctrl-C: what was shown last, without its estimate.
    const logged: string[] = [];
    const log = createProgressLine(
      (text) => logged.push(text),
      () => time,
      { terminal: false, every: () => () => {} },
    );
    time = 0;
    log.update(0, 40);
    time = 2_000;
    log.update(10, 40);
    log.finish({ stopped: true });
    expect(logged).toEqual(['Looking up places: 0 / 40\n', 'Looking up places: 10 / 40\n']);
  });

  it('writes whole lines when stderr is not a terminal: the first, one every 10 s at most, and the last', () => {
    let time = 0;
    const written: string[] = [];
    const line = createProgressLine(
      (text) => written.push(text),
      () => time,
      { terminal: false },
    );
    line.update(0, 10);
    for (let done = 1; done <= 10; done += 1) {
      time += LOG_INTERVAL_MS / 4;
      line.update(done, 10);
    }
    line.finish();
    expect(written.every((text) => text.endsWith('\n') && !text.includes('\r'))).toBe(true);
    expect(written.map((text) => text.split(' · ')[0])).toEqual([
      'Looking up places: 0 / 10\n',
      'Looking up places: 4 / 10',
      'Looking up places: 8 / 10',
      'Looking up places: 10 / 10',
    ]);
  });

  it('draws nothing when nothing was looked up', () => {
    const written: string[] = [];
    createProgressLine((text) => written.push(text)).finish();
    createProgressLine((text) => written.push(text), Date.now, { terminal: false }).finish();
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
      retryDelayMs: 100,
      cacheSaveMs: undefined,
      proxies: {},
    },
    platform: 'linux',
    homedir: dir,
  });

  /** Interrupts a test fires itself: `stop` while the run listens, undefined once it stopped. */
  function heldInterrupts() {
    const held: { stop?: Parameters<Interrupts['listen']>[0]; interrupts: Interrupts } = {
      interrupts: {
        listen: (onStop) => {
          held.stop = onStop;
          return () => (held.stop = undefined);
        },
      },
    };
    return held;
  }

  function capture(terminal: boolean) {
    const out = { stdout: [] as string[], stderr: [] as string[], progress: [] as string[] };
    const io: CliIo = {
      stdout: (text) => out.stdout.push(text),
      stderr: (text) => out.stderr.push(text),
      ...(terminal
        ? { progress: (text: string) => out.progress.push(text) }
        : { progressLog: (text: string) => out.progress.push(text) }),
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

  /** A `.tgz` of the list past {@link SHOW_READING_BYTES}: a video stored beside it, gzip level 0. */
  async function largeTgz(): Promise<{ file: string; size: number }> {
    const entries = Object.entries(unzipSync(takeout.zip)).map(([name, body]) => ({
      header: { name, size: body.length },
      body,
    }));
    entries.unshift({
      header: { name: 'Takeout/YouTube/videos/clip.mp4', size: SHOW_READING_BYTES },
      body: new Uint8Array(SHOW_READING_BYTES),
    });
    const tgz = gzipSync(await packTar(entries), { level: 0 });
    const file = path.join(dir, 'takeout-20261127T110000Z-001.tgz');
    await writeFile(file, tgz);
    return { file, size: tgz.length };
  }

  it('shows a .tgz past 64 MB read through, then the lookups; Ctrl-C while reading writes nothing', async () => {
    const { file, size } = await largeTgz();
    expect(size).toBeGreaterThan(SHOW_READING_BYTES);
    const megabytes = Math.round(size / 1024 ** 2);
    const { out, io } = capture(false);
    const args = ['convert', file, '--out', path.join(dir, 'tgz'), '--no-cache'];
    expect(await runCli(args, io, context())).toBe(0);
    expect(out.progress[0]).toBe(`Reading takeout-20261127T110000Z-001.tgz: 0 / ${megabytes} MB\n`);
    const lastRead = out.progress.findLast((line) => line.startsWith('Reading'));
    expect(lastRead).toMatch(
      new RegExp(`^Reading takeout-20261127T110000Z-001\\.tgz: ${megabytes} / ${megabytes} MB\\b`),
    );
    expect(out.progress.at(-1)).toMatch(/^Looking up places: 8 \/ 8\b/);
    expect(out.stdout.join('\n')).toContain('✓ Walks: 8 of 8 places placed');

    // An interrupt as the first bytes are read: the read stops there, and the run with it.
    const interrupted = capture(false);
    let stop: Parameters<Interrupts['listen']>[0] | undefined;
    const interrupts: Interrupts = {
      listen: (onStop) => {
        stop = onStop;
        return () => (stop = undefined);
      },
    };
    const seen = interrupted.io.progressLog!;
    interrupted.io.progressLog = (text) => {
      seen(text);
      stop?.('SIGINT');
    };
    const outDir = path.join(dir, 'tgz-stopped');
    const code = await runCli(
      ['convert', file, '--out', outDir, '--no-cache', '--json'],
      interrupted.io,
      {
        ...context(),
        interrupts,
      },
    );
    expect(code).toBe(130);
    expect(interrupted.out.stderr).toEqual([
      `placeport: interrupted while reading ${file}: nothing was written.`,
    ]);
    expect(JSON.parse(interrupted.out.stdout.join(''))).toEqual({
      error: {
        code: 'interrupted',
        message: `Interrupted while reading ${file}: nothing was written.`,
      },
    });
    const read = interrupted.out.progress.map((line) => Number(/: (\d+) \//.exec(line)?.[1]));
    expect(Math.max(...read)).toBeLessThan(megabytes);
    expect(interrupted.out.progress.some((line) => line.startsWith('Looking up'))).toBe(false);
    await expect(access(outDir)).rejects.toThrow();
  });

  it('a signal once every place has its answer cuts nothing short: files written, the run reported as it ended, exit 0', async () => {
    const { out, io } = capture(false);
    let stop: Parameters<Interrupts['listen']>[0] | undefined;
    const interrupts: Interrupts = {
      listen: (onStop) => {
        stop = onStop;
        return () => (stop = undefined);
      },
    };
    const places = new Set(takeout.lists[0]!.places.map((p) => p.cid)).size;
    const seen = io.progressLog!;
    io.progressLog = (text) => {
      seen(text);
      if (text.startsWith(`Looking up places: ${places} / ${places}`)) stop?.('SIGTERM');
    };
    const outDir = path.join(dir, 'late-signal');
    const args = ['convert', archive, '--out', outDir, '--no-cache', '--json'];
    expect(await runCli(args, io, { ...context(), interrupts })).toBe(0);
    expect(stop).toBeUndefined();
    const summary = JSON.parse(out.stdout.join('')) as CliSummary;
    expect(summary.interrupted).toBeUndefined();
    expect(summary.lists[0]).toMatchObject({ converted: 8, unplaced: {} });
    expect(await readdir(outDir)).toEqual(['Walks.kml']);
    // Said at once: the last answer is in, so the signal only ends the run once it is written.
    expect(out.stderr).toEqual([
      expect.stringMatching(
        /^placeport: (every place was looked up: stopping once the files are written|interrupted: looking up no more places)/,
      ),
    ]);
  });

  it('a signal in a run that looks nothing up (--offline) says so, and the files are still written', async () => {
    const { out, io } = capture(false);
    const signals = heldInterrupts();
    const { interrupts } = signals;
    const outDir = path.join(dir, 'offline-signal');
    // Once the run has made its --out folder, its input is read: the signal comes then.
    let signalled = false;
    const watch = () => {
      if (existsSync(outDir) && signals.stop) {
        signals.stop('SIGINT');
        signalled = true;
      } else if (!signalled) setImmediate(watch);
    };
    setImmediate(watch);
    const args = ['convert', archive, '--out', outDir, '--offline', '--json'];
    expect(await runCli(args, io, { ...context(), interrupts })).toBe(0);
    expect(signalled).toBe(true);
    expect(out.stderr).toEqual([
      'placeport: nothing is looked up in this run: stopping once the files are written (press Ctrl-C again to stop at once).',
    ]);
    const summary = JSON.parse(out.stdout.join('')) as CliSummary;
    expect(summary.interrupted).toBeUndefined();
    expect(summary.lists[0]!.unplaced).toEqual({ not_looked_up: 8 });
    expect(await readdir(outDir)).toEqual(summary.lists[0]!.files.map((f) => path.basename(f)));
  });

  it('writes whole lines when stderr is not a terminal: the first and the last, the same total', async () => {
    const { out, io } = capture(false);
    const args = ['convert', archive, '--out', path.join(dir, 'pipe'), '--no-cache'];
    expect(await runCli(args, io, context())).toBe(0);
    const places = new Set(takeout.lists[0]!.places.map((p) => p.cid)).size;
    expect(out.progress[0]).toBe(`Looking up places: 0 / ${places}\n`);
    expect(out.progress.at(-1)).toMatch(new RegExp(`^Looking up places: ${places} / ${places}\\b`));
    expect(out.stderr).toEqual([]);
    expect(out.stdout.join('\n')).toContain('✓ Walks: 8 of 8 places placed');
  });
});
