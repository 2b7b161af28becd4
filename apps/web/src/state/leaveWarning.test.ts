import { describe, expect, it, vi } from 'vitest';
import { RECEIPT, RESULT, STATES } from '../test/fixtures';
import {
  leaveWarningArmed,
  type LeaveTarget,
  warnBeforeLeaving,
  watchLeaveWarning,
} from './leaveWarning';
import { transition } from './machine';
import { createAppStore } from './store';
import type { AppEvent, AppState, FileResult, Status } from './types';

type Complete = Extract<AppState, { status: 'complete' }>;

const COMPLETE = STATES.complete as Complete;
/** The two files of the fixture's results: a KML and a failed-places CSV. */
const KML_URL = RESULT.files[0]!.url;
const CSV_URL = RESULT.failed!.url;

function run(state: AppState, ...events: AppEvent[]): AppState {
  return events.reduce(transition, state);
}

const downloaded = (url: string): AppEvent => ({ type: 'fileDownloaded', url });

/** Armed while authorizing, during the conversion and on results not yet downloaded; nowhere else. */
const ARMED_BY_STATUS: Record<Status, boolean> = {
  empty: false,
  inspecting: false,
  loaded: false,
  selecting: false,
  awaitingIntent: false,
  paying: false,
  authorizing: true,
  validating: true,
  extracting: true,
  converting: true,
  preparing: true,
  complete: true,
  failed: false,
};

describe('leaveWarningArmed', () => {
  it.each(Object.entries(ARMED_BY_STATUS) as [Status, boolean][])('%s → %s', (status, armed) => {
    expect(leaveWarningArmed(STATES[status])).toBe(armed);
  });

  it('arms when the authorization is submitted, and stays armed as the conversion starts', () => {
    expect(leaveWarningArmed(STATES.paying)).toBe(false);
    const submitted = run(STATES.paying, { type: 'authorizationSubmitted' });
    expect(submitted.status).toBe('authorizing');
    expect(leaveWarningArmed(submitted)).toBe(true);
    expect(leaveWarningArmed(run(submitted, { type: 'paymentAuthorized' }))).toBe(true);
    expect(leaveWarningArmed(run(submitted, { type: 'authorizationFailed' }))).toBe(false);
  });

  it('disarms when the conversion fails, since nothing is left to lose', () => {
    const failed = run(STATES.converting, { type: 'conversionFailed', message: 'Worker crashed' });
    expect(failed.status).toBe('failed');
    expect(leaveWarningArmed(failed)).toBe(false);
  });

  it('stays armed on the results until every file, KML and failed-places CSV, is downloaded', () => {
    const kmlOnly = run(COMPLETE, downloaded(KML_URL));
    expect(leaveWarningArmed(kmlOnly)).toBe(true);
    expect(leaveWarningArmed(run(COMPLETE, downloaded(CSV_URL)))).toBe(true);
    expect(leaveWarningArmed(run(kmlOnly, downloaded(CSV_URL)))).toBe(false);
  });

  it('counts every part of a split list', () => {
    const split: FileResult = {
      ...RESULT,
      failed: null,
      files: [1, 2].map((part) => ({
        ...RESULT.files[0]!,
        key: `${RESULT.path}#${part}/2`,
        url: `blob:part-${part}`,
        part,
        parts: 2,
      })),
    };
    const results = run({ ...COMPLETE, results: [split] }, downloaded('blob:part-2'));
    expect(leaveWarningArmed(results)).toBe(true);
    expect(leaveWarningArmed(run(results, downloaded('blob:part-1')))).toBe(false);
  });

  it('does not arm for results without any file (every list skipped)', () => {
    const skipped: FileResult = {
      ...RESULT,
      skippedReason: 'Validation failed',
      files: [],
      failed: null,
    };
    expect(leaveWarningArmed({ ...COMPLETE, results: [skipped] })).toBe(false);
  });

  it('does not care whether the capture is pending, settled or failed', () => {
    const settled = run(COMPLETE, { type: 'captureSettled', ...RECEIPT });
    expect(leaveWarningArmed(settled)).toBe(true);
    expect(leaveWarningArmed(run(settled, downloaded(KML_URL), downloaded(CSV_URL)))).toBe(false);
  });

  it('disarms on Remove, downloaded or not', () => {
    expect(leaveWarningArmed(run(COMPLETE, { type: 'removed' }))).toBe(false);
    const all = run(COMPLETE, downloaded(KML_URL), downloaded(CSV_URL), { type: 'removed' });
    expect(leaveWarningArmed(all)).toBe(false);
  });
});

describe('warnBeforeLeaving', () => {
  it('cancels the event and sets returnValue, as Chromium needs', () => {
    const event = { preventDefault: vi.fn(), returnValue: undefined as unknown };
    warnBeforeLeaving(event as unknown as BeforeUnloadEvent);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    expect(event.returnValue).toBe('');
  });
});

describe('watchLeaveWarning', () => {
  /** A window stand-in that records the beforeunload listeners it holds. */
  function fakeWindow() {
    const calls: string[] = [];
    const listeners = new Set<unknown>();
    const target: LeaveTarget = {
      addEventListener: (type: string, listener: unknown) => {
        calls.push(`add ${type}`);
        listeners.add(listener);
      },
      removeEventListener: (type: string, listener: unknown) => {
        calls.push(`remove ${type}`);
        listeners.delete(listener);
      },
    } as LeaveTarget;
    return { target, calls, listeners };
  }

  it('holds the listener exactly while the state asks for it', () => {
    const store = createAppStore(STATES.paying);
    const { target, calls, listeners } = fakeWindow();
    const stop = watchLeaveWarning(store, target);
    const send = (event: AppEvent) => store.getState().send(event);
    expect(calls).toEqual([]);

    send({ type: 'authorizationSubmitted' });
    expect(calls).toEqual(['add beforeunload']);
    send({ type: 'paymentAuthorized' });
    expect(calls).toEqual(['add beforeunload']);
    expect([...listeners]).toEqual([warnBeforeLeaving]);

    send({
      type: 'progressReported',
      progress: { stage: 'extracting', fileIndex: 0, fileCount: 1, fileName: 'a.csv', percent: 30 },
    });
    send({
      type: 'conversionFinished',
      results: [RESULT],
      totals: { total: 40, converted: 37, skipped: 3 },
    });
    send({ type: 'captureSettled', ...RECEIPT });
    send(downloaded(KML_URL));
    expect(calls).toEqual(['add beforeunload']);

    send(downloaded(CSV_URL));
    expect(calls).toEqual(['add beforeunload', 'remove beforeunload']);
    expect(listeners.size).toBe(0);

    stop();
    expect(calls).toHaveLength(2);
  });

  it('arms at once for a state that needs it, and stopping removes the listener', () => {
    const store = createAppStore(STATES.converting);
    const { target, calls, listeners } = fakeWindow();
    const stop = watchLeaveWarning(store, target);
    expect(calls).toEqual(['add beforeunload']);
    stop();
    expect(listeners.size).toBe(0);
    store.getState().send({ type: 'conversionFailed', message: 'x' });
    expect(calls).toEqual(['add beforeunload', 'remove beforeunload']);
  });
});
