/**
 * The lookup progress line: `Looking up places: 212 / 588 · 14.1 a second · about 27 s left`,
 * rewritten in place with `\r` on a terminal's stderr. Nothing is drawn when stderr is not a
 * terminal (pipes, logs, tests), so the summary on stdout stays the only output there.
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

/** A rate with about three significant digits: `0.42`, `14.1`, `212`. */
function formatRate(perSecond: number): string {
  if (perSecond >= 100) return String(Math.round(perSecond));
  if (perSecond >= 10) return perSecond.toFixed(1);
  return perSecond.toFixed(2);
}

/** The state of the lookups at one moment. */
export interface ProgressState {
  /** Lookups answered so far (from the cache file or from Google). */
  done: number;
  /** Lookups this run makes, as far as known now (links sent again after a refusal add to it). */
  total: number;
  /** Time since the first lookup was sent. */
  elapsedMs: number;
}

/**
 * The progress line's text. The rate is lookups answered per second since the first was sent;
 * the time left is what is left at that rate. Both are left out until there is something to
 * measure, and the time left once everything is answered.
 */
export function formatProgress({ done, total, elapsedMs }: ProgressState): string {
  const shown = Math.min(done, total);
  const parts = [`Looking up places: ${shown} / ${total}`];
  if (shown > 0 && elapsedMs > 0) {
    const perSecond = (shown * 1000) / elapsedMs;
    parts.push(`${formatRate(perSecond)} a second`);
    if (shown < total)
      parts.push(`about ${formatDuration(((total - shown) / perSecond) * 1000)} left`);
  }
  return parts.join(' · ');
}

/** Minimum time between two redraws of the line. */
export const REDRAW_INTERVAL_MS = 100;

/** Draws {@link formatProgress} on one terminal line. */
export interface ProgressLine {
  /** Redraws the line (at most every {@link REDRAW_INTERVAL_MS}, always when everything is done). */
  update(done: number, total: number): void;
  /** Draws the last state and ends the line, so what follows starts on a line of its own. */
  finish(): void;
}

/**
 * A progress line written through `write` (a TTY's stderr). `\r` goes back to the line's start and
 * `ESC[K` clears what a longer earlier text left behind. The clock starts at the first update.
 */
export function createProgressLine(
  write: (text: string) => void,
  now: () => number = Date.now,
): ProgressLine {
  let started: number | undefined;
  let lastDrawn = Number.NEGATIVE_INFINITY;
  let state: { done: number; total: number } | undefined;
  const draw = () => {
    if (!state || started === undefined) return;
    write(`\r${formatProgress({ ...state, elapsedMs: now() - started })}\u001b[K`);
  };
  return {
    update(done, total) {
      const time = now();
      started ??= time;
      state = { done, total };
      if (done < total && time - lastDrawn < REDRAW_INTERVAL_MS) return;
      lastDrawn = time;
      draw();
    },
    finish() {
      if (!state) return;
      draw();
      write('\n');
      state = undefined;
    },
  };
}
