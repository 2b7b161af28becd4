/**
 * Records what the processing card shows while a conversion runs: each change of the current
 * step and of the progress value, observed in the page itself so no short-lived state is missed.
 */
import type { Page } from '@playwright/test';

/** What the processing card showed, in order: step labels (deduplicated) and progress values. */
export interface ProcessingRecord {
  steps: string[];
  percents: number[];
  currentItems: string[];
}

declare global {
  interface Window {
    __processing?: ProcessingRecord;
  }
}

/** Starts watching the page; call before the conversion starts. */
export async function watchProcessing(page: Page): Promise<void> {
  await page.evaluate(() => {
    const record: ProcessingRecord = { steps: [], percents: [], currentItems: [] };
    window.__processing = record;
    const look = () => {
      const step = document.querySelector('[aria-current="step"] .step-label')?.textContent;
      if (step && record.steps.at(-1) !== step) record.steps.push(step);
      const value = document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
      if (value !== null && value !== undefined && record.percents.at(-1) !== Number(value)) {
        record.percents.push(Number(value));
      }
      const item = document.querySelector('.current-item')?.textContent;
      if (item && record.currentItems.at(-1) !== item) record.currentItems.push(item);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

/** What was seen since {@link watchProcessing}. */
export async function processingSeen(page: Page): Promise<ProcessingRecord> {
  return page.evaluate(() => window.__processing ?? { steps: [], percents: [], currentItems: [] });
}
