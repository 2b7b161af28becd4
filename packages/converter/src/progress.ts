/**
 * A run's progress, computed in one place: per list a share of 100 with the seed's 25/50/75 marks
 * (validating, extracting, converting), reading a list's links filling the first half of extracting
 * and the run's lookups the second, 100 at preparing. The bar never goes back, and reports are
 * throttled to {@link PROGRESS_INTERVAL_MS} except at the marks themselves.
 */
import type { ConversionProgress, ConversionStage } from './core/seams.js';

/** Progress reaches the page at most this often (product.md "Pace"), instead of the seed's 10 ms pause per link. */
export const PROGRESS_INTERVAL_MS = 50;
/** The clock is read once per this many places, so throttling costs nothing on big lists. */
export const PROGRESS_CHECK_EVERY = 64;

/** Per-list marks (the seed's 25/50/75), `within` moving extracting from 25 towards 50. */
function listMark(stage: ConversionStage, within: number): number {
  switch (stage) {
    case 'validating':
      return 25;
    case 'extracting':
      return 25 + Math.min(1, within) * 25;
    case 'converting':
      return 75;
    case 'preparing':
      return 100;
  }
}

/** What {@link RunProgress} needs: where reports go, and the clock they are throttled by. */
export interface ProgressSettings {
  onProgress?: ((progress: ConversionProgress) => void) | undefined;
  now?: (() => number) | undefined;
  progressIntervalMs?: number | undefined;
}

/** The progress of one run over its lists, named by file name. */
export class RunProgress {
  private last = Number.NEGATIVE_INFINITY;
  /** The highest percent reported: the bar never goes back (lists converted after the retry round). */
  private highest = 0;
  /** The list being read or waited for, which lookup reports name. */
  private current = 0;
  /** Places of this run with their final answer, of all the distinct places it needs looked up. */
  private lookups:
    | { done: number; total: number; unsent?: number; retry?: { places: number; at: number } }
    | undefined;

  constructor(
    private readonly settings: ProgressSettings,
    private readonly fileNames: readonly string[],
  ) {}

  /** List `index` is being validated (and is the one lookups are reported against from now on). */
  validating(index: number): void {
    this.current = index;
    this.report('validating', index, 0);
  }

  /** Place `done` of `total` of the current list has been read; `item` names it. Throttled. */
  reading(done: number, total: number, item?: string): void {
    this.report('extracting', this.current, done / total / 2, item, false);
  }

  /** The run needs `total` distinct places looked up; each is counted when its answer is final. */
  trackLookups(total: number): void {
    this.lookups = { done: 0, total };
  }

  /**
   * `count` more places have their final answer; `item` names one of them; `unsent`: they were
   * never sent (the run stopped sending). Throttled.
   */
  settled(count: number, item: string, unsent = false): void {
    if (!this.lookups) return;
    this.lookups.done += count;
    if (unsent) this.lookups.unsent = (this.lookups.unsent ?? 0) + count;
    this.report('extracting', this.current, this.lookupsWithin(), item, false);
  }

  /**
   * The run pauses before sending `places` again at `at` (a retry round); 0 places: the round
   * starts. Always reported, so the page says why nothing moves.
   */
  retrying(places: number, at: number): void {
    if (!this.lookups) return;
    if (places > 0) this.lookups.retry = { places, at };
    else delete this.lookups.retry;
    this.report('extracting', this.current, this.lookupsWithin());
  }

  /** How far the current list is while lookups run: the second half, by the run's lookups done. */
  private lookupsWithin(): number {
    return 0.5 + this.lookups!.done / this.lookups!.total / 2;
  }

  /** The current list's links have their answers for now (`within` 1; 0 when it has just started). */
  extracting(within: 0 | 1): void {
    this.report('extracting', this.current, within);
  }

  /** List `index` is being written. */
  converting(index: number): void {
    this.report('converting', index, 0);
  }

  /** Every list is written. */
  preparing(): void {
    this.report('preparing', this.fileNames.length, 0);
  }

  private report(
    stage: ConversionStage,
    fileIndex: number,
    within: number,
    currentItem?: string,
    force = true,
  ): void {
    const { onProgress, now = Date.now, progressIntervalMs = PROGRESS_INTERVAL_MS } = this.settings;
    if (!onProgress) return;
    const time = now();
    if (!force && time - this.last < progressIntervalMs) return;
    this.last = time;
    const fileCount = this.fileNames.length;
    const share = 100 / Math.max(1, fileCount);
    const percent =
      stage === 'preparing'
        ? 100
        : Math.min(100, fileIndex * share + (listMark(stage, within) / 100) * share);
    this.highest = Math.max(this.highest, percent);
    onProgress({
      stage,
      fileIndex: Math.min(fileIndex, fileCount - 1),
      fileCount,
      fileName: this.fileNames[Math.min(fileIndex, fileCount - 1)] ?? '',
      percent: this.highest,
      ...(currentItem ? { currentItem } : {}),
      ...(this.lookups && stage === 'extracting'
        ? {
            lookups: {
              ...this.lookups,
              ...(this.lookups.retry ? { retry: { ...this.lookups.retry } } : {}),
            },
          }
        : {}),
    });
  }
}
