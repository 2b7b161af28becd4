/**
 * The lookup progress: `Looking up places: 212 / 588 · 14.1 a second · about 27 s left`. On a
 * terminal's stderr it is one line rewritten in place with `\r`; when stderr is not a terminal
 * (a pipe, a log file) it is written as whole lines now and then ({@link LOG_INTERVAL_MS}), so a log
 * shows the run is alive without filling up. The total is the run's distinct places and never
 * grows: a place sent again after a refusal is counted once, when its answer is final. Once the run
 * stops sending (Ctrl-C, Google out of reach, the API's refusal), the places given their reason
 * unsent are not counted as looked up, and no rate or time left is shown: the line ends at what
 * was looked up (`Looking up places: 12 / 96`), and the summary says why the rest was not.
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
  /** Of `done`, places given their reason without being sent, once the run stopped sending. */
  unsent?: number;
  /** While the run pauses before a retry round: how many places wait, and for how long still. */
  retry?: { places: number; inMs: number };
  /** Places answered a second lately ({@link RATE_WINDOW_MS}); undefined until it can be measured. */
  perSecond: number | undefined;
}

/**
 * `head`, then the recent rate (`rate` words it) and the time left at that rate: both left out
 * until there is something to measure, and the time left once everything is done. While the run
 * pauses before a retry round, what waits and for how long instead: `215 to try again in 18 s`.
 */
function withRate(
  head: string,
  { done, total, unsent = 0, retry, perSecond }: ProgressState,
  rate: (perSecond: number) => string,
): string {
  const shown = Math.min(done - unsent, total);
  const parts = [head];
  if (retry) {
    parts.push(`${retry.places} to try again in ${formatDuration(retry.inMs)}`);
  } else if (unsent === 0 && shown > 0 && perSecond !== undefined && perSecond > 0) {
    parts.push(`${rate(perSecond)} a second`);
    if (shown < total)
      parts.push(`about ${formatDuration(((total - shown) / perSecond) * 1000)} left`);
  }
  return parts.join(' · ');
}

/** The lookups' progress text ({@link withRate}). */
export function formatProgress(state: ProgressState): string {
  return withRate(
    `Looking up places: ${Math.min(state.done - (state.unsent ?? 0), state.total)} / ${state.total}`,
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
/**
 * While no answer comes (a slow upstream, a pause before a retry round), the terminal line is
 * looked at again this often, so its rate and time left follow the clock, not the last answer.
 */
export const TICK_INTERVAL_MS = 1_000;
/** Minimum time between two progress lines when stderr is not a terminal. */
export const LOG_INTERVAL_MS = 10_000;
/**
 * The rate is measured over about this much of the recent past, so the estimate follows the run as
 * it is now (a pause, a slower stretch), not its average since the start.
 */
export const RATE_WINDOW_MS = 20_000;

/**
 * Places answered a second over the last {@link RATE_WINDOW_MS} up to now (over the time since the
 * first sample while the run is younger than that). The count only moves at a sample, so the count
 * at the window's start is the last sample's at or before it: after a two-minute stall, the answers
 * since are spread over the window, not over the stall, and once nothing has come for a whole
 * window there is no rate to give.
 */
class RecentRate {
  private readonly samples: Array<{ time: number; done: number }> = [];

  add(time: number, done: number): void {
    this.samples.push({ time, done });
    // Keep one sample at or before the window's start: the count there.
    while (this.samples.length > 2 && this.samples[1]!.time <= time - RATE_WINDOW_MS) {
      this.samples.shift();
    }
  }

  perSecond(now: number): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.done <= first.done) return undefined;
    const start = Math.max(first.time, now - RATE_WINDOW_MS);
    // The window has moved past the first sample: the count at its start may be a later one's.
    let atStart = first.done;
    for (const sample of this.samples) {
      if (sample.time > start) break;
      atStart = sample.done;
    }
    if (now <= start || last.done <= atStart) return undefined;
    return ((last.done - atStart) * 1000) / (now - start);
  }
}

