import { describe, expect, it } from 'vitest';
import { inSlices } from './slices';

/** A pause that only notes itself. */
function logged(log: string[]) {
  return async () => {
    log.push('pause');
  };
}

describe('inSlices', () => {
  it('does every item in order, pausing between slices of at most `size`, never before the first or after the last', async () => {
    const log: string[] = [];
    const done = await inSlices(
      7,
      (start, end) => log.push(`${start}-${end}`),
      { size: 3, step: 2, pause: logged(log), budgetMs: Infinity },
      () => log.push('end'),
    );
    expect(done).toBe(true);
    expect(log).toEqual(['0-2', '2-3', 'end', 'pause', '3-5', '5-6', 'end', 'pause', '6-7', 'end']);
  });

  it('ends a slice early once it has used its time budget', async () => {
    const log: string[] = [];
    let clock = 0;
    await inSlices(
      10,
      (start, end) => {
        log.push(`${start}-${end}`);
        clock += 5; // Each call of the work takes 5 ms.
      },
      { size: 100, step: 2, budgetMs: 12, pause: logged(log), now: () => clock },
    );
    // 5 + 5 < 12, then 15 ≥ 12: three calls per slice.
    expect(log).toEqual(['0-2', '2-4', '4-6', 'pause', '6-8', '8-10']);
  });

  it('does nothing for no item', async () => {
    const log: string[] = [];
    expect(await inSlices(0, () => log.push('work'), { pause: logged(log) })).toBe(true);
    expect(log).toEqual([]);
  });

  it('stops when cancelled, and says so', async () => {
    const log: string[] = [];
    let cancelled = false;
    const done = await inSlices(9, (start) => log.push(String(start)), {
      size: 3,
      step: 3,
      budgetMs: Infinity,
      pause: async () => {
        cancelled = true;
      },
      cancelled: () => cancelled,
    });
    expect(done).toBe(false);
    expect(log).toEqual(['0']);
  });

  it('refuses a slice size or step under 1', async () => {
    await expect(inSlices(5, () => undefined, { size: 0 })).rejects.toThrow(RangeError);
    await expect(inSlices(5, () => undefined, { step: 0 })).rejects.toThrow(RangeError);
  });
});
