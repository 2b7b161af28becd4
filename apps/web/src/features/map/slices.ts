/**
 * Work over many items done a slice at a time, giving the page its thread back between slices, so
 * 100,000 points are measured, projected and drawn without a long task (over 50 ms). A slice ends
 * after {@link SLICE_SIZE} items or once it has used its time budget, whichever comes first: the
 * first slices run before the browser has optimised the code, and a busy machine is slower.
 */

/** Items per slice at most. */
export const SLICE_SIZE = 5_000;

/** Main-thread time a slice may use before it yields (ms), well under a 50 ms long task. */
export const SLICE_BUDGET_MS = 12;

/** Items done between two looks at the clock. */
const STEP = 250;

/** Waits for the next frame, so the browser can handle input and paint. */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => resolve());
    else setTimeout(resolve, 0);
  });
}

/** How {@link inSlices} slices and waits; tests pass their own clock and pause. */
export interface SliceOptions {
  /** Items per slice at most; {@link SLICE_SIZE} by default. */
  size?: number;
  /** Time a slice may use (ms); {@link SLICE_BUDGET_MS} by default. */
  budgetMs?: number;
  /** Items per call of `work`, between two looks at the clock. */
  step?: number;
  /** What is awaited between two slices; {@link nextFrame} by default. */
  pause?: () => Promise<void>;
  /** Checked before each slice: true stops the work (a newer drawing replaced it). */
  cancelled?: () => boolean;
  /** The clock, in ms; `performance.now` by default. */
  now?: () => number;
}

/**
 * Runs `work(start, end)` over `count` items, {@link SliceOptions.step} items a call, and ends a
 * slice with `endSlice` (e.g. showing what was drawn) once it holds `size` items or has used
 * `budgetMs`; then awaits `pause` before the next slice (not before the first, nor after the
 * last). Stops early when `cancelled()` turns true; resolves whether every item was done.
 */
export async function inSlices(
  count: number,
  work: (start: number, end: number) => void,
  {
    size = SLICE_SIZE,
    budgetMs = SLICE_BUDGET_MS,
    step = STEP,
    pause = nextFrame,
    cancelled = () => false,
    now = () => performance.now(),
  }: SliceOptions = {},
  endSlice: () => void = () => undefined,
): Promise<boolean> {
  if (!(size >= 1) || !(step >= 1)) throw new RangeError('slice size and step must be at least 1');
  let done = 0;
  while (done < count) {
    if (done > 0) await pause();
    if (cancelled()) return false;
    const began = now();
    const limit = Math.min(count, done + size);
    while (done < limit) {
      const end = Math.min(limit, done + step);
      work(done, end);
      done = end;
      if (now() - began >= budgetMs) break;
    }
    endSlice();
  }
  return !cancelled();
}
