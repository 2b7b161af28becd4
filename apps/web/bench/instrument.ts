/**
 * What the benchmark installs in the page before any of its scripts run: a PerformanceObserver
 * for long tasks (buffered, so none is missed) and a MutationObserver that notes, on the page's
 * own clock, when the selection dialog and the results card first appear.
 */
import type { Page } from 'playwright-core';

/** One long task: when it started and how long it took (ms, page clock). */
export interface LongTask {
  start: number;
  duration: number;
}

/** What the page recorded. Times are `performance.now()` values. */
export interface PageRecord {
  longTasks: LongTask[];
  marks: Partial<Record<'chosen' | 'dialogShown' | 'authorized' | 'resultsShown', number>>;
  /** Distinct texts the processing card showed for its lookups ("Looking up 212 of 588 places…"). */
  lookupUpdates: string[];
  /** Distinct percents the progress bar showed. */
  percents: number[];
}

declare global {
  interface Window {
    __bench: PageRecord;
  }
}

/** Installs the observers in every document the page loads. */
export async function instrument(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record: PageRecord = { longTasks: [], marks: {}, lookupUpdates: [], percents: [] };
    window.__bench = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        record.longTasks.push({ start: entry.startTime, duration: entry.duration });
      }
    }).observe({ type: 'longtask', buffered: true });
    const watcher = new MutationObserver(() => {
      const lookup = document.querySelector('.lookup-count')?.textContent;
      if (lookup && record.lookupUpdates.at(-1) !== lookup) record.lookupUpdates.push(lookup);
      const bar = document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
      if (bar && record.percents.at(-1) !== Number(bar)) record.percents.push(Number(bar));
      if (record.marks.dialogShown === undefined && document.querySelector('[role="dialog"]')) {
        record.marks.dialogShown = performance.now();
      }
      if (record.marks.resultsShown === undefined && document.getElementById('results-title')) {
        record.marks.resultsShown = performance.now();
        watcher.disconnect();
      }
    });
    watcher.observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

/** Notes a moment on the page's clock (e.g. just before the file is chosen). */
export async function mark(page: Page, name: keyof PageRecord['marks']): Promise<void> {
  await page.evaluate((key) => {
    window.__bench.marks[key] = performance.now();
  }, name);
}

/** Reads what the page recorded. */
export async function pageRecord(page: Page): Promise<PageRecord> {
  return page.evaluate(() => window.__bench);
}
