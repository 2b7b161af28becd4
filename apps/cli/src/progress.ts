/**
 * The lookup progress: `Looking up places: 212 / 588 · 14.1 a second · about 27 s left`. On a
 * terminal's stderr it is one line rewritten in place with `\r`; when stderr is not a terminal
 * (a pipe, a log file) it is written as whole lines now and then ({@link LOG_INTERVAL_MS}), so a log
 * shows the run is alive without filling up. The total is the run's distinct places and never
 * grows: a place sent again after a refusal is counted once, when its answer is final.
 * Reading a large `.tgz` through, before any lookup, is shown the same way ({@link formatReading}).
 */

/** A duration for people: `45 s`, `3 min 20 s`, `1 h 5 min`; under a second reads `1 s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = seconds % 60;
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/**
 * A `.tgz` past this shows its progress while it is read through: about a tenth of a second of
 * reading and more (a tar has no directory: a part of tens of GB takes minutes).
 */
export const SHOW_READING_BYTES = 64 * 1024 * 1024;

/** A rate with about three significant digits: `0.42`, `14.1`, `212`. */
function formatRate(perSecond: number): string {
  if (perSecond >= 100) return String(Math.round(perSecond));
  if (perSecond >= 10) return perSecond.toFixed(1);
  return perSecond.toFixed(2);
}

/** The state of the lookups at one moment. */
export interface ProgressState {
  /** Places whose lookup is answered for good (from the cache file, Google, or given up on). */
  done: number;
  /** Places this run looks up: fixed for the run. */
  total: number;
  /** Places answered a second lately ({@link RATE_WINDOW_MS}); undefined until it can be measured. */
  perSecond: number | undefined;
}

/**
 * `head`, then the recent rate (`rate` words it) and the time left at that rate: both left out
 * until there is something to measure, and the time left once everything is done.
 */
function withRate(
  head: string,
  { done, total, perSecond }: ProgressState,
  rate: (perSecond: number) => string,
): string {
  const shown = Math.min(done, total);
  const parts = [head];
  if (shown > 0 && perSecond !== undefined && perSecond > 0) {
    parts.push(`${rate(perSecond)} a second`);
    if (shown < total)
      parts.push(`about ${formatDuration(((total - shown) / perSecond) * 1000)} left`);
  }
  return parts.join(' · ');
}

/** The lookups' progress text ({@link withRate}). */
export function formatProgress(state: ProgressState): string {
  return withRate(
    `Looking up places: ${Math.min(state.done, state.total)} / ${state.total}`,
    state,
    formatRate,
  );
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/**
 * The progress of reading an archive through (a `.tgz`, which has no directory to read first),
 * in `state`'s bytes: `Reading takeout-001.tgz: 1.2 / 2.0 GB · 310 MB a second · about 3 s left`.
 */
export function formatReading(name: string): (state: ProgressState) => string {
  return (state) => {
    const [unit, size, digits] = state.total >= GB ? ['GB', GB, 1] : ['MB', MB, 0];
    const amount = (bytes: number) => (bytes / size).toFixed(digits);
    return withRate(
      `Reading ${name}: ${amount(Math.min(state.done, state.total))} / ${amount(state.total)} ${unit}`,
      state,
      (perSecond) =>
        perSecond >= MB ? `${Math.round(perSecond / MB)} MB` : `${Math.round(perSecond / 1024)} KB`,
    );
  };
}

/** Minimum time between two redraws of the terminal line. */
export const REDRAW_INTERVAL_MS = 100;
/** Minimum time between two progress lines when stderr is not a terminal. */
export const LOG_INTERVAL_MS = 10_000;
/**
 * The rate is measured over about this much of the recent past, so the estimate follows the run as
 * it is now (a pause, a slower stretch), not its average since the start.
 */
export const RATE_WINDOW_MS = 20_000;

/** Places answered a second over the last {@link RATE_WINDOW_MS}. */
class RecentRate {
  private readonly samples: Array<{ time: number; done: number }> = [];

  add(time: number, done: number): void {
    this.samples.push({ time, done });
    // Keep one sample at or before the window's start, so the rate always spans the whole window.
    while (this.samples.length > 2 && this.samples[1]!.time <= time - RATE_WINDOW_MS) {
      this.samples.shift();
    }
  }

  perSecond(): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.time <= first.time || last.done <= first.done) return undefined;
    return ((last.done - first.done) * 1000) / (last.time - first.time);
  }
}

/** Shows {@link formatProgress} as lookups are answered (or another text of the same state). */
export interface ProgressLine {
  /** Shows the new state (at most every {@link REDRAW_INTERVAL_MS} on a terminal, {@link LOG_INTERVAL_MS} otherwise). */
  update(done: number, total: number): void;
  /** Shows the last state and ends the line, so what follows starts on a line of its own. */
  finish(): void;
  /**
   * Runs `print` (which writes whole lines, a warning) with the line out of its way: on a terminal
   * the progress line is cleared first and drawn again below what was printed.
   */
  above(print: () => void): void;
}

/**
 * Progress written through `write`, as `format` says it ({@link formatProgress}, the lookups, by
 * default). On a terminal (`terminal: true`), one line: `\r` goes back to
 * its start and `ESC[K` clears what a longer earlier text left behind, redrawn at most every
 * {@link REDRAW_INTERVAL_MS} and always when everything is done. Otherwise whole lines (each ending
 * in `\n`): the first state, then at most one every {@link LOG_INTERVAL_MS}, and the last.
 */
export function createProgressLine(
  write: (text: string) => void,
  now: () => number = Date.now,
  {
    terminal = true,
    format = formatProgress,
  }: { terminal?: boolean; format?: (state: ProgressState) => string } = {},
): ProgressLine {
  const rate = new RecentRate();
  let lastShown = Number.NEGATIVE_INFINITY;
  let shownText: string | undefined;
  let state: { done: number; total: number } | undefined;
  const text = () => format({ ...state!, perSecond: rate.perSecond() });
  const show = () => {
    if (!state) return;
    shownText = text();
    write(terminal ? `\r${shownText}\u001b[K` : `${shownText}\n`);
  };
  const interval = terminal ? REDRAW_INTERVAL_MS : LOG_INTERVAL_MS;
  return {
    update(done, total) {
      const time = now();
      rate.add(time, done);
      state = { done, total };
      if ((!terminal || done < total) && time - lastShown < interval) return;
      lastShown = time;
      show();
    },
    above(print) {
      if (!terminal || shownText === undefined || !state) {
        print();
        return;
      }
      write('\r\u001b[K');
      print();
      show();
    },
    finish() {
      if (!state) return;
      if (terminal) {
        show();
        write('\n');
      } else if (text() !== shownText) {
        show();
      }
      state = undefined;
    },
  };
}
