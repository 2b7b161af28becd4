/**
 * Paces what the processing card shows, per product.md "Pace": each stage is seen for at least
 * the seed's 300 ms and complete comes 500 ms after the last stage — once per run, never per file
 * or per place, so a run waits at most about 1.4 s more than the work itself. Reports of a stage
 * already shown pass straight through; a stage seen for the first time waits its turn.
 */
import type { ConversionProgress, ConversionStage } from '../worker/types';

/** The seed's pause between stages. */
export const STAGE_PAUSE_MS = 300;

/** The seed's pause before complete. */
export const BEFORE_COMPLETE_MS = 500;

export class StagePacer {
  private readonly shown = new Set<ConversionStage>(['validating']);
  private readonly queue: ConversionStage[] = [];
  private latest: ConversionProgress | null = null;
  private latestEmitted = true;
  /** The percent the page was last given. */
  private shownPercent = 0;
  private lastNewStageAt = Date.now();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private drained: (() => void) | null = null;
  private finished = false;

  /** `emit` receives what the page should show now; the run's first stage, validating, is shown. */
  constructor(private readonly emit: (progress: ConversionProgress) => void) {}

  /** A report from the worker; ignored once the work is done (a late report must not show again). */
  report(progress: ConversionProgress): void {
    if (this.finished) return;
    this.latest = progress;
    this.latestEmitted = false;
    if (!this.shown.has(progress.stage) && !this.queue.includes(progress.stage)) {
      this.queue.push(progress.stage);
    }
    if (this.timer === null) this.flush();
  }

  /**
   * The work is done: shows "preparing" (after its pause) and resolves when the pause before
   * complete has passed.
   */
  async finish(): Promise<void> {
    this.finished = true;
    if (!this.shown.has('preparing')) {
      const base = this.latest ?? {
        stage: 'preparing' as const,
        fileIndex: 0,
        fileCount: 0,
        fileName: '',
        percent: 100,
      };
      this.latest = { ...base, stage: 'preparing', percent: 100, currentItem: undefined };
      this.latestEmitted = false;
      if (!this.queue.includes('preparing')) this.queue.push('preparing');
      if (this.timer === null) this.flush();
    }
    if (this.timer !== null) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
      });
    }
    await new Promise((resolve) => setTimeout(resolve, BEFORE_COMPLETE_MS));
  }

  /** Stops any pending display (the run failed). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }

  private show(progress: ConversionProgress): void {
    this.shownPercent = progress.percent;
    this.emit(progress);
  }

  /**
   * A stage the work has already passed, shown in its turn: the bar moves its share of the way from
   * what it showed to where the work is (each stage still to show, the latest's included, taking an
   * equal step), and the current item of a later stage is not shown under it.
   */
  private shownLate(stage: ConversionStage, latest: ConversionProgress): ConversionProgress {
    const steps = this.queue.length + 1;
    const from = Math.min(this.shownPercent, latest.percent);
    const percent = from + (latest.percent - from) / steps;
    return { ...latest, stage, percent, currentItem: undefined };
  }

  private flush(): void {
    this.timer = null;
    const latest = this.latest;
    if (!latest) return;
    while (this.queue.length > 0) {
      const wait = this.lastNewStageAt + STAGE_PAUSE_MS - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => this.flush(), wait);
        return;
      }
      const stage = this.queue.shift() as ConversionStage;
      this.shown.add(stage);
      this.lastNewStageAt = Date.now();
      this.show(stage === latest.stage ? latest : this.shownLate(stage, latest));
      this.latestEmitted = stage === latest.stage;
    }
    if (!this.latestEmitted) {
      this.latestEmitted = true;
      this.show(latest);
    }
    const drained = this.drained;
    this.drained = null;
    drained?.();
  }
}
