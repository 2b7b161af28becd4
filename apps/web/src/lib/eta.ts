/**
 * "About 30 s left" for lookups: the rate is measured from the first answered lookup (the time
 * before it is the first request's latency, not the pace), and no estimate is given until it has
 * run a few seconds, so the first numbers do not jump about.
 */

/** No estimate before the lookups have run this long. */
export const ETA_WARMUP_MS = 3_000;

/**
 * With no new answer for this long (a request the server holds, a connection gone), the estimate
 * is no longer shown: standing still, it would promise an end the stall does not keep. It comes
 * back with the next answer.
 */
export const ETA_STALE_MS = 15_000;

export interface LookupEta {
  /** A new count at `now` (ms); returns the seconds left, or null while there is no fair estimate. */
  update(done: number, total: number, now: number): number | null;
}

export function createLookupEta(): LookupEta {
  let start: { done: number; at: number } | null = null;
  return {
    update(done, total, now) {
      if (done >= total) return 0;
      if (done <= 0) return null;
      if (!start) {
        start = { done, at: now };
        return null;
      }
      const elapsed = now - start.at;
      const answered = done - start.done;
      if (elapsed < ETA_WARMUP_MS || answered <= 0) return null;
      return Math.ceil(((total - done) * elapsed) / answered / 1000);
    },
  };
}

/** Whether the lookups' answers stopped coming (see {@link ETA_STALE_MS}). */
export interface StallWatch {
  /** A report of `done` answered; true once no new answer came for the watch's time. */
  report(done: number): boolean;
  /** No more reports: the pending timer goes. */
  stop(): void;
}

/**
 * Watches reports of lookups answered: `onStall` is called once `ms` pass without a new count (a
 * report of the same count, a retry's countdown, does not reset the wait), and `report` answers
 * true from then until the count moves again.
 */
export function createStallWatch(onStall: () => void, ms: number = ETA_STALE_MS): StallWatch {
  let done: number | undefined;
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    report(count) {
      if (count !== done) {
        done = count;
        stalled = false;
        clearTimeout(timer);
        timer = setTimeout(() => {
          stalled = true;
          onStall();
        }, ms);
      }
      return stalled;
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** "about 30 s left", "about 2 min left", "less than 10 s left". */
export function formatSecondsLeft(seconds: number): string {
  if (seconds < 10) return 'less than 10 s left';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} h${rest ? ` ${rest} min` : ''} left`;
}