/** Shows {@link formatProgress} as lookups are answered (or another text of the same state). */
export interface ProgressLine {
  /**
   * Shows the new state (at most every {@link REDRAW_INTERVAL_MS} on a terminal, {@link LOG_INTERVAL_MS}
   * otherwise); `unsent`: of `done`, places given their reason without being sent; `retry`: the
   * run pauses before sending `places` again at `at` (on `now`'s clock).
   */
  update(
    done: number,
    total: number,
    more?: { unsent?: number; retry?: { places: number; at: number } | undefined },
  ): void;
  /**
   * Shows the last state and ends the line, so what follows starts on a line of its own.
   * `stopped`: the run stopped looking up before the end (Ctrl-C, Google out of reach), so the last
   * state gives no rate or time left, which would be the rate of answers never asked for.
   */
  finish(options?: { stopped?: boolean }): void;
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
 * in `\n`): the first state, then at most one every {@link LOG_INTERVAL_MS}, and the last. Between
 * answers it looks again on a timer (`every`: each {@link TICK_INTERVAL_MS} on a terminal, each
 * {@link LOG_INTERVAL_MS} otherwise) and shows the text if it changed: after a stall the rate goes,
 * rather than an estimate standing still.
 */
export function createProgressLine(
  write: (text: string) => void,
  now: () => number = Date.now,
  {
    terminal = true,
    format = formatProgress,
    every = repeat,
    columns = () => undefined,
  }: {
    terminal?: boolean;
    /**
     * The terminal's width: a line as wide or wider wraps, and `\r` then goes back only to its
     * last row, so each redraw would leave a copy above; it is cut to fit instead.
     */
    columns?: () => number | undefined;
    format?: (state: ProgressState) => string;
    /** Calls `tick` every `ms` until the returned function is called. */
    every?: (tick: () => void, ms: number) => () => void;
  } = {},
): ProgressLine {
  const rate = new RecentRate();
  let lastShown = Number.NEGATIVE_INFINITY;
  let shownText: string | undefined;
  let state:
    | { done: number; total: number; unsent: number; retryAt?: { places: number; at: number } }
    | undefined;
  let stopTicking: (() => void) | undefined;
  let stopped = false;
  // The rate counts places answered, not those given their reason unsent once the run stopped.
  const text = () => {
    const { retryAt, ...counts } = state!;
    const time = now();
    return format({
      ...counts,
      perSecond: stopped ? undefined : rate.perSecond(time),
      ...(retryAt && !stopped
        ? { retry: { places: retryAt.places, inMs: Math.max(0, retryAt.at - time) } }
        : {}),
    });
  };
  const show = () => {
    if (!state) return;
    shownText = text();
    write(terminal ? `\r${fitted(shownText, columns())}\u001b[K` : `${shownText}\n`);
  };
  const interval = terminal ? REDRAW_INTERVAL_MS : LOG_INTERVAL_MS;
  const tick = () => {
    if (!state || now() - lastShown < interval || text() === shownText) return;
    lastShown = now();
    show();
  };
  return {
    update(done, total, { unsent = 0, retry } = {}) {
      const time = now();
      rate.add(time, done - unsent);
      state = { done, total, unsent, ...(retry ? { retryAt: retry } : {}) };
      stopTicking ??= every(tick, terminal ? TICK_INTERVAL_MS : LOG_INTERVAL_MS);
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
    finish(options) {
      if (!state) return;
      stopped = options?.stopped === true;
      if (terminal) {
        show();
        write('\n');
      } else if (text() !== shownText) {
        show();
      }
      state = undefined;
      stopTicking?.();
      stopTicking = undefined;
    },
  };
}

/** `text` cut to fit a terminal `columns` wide (one column short: a full row wraps on some). */
export function fitted(text: string, columns: number | undefined): string {
  if (!columns || columns < 2) return text;
  const characters = [...text];
  return characters.length < columns ? text : `${characters.slice(0, columns - 2).join('')}…`;
}

/** `tick` every `ms` on a timer that never keeps the process alive. */
function repeat(tick: () => void, ms: number): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
