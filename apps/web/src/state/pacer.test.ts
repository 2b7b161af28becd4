import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversionProgress, ConversionStage } from '../worker/types';
import { BEFORE_COMPLETE_MS, STAGE_PAUSE_MS, StagePacer } from './pacer';

function report(stage: ConversionStage, percent: number, currentItem?: string): ConversionProgress {
  return { stage, percent, fileIndex: 0, fileCount: 1, fileName: 'a.csv', currentItem };
}

describe('StagePacer', () => {
  let shown: { at: number; stage: ConversionStage; percent: number }[];
  let start: number;
  let pacer: StagePacer;

  beforeEach(() => {
    vi.useFakeTimers();
    start = Date.now();
    shown = [];
    pacer = new StagePacer((p) =>
      shown.push({ at: Date.now() - start, stage: p.stage, percent: p.percent }),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes reports of the stage on screen straight through', () => {
    pacer.report(report('validating', 5));
    pacer.report(report('validating', 10));
    expect(shown).toEqual([
      { at: 0, stage: 'validating', percent: 5 },
      { at: 0, stage: 'validating', percent: 10 },
    ]);
  });

  it('shows each new stage for at least 300 ms, even when the worker is faster', async () => {
    pacer.report(report('extracting', 25, 'https://a'));
    pacer.report(report('converting', 50));
    pacer.report(report('converting', 75));
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(STAGE_PAUSE_MS);
    expect(shown).toEqual([{ at: 300, stage: 'extracting', percent: 37.5 }]);
    await vi.advanceTimersByTimeAsync(STAGE_PAUSE_MS);
    expect(shown.at(-1)).toEqual({ at: 600, stage: 'converting', percent: 75 });
  });

  it('moves the bar a step per stage shown late, without a later stage’s current item under it', async () => {
    const seen: ConversionProgress[] = [];
    const paced = new StagePacer((p) => seen.push(p));
    paced.report(report('validating', 10));
    paced.report(report('extracting', 20, 'https://a'));
    paced.report(report('converting', 90, 'Café'));
    void paced.finish();
    await vi.advanceTimersByTimeAsync(3 * STAGE_PAUSE_MS + BEFORE_COMPLETE_MS);
    // Extracting, converting and preparing share the way from 10% to the finished 100%.
    expect(seen.map((p) => [p.stage, p.percent, p.currentItem])).toEqual([
      ['validating', 10, undefined],
      ['extracting', 40, undefined],
      ['converting', 70, undefined],
      ['preparing', 100, undefined],
    ]);
  });

  it('does not wait when the stage came late anyway', async () => {
    await vi.advanceTimersByTimeAsync(1000);
    pacer.report(report('extracting', 25));
    expect(shown).toEqual([{ at: 1000, stage: 'extracting', percent: 25 }]);
  });

  it('lets a stage seen before come back at once (next file)', async () => {
    await vi.advanceTimersByTimeAsync(400);
    pacer.report(report('extracting', 25));
    await vi.advanceTimersByTimeAsync(400);
    pacer.report(report('converting', 40));
    pacer.report(report('validating', 50));
    pacer.report(report('extracting', 60));
    expect(shown.map((s) => s.stage)).toEqual([
      'extracting',
      'converting',
      'validating',
      'extracting',
    ]);
  });

  it('adds at most 3 × 300 ms + 500 ms to a run that finishes at once', async () => {
    pacer.report(report('extracting', 30));
    pacer.report(report('converting', 90));
    let done = false;
    void pacer.finish().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(3 * STAGE_PAUSE_MS + BEFORE_COMPLETE_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(shown.map((s) => [s.stage, s.at])).toEqual([
      ['extracting', 300],
      ['converting', 600],
      ['preparing', 900],
    ]);
    expect(shown.at(-1)?.percent).toBe(100);
  });

  it('waits only the 500 ms before complete once the stages have had their time', async () => {
    await vi.advanceTimersByTimeAsync(5000);
    pacer.report(report('preparing', 100));
    let done = false;
    void pacer.finish().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(BEFORE_COMPLETE_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('ignores a report that arrives after the work is done (progress crosses the result on its port)', async () => {
    await vi.advanceTimersByTimeAsync(5000);
    pacer.report(report('converting', 90));
    const done = pacer.finish();
    pacer.report(report('converting', 94));
    await vi.advanceTimersByTimeAsync(STAGE_PAUSE_MS + BEFORE_COMPLETE_MS);
    await done;
    expect(shown.map((s) => [s.stage, s.percent])).toEqual([
      ['converting', 90],
      ['preparing', 100],
    ]);
  });

  it('shows nothing more once cancelled', async () => {
    pacer.report(report('extracting', 30));
    pacer.cancel();
    await vi.advanceTimersByTimeAsync(2000);
    expect(shown).toEqual([]);
  });
});
