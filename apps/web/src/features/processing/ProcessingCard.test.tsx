import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AppState, ProcessingStage, Progress as ProgressState } from '../../state/types';
import { fakeConverter, mount, PROGRESS, STATES } from '../../test/fixtures';
import { lineMatching, linesOf } from '../../test/reads';
import { ANNOUNCE_SETTLE_MS, listLine, ProcessingCard } from './ProcessingCard';

const STEPS = [
  'Validating CSV file structure',
  'Extracting coordinates from URLs',
  'Converting to KML format',
  'Preparing download',
];

/** The name {@link PROGRESS}'s current item (a place link) carries. */
const CURRENT_NAME = 'Somewhere';

describe('ProcessingCard', () => {
  it.each(['empty', 'loaded', 'paying', 'complete'] as const)('is hidden when %s', (status) => {
    const { container } = mount(<ProcessingCard />, { state: STATES[status] });
    expect(container.textContent).toBe('');
  });

  it.each([
    ['validating', 0],
    ['extracting', 1],
    ['converting', 2],
    ['preparing', 3],
  ] as const)('shows the four steps with %s current', (status, index) => {
    mount(<ProcessingCard />, { state: STATES[status] });
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.step-label')?.textContent)).toEqual(STEPS);
    expect(items.findIndex((item) => item.getAttribute('aria-current') === 'step')).toBe(index);
    // A step done says so in words too (its check mark is hidden from screen readers).
    expect(items.map((item) => item.textContent?.includes('(done)'))).toEqual(
      STEPS.map((_, step) => step < index),
    );
  });

  it('tells a screen reader the stage once it holds, of which list, not each stage of a burst', () => {
    vi.useFakeTimers();
    try {
      const two = { ...PROGRESS, fileIndex: 0, fileCount: 2 };
      const at = (status: ProcessingStage, fileIndex: number): AppState =>
        ({
          ...STATES[status],
          progress: { ...two, stage: status, fileIndex },
        }) as unknown as AppState;
      const { store } = mount(<ProcessingCard />, { state: at('converting', 0) });
      const region = () => screen.getByRole('status').textContent;
      expect(region()).toBe('List 1 of 2: Converting to KML format');
      // The next list passes through its stages within milliseconds.
      for (const [status, index] of [
        ['validating', 1],
        ['extracting', 1],
        ['converting', 1],
        ['extracting', 1],
      ] as const) {
        act(() => store.setState({ state: at(status, index) }));
        act(() => vi.advanceTimersByTime(1));
        expect(region()).toBe('List 1 of 2: Converting to KML format');
      }
      act(() => vi.advanceTimersByTime(ANNOUNCE_SETTLE_MS));
      expect(region()).toBe('List 2 of 2: Extracting coordinates from URLs');
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the current place's name (not its link) under step 2 while extracting, and the progress bar", () => {
    mount(<ProcessingCard />, { state: STATES.extracting });
    expect(PROGRESS.currentItem).toBe('https://www.google.com/maps/place/Somewhere');
    expect(screen.queryByText(PROGRESS.currentItem)).toBeNull();
    const item = screen.getByText(CURRENT_NAME);
    expect(item.closest('li')?.textContent).toContain('Extracting coordinates from URLs');
    const bar = screen.getByRole('progressbar', { name: 'Conversion progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(lineMatching(/%$/)).toBe('40%');
    expect(lineMatching(/^List /)).toBe('List 1 of 1: Want to go');
  });

  it('names the list without its extension, and says all lists while their places are looked up together', () => {
    const at = (progress: Partial<ProgressState>) => listLine({ ...PROGRESS, ...progress });
    expect(at({ fileIndex: 5, fileCount: 6, fileName: 'Saved Places.json' })).toBe(
      'List 6 of 6: Saved Places',
    );
    expect(at({ fileCount: 6, lookups: { done: 0, total: 100 } })).toBe(
      'All 6 lists: their places are looked up together',
    );
    // Once the lookups are answered, and for one list, the list at hand.
    expect(at({ fileIndex: 1, fileCount: 6, lookups: { done: 100, total: 100 } })).toBe(
      'List 2 of 6: Want to go',
    );
    expect(at({ fileCount: 1, lookups: { done: 3, total: 100 } })).toBe('List 1 of 1: Want to go');
  });

  it('does not show a stale item once past extracting', () => {
    mount(<ProcessingCard />, { state: STATES.converting });
    expect(screen.queryByText(CURRENT_NAME)).toBeNull();
  });

  it('rounds the percentage it shows', () => {
    const state = {
      ...STATES.converting,
      progress: { ...PROGRESS, percent: 66.666 },
    } as AppState;
    mount(<ProcessingCard />, { state });
    expect(lineMatching(/%$/)).toBe('67%');
    expect(
      screen
        .getByRole('progressbar', { name: 'Conversion progress' })
        .getAttribute('aria-valuenow'),
    ).toBe('67');
  });

  it('counts the lookups under the extracting step, with the time left once known', () => {
    const extracting = STATES.extracting as AppState & { status: 'extracting' };
    const at = (secondsLeft: number | null): AppState => ({
      ...extracting,
      progress: { ...PROGRESS, lookups: { done: 212, total: 1_588 }, secondsLeft },
    });
    const { unmount } = mount(<ProcessingCard />, { state: at(null) });
    const step = () => linesOf(screen.getByRole('listitem', { current: 'step' }));
    expect(step()).toEqual([
      '2',
      'Extracting coordinates from URLs',
      'Looking up 212 of 1,588 places',
      CURRENT_NAME,
    ]);
    unmount();
    mount(<ProcessingCard />, { state: at(31) });
    expect(step()).toEqual([
      '2',
      'Extracting coordinates from URLs',
      'Looking up 212 of 1,588 places · about 30 s left',
      CURRENT_NAME,
    ]);
  });

  it('while the run waits to send again the places that got no answer, says so and counts down', () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const extracting = STATES.extracting as AppState & { status: 'extracting' };
      mount(<ProcessingCard />, {
        state: {
          ...extracting,
          progress: {
            ...PROGRESS,
            lookups: { done: 212, total: 1_588, retry: { places: 1_376, at: 1_018_000 } },
            secondsLeft: 31,
          },
        },
      });
      const line = () => linesOf(screen.getByRole('listitem', { current: 'step' }))[2];
      expect(line()).toBe(
        'Looking up 212 of 1,588 places · 1,376 could not be looked up yet: trying again in 18 s',
      );
      act(() => vi.advanceTimersByTime(1_000));
      expect(line()).toMatch(/trying again in 17 s$/);
      act(() => vi.advanceTimersByTime(30_000));
      // Past the time (the round is starting): never "in 0 s" or a negative count.
      expect(line()).toMatch(/trying again in 1 s$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says nothing about lookups when none are needed', () => {
    mount(<ProcessingCard />, { state: STATES.extracting });
    expect(screen.queryByText(/Looking up/)).toBeNull();
  });
});

describe('Cancel during processing', () => {
  it.each(['validating', 'extracting', 'converting'] as const)(
    'is offered while %s, and stops the run',
    async (status) => {
      const converter = fakeConverter();
      const { store } = mount(<ProcessingCard />, { state: STATES[status], converter });
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(converter.calls).toEqual(['cancel']));
      expect(store.getState().state).toMatchObject({ status, cancelling: true });
      expect(screen.getByRole('button', { name: 'Stopping…' }).getAttribute('aria-disabled')).toBe(
        'true',
      );
    },
  );

  it('keeps the focus on the button while it stops, and asks the worker only once', async () => {
    const converter = fakeConverter();
    mount(<ProcessingCard />, { state: STATES.extracting, converter });
    const button = screen.getByRole('button', { name: 'Cancel' });
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(converter.calls).toEqual(['cancel']));
    const stopping = screen.getByRole<HTMLButtonElement>('button', { name: 'Stopping…' });
    // Only aria-disabled: a disabled button loses the focus (in browsers; jsdom keeps it).
    expect([stopping, stopping.disabled]).toEqual([button, false]);
    expect(document.activeElement).toBe(stopping);
    fireEvent.click(stopping);
    await Promise.resolve();
    expect(converter.calls).toEqual(['cancel']);
  });

  it('gives the focus to the heading when it goes, once the files are handed over', () => {
    const { store } = mount(<ProcessingCard />, { state: STATES.extracting });
    const heading = screen.getByRole('heading', { level: 2 });
    screen.getByRole('button', { name: 'Cancel' }).focus();
    act(() =>
      store.getState().send({
        type: 'progressReported',
        progress: {
          stage: 'preparing',
          fileIndex: 0,
          fileCount: 1,
          fileName: 'Want to go.csv',
          percent: 95,
        },
      }),
    );
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(document.activeElement).toBe(heading);
  });

  it('says what it does', () => {
    mount(<ProcessingCard />, { state: STATES.extracting });
    // Found only with that name and description: the query is the assertion.
    screen.getByRole('button', {
      name: 'Cancel',
      description: 'Cancel stops the lookups and finishes the lists with what was found so far.',
    });
  });

  it('is not offered once the files are being handed over', () => {
    mount(<ProcessingCard />, { state: STATES.preparing });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});
