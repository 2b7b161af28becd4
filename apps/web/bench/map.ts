/**
 * The results' map in the browser benchmark: when it is drawn after the results appear, the long
 * tasks on the page while it loads and draws, and what choosing each list in its selector costs
 * (every list is drawn again). The page notes each change of the map figure's `data-state`
 * (`drawing` → `drawn`) on its own clock, so nothing depends on when the benchmark looks.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type { LongTask, PageRecord } from './instrument';

/** The map as first drawn, kept for a person to look at (git-ignored). */
export const SCREENSHOT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test-results',
  'bench-map.png',
);

/** A change of the map figure's state, on the page clock. */
interface MapTransition {
  state: string;
  at: number;
}

declare global {
  interface Window {
    __benchMap: MapTransition[];
  }
}

/** One list drawn after it was chosen: how long it took and the longest task meanwhile. */
export interface MapSwitch {
  label: string;
  points: string;
  ms: number;
  longTasks: LongTask[];
}

/** What the benchmark prints about the map. */
export interface MapFigures {
  /** The map's text alternative when first drawn, e.g. "Map of 100,000 places in 4 lists". */
  label: string;
  /** Results shown → every point drawn (ms). */
  resultsToDrawn: number;
  /** Long tasks from the results being shown until the map is drawn. */
  longTasks: LongTask[];
  /** Points received → every point drawn (ms): the drawing alone. */
  drawing: number;
  /** Long tasks while the map draws (points received → drawn). */
  drawingTasks: LongTask[];
  switches: MapSwitch[];
}

/** Installs the observer of the map figure's state in every document the page loads. */
export async function instrumentMap(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const transitions: MapTransition[] = [];
    window.__benchMap = transitions;
    let last: string | null = null;
    new MutationObserver(() => {
      const state = document.querySelector('figure[data-state]')?.getAttribute('data-state');
      if (state && state !== last) transitions.push({ state, at: performance.now() });
      last = state ?? null;
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });
}

async function transitions(page: Page): Promise<MapTransition[]> {
  return page.evaluate(() => window.__benchMap);
}

async function longTasks(page: Page): Promise<LongTask[]> {
  return page.evaluate(() => (window.__bench as PageRecord).longTasks);
}

/** Waits until the map has been drawn `times` times in all. */
async function drawnTimes(page: Page, times: number): Promise<void> {
  await page.waitForFunction(
    (count) => window.__benchMap.filter((change) => change.state === 'drawn').length >= count,
    times,
    { timeout: 300_000 },
  );
}

function within(tasks: readonly LongTask[], from: number, to: number): LongTask[] {
  return tasks.filter((task) => task.start + task.duration >= from && task.start <= to);
}

/**
 * Waits for the map after the results (shown at `resultsShown`, page clock), then chooses each
 * list in turn, and "All lists" again, waiting for each to be drawn.
 */
export async function measureMap(page: Page, resultsShown: number): Promise<MapFigures> {
  await drawnTimes(page, 1);
  const changes = await transitions(page);
  const first = changes.find((change) => change.state === 'drawn')!;
  const started = changes.find((change) => change.state === 'drawing') ?? first;
  const tasks = await longTasks(page);
  const canvas = page.locator('figure[data-state] canvas[role="img"]');
  const label = (await canvas.getAttribute('aria-label')) ?? '';
  const figures: MapFigures = {
    label,
    resultsToDrawn: first.at - resultsShown,
    longTasks: within(tasks, resultsShown, first.at),
    drawing: first.at - started.at,
    drawingTasks: within(tasks, started.at, first.at),
    switches: [],
  };
  await page.locator('figure[data-state]').screenshot({ path: SCREENSHOT });
  const select = page.getByRole('combobox', { name: 'Show' });
  if ((await select.count()) === 0) return figures;
  const options = await select.locator('option').allTextContents();
  let drawnSoFar = 1;
  for (const option of [...options.slice(1), options[0]!]) {
    const from = await page.evaluate(() => performance.now());
    await select.selectOption({ label: option });
    drawnSoFar += 1;
    await drawnTimes(page, drawnSoFar);
    const drawn = (await transitions(page)).filter((change) => change.state === 'drawn');
    const at = drawn[drawnSoFar - 1]!.at;
    figures.switches.push({
      label: option,
      points: ((await canvas.getAttribute('aria-label')) ?? '').replace(/^Map of /, ''),
      ms: at - from,
      longTasks: within(await longTasks(page), from, at),
    });
  }
  return figures;
}

function describe(tasks: readonly LongTask[]): string {
  if (tasks.length === 0) return 'none over 50 ms';
  const longest = Math.max(...tasks.map((task) => task.duration));
  return `${tasks.length} over 50 ms, longest ${longest.toFixed(0)} ms`;
}

/** Prints the map's figures under the benchmark's others. */
export function printMap(figures: MapFigures): void {
  console.log(`  map                            ${figures.label} (picture: ${SCREENSHOT})`);
  console.log(
    `    results shown → map drawn    ${(figures.resultsToDrawn / 1000).toFixed(2)} s (chunk, points from the worker, ${figures.label.replace(/^Map of /, '')} projected and drawn in slices)`,
  );
  console.log(
    `    long tasks until drawn       ${describe(figures.longTasks)} (with the results' own)`,
  );
  console.log(
    `    drawing alone                ${(figures.drawing / 1000).toFixed(2)} s (points received → drawn); long tasks: ${describe(figures.drawingTasks)}`,
  );
  for (const change of figures.switches) {
    console.log(
      `    choose ${`"${change.label}"`.padEnd(22)}${(change.ms / 1000).toFixed(2)} s to draw ${change.points}; long tasks: ${describe(change.longTasks)}`,
    );
  }
}
