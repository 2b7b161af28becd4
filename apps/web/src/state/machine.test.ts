import { describe, expect, it } from 'vitest';
import {
  ARCHIVE,
  CARD,
  FILE,
  LISTS,
  listSummary,
  PROGRESS,
  RECEIPT,
  RESULT,
  STATES,
} from '../test/fixtures';
import {
  INITIAL_STATE,
  isZipFileName,
  largestChosenList,
  selectedPlaces,
  selectedWithoutLocation,
  transition,
  undownloadedMaps,
} from './machine';
import { captureFailedMessage, MESSAGES, releaseFailedMessage } from './messages';
import type { AppEvent, AppState, EventType, FileResult, Status } from './types';

const TOTALS = { total: 40, converted: 37, skipped: 3 };

/** An earlier visit's hold for these lists (see `effects.ts`, `heldPaymentFor`). */
const HELD = {
  paymentIntentId: 'pi_earlier',
  amountAuthorizedCents: 6_800,
  placesAuthorized: 68,
  placesResolved: 25,
};

/** A worker report built from the fixtures' progress (the page's own fields left out). */
const {
  lookups: _lookups,
  secondsLeft: _secondsLeft,
  ...REPORT
} = { ...PROGRESS, stage: 'converting' as const };

/** One applicable example of every event (ids match the fixtures' states). */
const EVENTS: Record<EventType, AppEvent> = {
  fileChosen: { type: 'fileChosen', fileId: 11, file: { name: 'other.zip', size: 10 } },
  archiveInspected: { type: 'archiveInspected', fileId: 7, lists: LISTS },
  archiveRejected: { type: 'archiveRejected', fileId: 7, message: MESSAGES.extractFailed },
  listToggled: { type: 'listToggled', path: LISTS[1]!.path },
  allListsSelected: { type: 'allListsSelected' },
  allListsDeselected: { type: 'allListsDeselected' },
  selectionOpened: { type: 'selectionOpened' },
  dialogDismissed: { type: 'dialogDismissed' },
  paymentRequested: { type: 'paymentRequested', requestId: 12 },
  intentCreated: {
    type: 'intentCreated',
    requestId: 9,
    clientSecret: 'pi_9_secret_x',
    paymentIntentId: 'pi_9',
  },
  intentFailed: { type: 'intentFailed', requestId: 9, message: MESSAGES.intentFailed },
  heldPaymentFound: { type: 'heldPaymentFound', requestId: 9, ...HELD },
  newPaymentRequested: { type: 'newPaymentRequested', requestId: 13 },
  selectionResumed: { type: 'selectionResumed' },
  authorizationSubmitted: { type: 'authorizationSubmitted' },
  authorizationFailed: { type: 'authorizationFailed' },
  paymentAuthorized: { type: 'paymentAuthorized' },
  progressReported: {
    type: 'progressReported',
    progress: {
      stage: 'converting',
      fileIndex: 0,
      fileCount: 1,
      fileName: 'Want to go.csv',
      percent: 75,
    },
  },
  cancelRequested: { type: 'cancelRequested' },
  conversionFinished: { type: 'conversionFinished', results: [RESULT], totals: TOTALS },
  conversionFailed: { type: 'conversionFailed', message: 'Worker crashed' },
  captureSettled: { type: 'captureSettled', ...RECEIPT },
  captureFailed: { type: 'captureFailed', message: captureFailedMessage('pi_123') },
  fileDownloaded: { type: 'fileDownloaded', url: RESULT.files[0]!.url },
  formatChosen: { type: 'formatChosen', format: 'gpx' },
  formatFilesReady: { type: 'formatFilesReady', format: 'gpx', files: {} },
  formatFailed: { type: 'formatFailed', format: 'gpx' },
  zipRequested: { type: 'zipRequested' },
  zipReady: { type: 'zipReady', format: 'kml', url: 'blob:zip-1', fileName: 'all.zip' },
  zipFailed: { type: 'zipFailed', message: 'No memory' },
  discardRequested: { type: 'discardRequested', action: 'remove' },
  discardCancelled: { type: 'discardCancelled' },
  convertMoreConfirmed: { type: 'convertMoreConfirmed' },
  retryPrepared: {
    type: 'retryPrepared',
    lists: [
      listSummary({
        path: `retry:${LISTS[0]!.path}`,
        origin: { kind: 'retry', of: LISTS[0]!.path },
        name: 'Want to go (failed places)',
        rowCount: 3,
        size: 0,
      }),
    ],
  },
  removed: { type: 'removed' },
};

const PROCESSING = {
  progressReported: 'converting',
  conversionFinished: 'complete',
  conversionFailed: 'failed',
} as const;

/** Where each applicable event leads; every pair not listed must be ignored. */
const EXPECTED: Record<Status, Partial<Record<EventType, Status>>> = {
  empty: { fileChosen: 'inspecting', removed: 'empty' },
  inspecting: { archiveInspected: 'selecting', archiveRejected: 'empty', removed: 'empty' },
  loaded: { selectionOpened: 'selecting', removed: 'empty' },
  selecting: {
    listToggled: 'selecting',
    allListsSelected: 'selecting',
    allListsDeselected: 'selecting',
    dialogDismissed: 'loaded',
    paymentRequested: 'awaitingIntent',
    removed: 'empty',
  },
  awaitingIntent: {
    intentCreated: 'paying',
    heldPaymentFound: 'paying',
    intentFailed: 'selecting',
    selectionResumed: 'selecting',
    dialogDismissed: 'loaded',
    removed: 'empty',
  },
  paying: {
    authorizationSubmitted: 'authorizing',
    selectionResumed: 'selecting',
    dialogDismissed: 'loaded',
    removed: 'empty',
  },
  authorizing: { authorizationFailed: 'paying', paymentAuthorized: 'validating' },
  // Cancel applies until the files are being handed over (preparing).
  validating: { ...PROCESSING, cancelRequested: 'validating' },
  extracting: { ...PROCESSING, cancelRequested: 'extracting' },
  converting: { ...PROCESSING, cancelRequested: 'converting' },
  preparing: PROCESSING,
  complete: {
    captureSettled: 'complete',
    captureFailed: 'complete',
    fileDownloaded: 'complete',
    formatChosen: 'complete',
    zipRequested: 'complete',
    discardRequested: 'complete',
    convertMoreConfirmed: 'selecting',
    retryPrepared: 'selecting',
    removed: 'empty',
  },
  // The hold is being released: only its answer applies; the page waits for the receipt.
  failed: { captureSettled: 'failed', captureFailed: 'failed' },
};

const STATUSES = Object.keys(STATES) as Status[];
const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
const PAIRS = STATUSES.flatMap((status) =>
  EVENT_TYPES.map((event) => ({ status, event, expected: EXPECTED[status][event] ?? null })),
);

/** `event` leads from `state` to the `expected` status, or (null) is ignored: the same object back. */
function expectTransition(state: AppState, event: EventType, expected: Status | null): void {
  const next = transition(state, EVENTS[event]);
  if (expected === null) {
    expect(next).toBe(state);
  } else {
    expect(next).not.toBe(state);
    expect(next.status).toBe(expected);
  }
}

describe('transition, every status × every event', () => {
  it.each(PAIRS)('$status + $event → $expected', ({ status, event, expected }) => {
    expectTransition(STATES[status], event, expected);
  });
});

/** A failed run in each of its other phases of the payment, with what applies in it. */
const FAILED = STATES.failed as Extract<AppState, { status: 'failed' }>;
const FAILED_PHASES: Record<
  string,
  { state: AppState; expected: Partial<Record<EventType, Status>> }
> = {
  'released (receipt kept)': {
    state: { ...FAILED, capture: { kind: 'settled', ...RECEIPT } },
    expected: { selectionOpened: 'selecting', removed: 'empty' },
  },
  'release failed (warning kept)': {
    state: { ...FAILED, capture: { kind: 'failed', message: 'x' } },
    expected: { selectionOpened: 'selecting', removed: 'empty' },
  },
  'free (nothing held)': {
    state: { ...FAILED, authorization: { kind: 'free' }, capture: { kind: 'notNeeded' } },
    expected: { selectionOpened: 'selecting', removed: 'empty' },
  },
};
const FAILED_PAIRS = Object.entries(FAILED_PHASES).flatMap(([phase, { state, expected }]) =>
  EVENT_TYPES.map((event) => ({ phase, state, event, expected: expected[event] ?? null })),
);

/** A run being cancelled, in each stage it can be cancelled in, with what still applies. */
const CANCELLING_PAIRS = (['validating', 'extracting', 'converting'] as const).flatMap((stage) =>
  EVENT_TYPES.map((event) => ({
    stage,
    event,
    expected:
      ({ ...PROCESSING, cancelRequested: null } as Partial<Record<EventType, Status | null>>)[
        event
      ] ?? null,
  })),
);

describe('transition, a run being cancelled × every event', () => {
  it.each(CANCELLING_PAIRS)(
    '$stage (cancelling) + $event → $expected',
    ({ stage, event, expected }) => {
      const state = { ...STATES[stage], cancelling: true } as AppState;
      expectTransition(state, event, expected);
    },
  );
});

describe('transition, a failed run once its payment is settled × every event', () => {
  it.each(FAILED_PAIRS)('$phase + $event → $expected', ({ state, event, expected }) => {
    expectTransition(state, event, expected);
  });
});

function inState<S extends Status>(state: AppState, status: S): AppState & { status: S } {
  expect(state.status).toBe(status);
  return state as AppState & { status: S };
}

describe('upload', () => {
  it('refuses a file that is not a .zip, naming it, with the seed message', () => {
    const next = transition(INITIAL_STATE, {
      type: 'fileChosen',
      fileId: 1,
      file: { name: 'Saved.csv', size: 3 },
    });
    expect(next).toEqual({
      status: 'empty',
      error: MESSAGES.notAZip,
      refusedFileName: 'Saved.csv',
    });
  });

  it('accepts .zip in any case', () => {
    expect(isZipFileName('takeout.ZIP')).toBe(true);
    expect(isZipFileName('takeout.zip.csv')).toBe(false);
    expect(isZipFileName('zip')).toBe(false);
  });

  it('clears the previous error when a valid file is chosen', () => {
    const next = transition(STATES.empty, { type: 'fileChosen', fileId: 2, file: FILE });
    expect(next).toEqual({ status: 'inspecting', fileId: 2, file: FILE });
  });

  it('opens the selection with every list chosen once the archive is read', () => {
    const next = inState(transition(STATES.inspecting, EVENTS.archiveInspected), 'selecting');
    expect(next.selected).toEqual(LISTS.map((list) => list.path));
    expect(next.file).toBe(FILE);
  });

  it('leaves empty lists unchosen when the selection opens; Select All takes them', () => {
    const empty = { ...LISTS[0]!, path: 'Takeout/Saved/Test.csv', name: 'Test', rowCount: 0 };
    const lists = [...LISTS, empty];
    const opened = inState(
      transition(STATES.inspecting, { type: 'archiveInspected', fileId: 7, lists }),
      'selecting',
    );
    expect(opened.selected).toEqual(LISTS.map((list) => list.path));
    const all = inState(transition(opened, EVENTS.allListsSelected), 'selecting');
    expect(all.selected).toContain(empty.path);
  });

  it('clears the file with the seed message when the archive has no lists', () => {
    const next = transition(STATES.inspecting, { type: 'archiveInspected', fileId: 7, lists: [] });
    expect(next).toEqual({ status: 'empty', error: MESSAGES.noCsv, refusedFileName: null });
  });

  it('says which part of an export in several held no list, as its name says', () => {
    const part = {
      ...STATES.inspecting,
      file: { name: 'takeout-20261127T110000Z-002.zip', size: 9 },
    };
    expect(transition(part, { type: 'archiveInspected', fileId: 7, lists: [] })).toEqual({
      status: 'empty',
      error: MESSAGES.noCsv,
      refusedFileName: null,
      part: 2,
    });
    const reject = (message: string) =>
      transition(part, { type: 'archiveRejected', fileId: 7, message });
    expect(reject(MESSAGES.noPlaceLists)).toMatchObject({ part: 2 });
    // Any other refusal is about the file itself, whatever part it is.
    expect(reject(MESSAGES.incompleteZip)).not.toHaveProperty('part');
  });

  it("uses the worker's message, or the seed's default, when extraction fails", () => {
    const reject = (message: string) =>
      transition(STATES.inspecting, { type: 'archiveRejected', fileId: 7, message });
    expect(reject('Bad zip entry')).toMatchObject({ status: 'empty', error: 'Bad zip entry' });
    expect(reject('')).toMatchObject({ status: 'empty', error: MESSAGES.extractFailed });
  });

  it('ignores the answer about a file that is no longer the current one', () => {
    const stale = { ...EVENTS.archiveInspected, fileId: 6 } as AppEvent;
    expect(transition(STATES.inspecting, stale)).toBe(STATES.inspecting);
    const staleReject = { ...EVENTS.archiveRejected, fileId: 6 } as AppEvent;
    expect(transition(STATES.inspecting, staleReject)).toBe(STATES.inspecting);
  });

  it('Remove on a clean empty page changes nothing', () => {
    expect(transition(INITIAL_STATE, EVENTS.removed)).toBe(INITIAL_STATE);
  });

  it.each(['inspecting', 'loaded', 'selecting', 'awaitingIntent', 'paying', 'complete'] as const)(
    'Remove from %s resets everything',
    (status) => {
      expect(transition(STATES[status], EVENTS.removed)).toEqual(INITIAL_STATE);
    },
  );
});

describe('selection', () => {
  const selecting = STATES.selecting as Extract<AppState, { status: 'selecting' }>;

  it('toggles a list on and off, keeping the archive order', () => {
    const on = inState(
      transition(selecting, { type: 'listToggled', path: LISTS[2]!.path }),
      'selecting',
    );
    expect(on.selected).toEqual([LISTS[0]!.path, LISTS[2]!.path]);
    const off = inState(transition(on, { type: 'listToggled', path: LISTS[0]!.path }), 'selecting');
    expect(off.selected).toEqual([LISTS[2]!.path]);
  });

  it('Select All and Deselect All, and a repeat of either changes nothing', () => {
    const all = transition(selecting, EVENTS.allListsSelected);
    expect(inState(all, 'selecting').selected).toHaveLength(3);
    expect(transition(all, EVENTS.allListsSelected)).toBe(all);
    const none = transition(all, EVENTS.allListsDeselected);
    expect(inState(none, 'selecting').selected).toEqual([]);
    expect(transition(none, EVENTS.allListsDeselected)).toBe(none);
  });

  it('counts the places of the chosen lists', () => {
    expect(selectedPlaces(ARCHIVE)).toBe(40);
    expect(selectedPlaces({ ...ARCHIVE, selected: LISTS.map((l) => l.path) })).toBe(68);
  });

  it('names the chosen list with the most chargeable places', () => {
    const all = { ...ARCHIVE, selected: LISTS.map((l) => l.path) };
    const counts = LISTS.map((l) => selectedPlaces({ ...ARCHIVE, selected: [l.path] }));
    const most = Math.max(...counts);
    expect(largestChosenList(all)).toEqual({
      name: LISTS[counts.indexOf(most)]!.name,
      places: most,
    });
    expect(largestChosenList({ ...ARCHIVE, selected: [] })).toBeNull();
  });

  it('never counts a place without a location or a usable link (none, or one the resolver refuses)', () => {
    // 10 rows: 2 carry coordinates, 5 need a lookup, 1 is Takeout's 0,0, 2 have no link or a
    // look-alike host's.
    const list = {
      ...LISTS[0]!,
      rowCount: 10,
      withCoordinates: 2,
      needsLookup: 5,
      withoutLocation: 1,
    };
    const archive = { ...ARCHIVE, lists: [list], selected: [list.path] };
    expect(selectedPlaces(archive)).toBe(7);
    expect(selectedWithoutLocation(archive)).toBe(1);
    expect(selectedWithoutLocation({ ...archive, selected: [] })).toBe(0);
  });

  it('refuses to proceed with nothing chosen, with the seed message', () => {
    const none = transition(selecting, EVENTS.allListsDeselected);
    const next = inState(transition(none, EVENTS.paymentRequested), 'selecting');
    expect(next.error).toBe(MESSAGES.noListsChosen);
  });

  it('goes to the payment view without an intent when the charge is under $0.50', () => {
    const small = { ...selecting, selected: [LISTS[2]!.path] };
    const next = inState(transition(small, EVENTS.paymentRequested), 'paying');
    expect(next.authorization).toEqual({ kind: 'free' });
  });

  it('asks for an intent at exactly $0.50 (5 places)', () => {
    const five = [{ ...LISTS[2]!, rowCount: 5, withCoordinates: 0, needsLookup: 5 }];
    const state: AppState = { ...selecting, lists: five, selected: [five[0]!.path] };
    const next = inState(transition(state, EVENTS.paymentRequested), 'awaitingIntent');
    expect(next.requestId).toBe(12);
  });

  it('keeps the file and lists when the dialog is dismissed, and reopens it', () => {
    const closed = inState(transition(selecting, EVENTS.dialogDismissed), 'loaded');
    expect(closed.selected).toBe(selecting.selected);
    expect(transition(closed, EVENTS.selectionOpened).status).toBe('selecting');
  });
});

describe('payment', () => {
  it('takes the intent of the current request only', () => {
    const stale = { ...EVENTS.intentCreated, requestId: 8 } as AppEvent;
    expect(transition(STATES.awaitingIntent, stale)).toBe(STATES.awaitingIntent);
    const next = inState(transition(STATES.awaitingIntent, EVENTS.intentCreated), 'paying');
    expect(next.authorization).toEqual({
      kind: 'card',
      clientSecret: 'pi_9_secret_x',
      paymentIntentId: 'pi_9',
    });
  });

  it('returns to the selection with why the intent failed, or the seed message', () => {
    const next = inState(transition(STATES.awaitingIntent, EVENTS.intentFailed), 'selecting');
    expect(next.error).toBe(MESSAGES.intentFailed);
    const refused = inState(
      transition(STATES.awaitingIntent, { type: 'intentFailed', requestId: 9, message: 'Why.' }),
      'selecting',
    );
    expect(refused.error).toBe('Why.');
    const unsaid = inState(
      transition(STATES.awaitingIntent, { type: 'intentFailed', requestId: 9, message: '' }),
      'selecting',
    );
    expect(unsaid.error).toBe(MESSAGES.intentFailed);
    const stale = { type: 'intentFailed', requestId: 1, message: 'Why.' } as AppEvent;
    expect(transition(STATES.awaitingIntent, stale)).toBe(STATES.awaitingIntent);
  });

  it('re-enables the submit button after a declined card', () => {
    const next = transition(STATES.authorizing, EVENTS.authorizationFailed);
    expect(next).toEqual(STATES.paying);
  });

  it('starts the conversion at 0% with the first chosen list once authorized', () => {
    const next = inState(transition(STATES.authorizing, EVENTS.paymentAuthorized), 'validating');
    expect(next.authorization).toBe(CARD);
    expect(next.progress).toEqual({
      percent: 0,
      fileIndex: 0,
      fileCount: 1,
      fileName: 'Want to go.csv',
      currentItem: null,
      lookups: null,
      secondsLeft: null,
    });
  });

  it("offers the earlier visit's hold of the current request only, in place of a card form", () => {
    const stale = { ...EVENTS.heldPaymentFound, requestId: 8 } as AppEvent;
    expect(transition(STATES.awaitingIntent, stale)).toBe(STATES.awaitingIntent);
    const next = inState(transition(STATES.awaitingIntent, EVENTS.heldPaymentFound), 'paying');
    expect(next.authorization).toEqual({ kind: 'held', ...HELD });
    expect(next.selected).toEqual(ARCHIVE.selected);
  });

  it('a held payment is checked (authorizing), then converts with it, or is set aside for a new intent', () => {
    const paying = inState(transition(STATES.awaitingIntent, EVENTS.heldPaymentFound), 'paying');
    // Not converted before the check: only a free selection starts at once.
    expect(transition(paying, EVENTS.paymentAuthorized)).toBe(paying);
    const checking = inState(transition(paying, EVENTS.authorizationSubmitted), 'authorizing');
    const running = inState(transition(checking, EVENTS.paymentAuthorized), 'validating');
    expect(running.authorization).toEqual({ kind: 'held', ...HELD });
    // The check could not be made: back to the offer.
    expect(transition(checking, EVENTS.authorizationFailed)).toEqual(paying);
    // "Use a New Card Instead", or the hold was lost in the check: a new intent, request 13.
    for (const from of [paying, checking]) {
      const next = inState(transition(from, EVENTS.newPaymentRequested), 'awaitingIntent');
      expect(next).toEqual({ status: 'awaitingIntent', ...ARCHIVE, requestId: 13 });
    }
    // A card's payment view has no held payment to set aside.
    expect(transition(STATES.paying, EVENTS.newPaymentRequested)).toBe(STATES.paying);
    expect(transition(STATES.authorizing, EVENTS.newPaymentRequested)).toBe(STATES.authorizing);
  });

  it('a free selection converts without a card; a card one needs the authorization first', () => {
    const free: AppState = { status: 'paying', ...ARCHIVE, authorization: { kind: 'free' } };
    expect(transition(free, EVENTS.paymentAuthorized).status).toBe('validating');
    expect(transition(free, EVENTS.authorizationSubmitted)).toBe(free);
    expect(transition(STATES.paying, EVENTS.paymentAuthorized)).toBe(STATES.paying);
  });
});

describe('processing', () => {
  it('follows the stage and progress the worker reports', () => {
    const next = inState(
      transition(STATES.validating, {
        type: 'progressReported',
        progress: {
          stage: 'extracting',
          fileIndex: 1,
          fileCount: 2,
          fileName: 'b.csv',
          percent: 62.5,
          currentItem: 'https://maps.google.com/?cid=1',
        },
      }),
      'extracting',
    );
    expect(next.progress).toEqual({
      percent: 62.5,
      fileIndex: 1,
      fileCount: 2,
      fileName: 'b.csv',
      currentItem: 'https://maps.google.com/?cid=1',
      lookups: null,
      secondsLeft: null,
    });
  });

  it('counts lookups with their time left, never back, and keeps the count once reported', () => {
    const lookups = (state: AppState, done: number, secondsLeft: number | null) =>
      inState(
        transition(state, {
          type: 'progressReported',
          progress: { ...REPORT, stage: 'extracting', percent: 40, lookups: { done, total: 588 } },
          secondsLeft,
        }),
        'extracting',
      );
    const first = lookups(STATES.extracting, 212, 30);
    expect([first.progress.lookups, first.progress.secondsLeft]).toEqual([
      { done: 212, total: 588 },
      30,
    ]);
    expect(lookups(first, 200, 31).progress.lookups).toEqual({ done: 212, total: 588 });
    const without = inState(
      transition(first, { type: 'progressReported', progress: { ...REPORT, stage: 'extracting' } }),
      'extracting',
    );
    expect([without.progress.lookups, without.progress.secondsLeft]).toEqual([
      { done: 212, total: 588 },
      null,
    ]);
    // A pause before a retry round is kept as told, and over with the next count.
    const report = (state: AppState, extra: object) =>
      inState(
        transition(state, {
          type: 'progressReported',
          progress: {
            ...REPORT,
            stage: 'extracting',
            percent: 40,
            lookups: { done: 212, total: 588, ...extra },
          },
        }),
        'extracting',
      );
    const waiting = report(first, { retry: { places: 376, at: 5_000 } });
    expect(waiting.progress.lookups).toEqual({
      done: 212,
      total: 588,
      retry: { places: 376, at: 5_000 },
    });
    expect(report(waiting, {}).progress.lookups).toEqual({ done: 212, total: 588 });
  });

  it('keeps the progress within 0..99 until the results are ready', () => {
    const report = (percent: number) =>
      transition(STATES.converting, {
        type: 'progressReported',
        progress: { ...REPORT, stage: 'converting', percent },
      });
    expect((report(140) as { progress: { percent: number } }).progress.percent).toBe(99);
    expect((report(100) as { progress: { percent: number } }).progress.percent).toBe(99);
    const start = (STATES.converting as { progress: { percent: number } }).progress.percent;
    expect((report(-3) as { progress: { percent: number } }).progress.percent).toBe(start);
    expect((report(Number.NaN) as { progress: { percent: number } }).progress.percent).toBe(start);
  });

  it('never moves the bar back: a late report of a lower percent keeps the higher one', () => {
    const at = (state: AppState) => (state as { progress: { percent: number } }).progress.percent;
    const reported = (state: AppState, percent: number) =>
      transition(state, {
        type: 'progressReported',
        progress: { ...REPORT, stage: 'converting', percent },
      });
    const high = reported(STATES.converting, 94);
    expect(at(high)).toBe(94);
    expect(at(reported(high, 88))).toBe(94);
    expect(at(reported(high, 97))).toBe(97);
  });

  it('fails with the message, the archive kept and the hold awaiting its release', () => {
    const next = inState(transition(STATES.extracting, EVENTS.conversionFailed), 'failed');
    expect(next).toEqual({
      status: 'failed',
      ...ARCHIVE,
      error: 'Worker crashed',
      cancelled: false,
      authorization: CARD,
      capture: { kind: 'pending' },
    });
    const blank = transition(STATES.extracting, { type: 'conversionFailed', message: '' });
    expect(inState(blank, 'failed').error).toBe(MESSAGES.conversionFailed);
  });

  it('a failed free run has nothing to release', () => {
    const freeRun = { ...STATES.converting, authorization: { kind: 'free' } } as AppState;
    const next = inState(transition(freeRun, EVENTS.conversionFailed), 'failed');
    expect(next.capture).toEqual({ kind: 'notNeeded' });
  });

  it('waits for the capture after a paid run, and needs none after a free one', () => {
    const paid = inState(transition(STATES.preparing, EVENTS.conversionFinished), 'complete');
    expect(paid.capture).toEqual({ kind: 'pending' });
    expect(paid.totals).toBe(TOTALS);
    const freeRun: AppState = { ...STATES.preparing, authorization: { kind: 'free' } } as AppState;
    const free = inState(transition(freeRun, EVENTS.conversionFinished), 'complete');
    expect(free.capture).toEqual({ kind: 'notNeeded' });
  });
});

describe('capture', () => {
  it('settles once, keeping the receipt; a second answer is ignored', () => {
    const settled = inState(transition(STATES.complete, EVENTS.captureSettled), 'complete');
    expect(settled.capture).toEqual({
      kind: 'settled',
      cancelled: false,
      amountAuthorizedCents: 400,
      amountCapturedCents: 370,
      amountReleasedCents: 30,
      reference: 'pi_123',
      settledAt: RECEIPT.settledAt,
    });
    expect(transition(settled, EVENTS.captureFailed)).toBe(settled);
    expect(transition(settled, EVENTS.captureSettled)).toBe(settled);
  });

  it('records a failed capture with the seed warning and the reference', () => {
    const failed = inState(transition(STATES.complete, EVENTS.captureFailed), 'complete');
    expect(failed.capture).toEqual({
      kind: 'failed',
      message: `${MESSAGES.captureFailed} Reference: pi_123`,
    });
    // Final: a late answer changes nothing.
    expect(transition(failed, EVENTS.captureSettled)).toBe(failed);
  });

  it('keeps awaiting a capture that is asked again, then takes its answer or its last failure', () => {
    const retrying = { type: 'captureFailed', message: 'No answer yet.', retrying: true } as const;
    for (const status of ['complete', 'failed'] as const) {
      const asking = inState(transition(STATES[status], retrying), status);
      expect(asking.capture).toEqual({ kind: 'failed', message: 'No answer yet.', retrying: true });
      const settled = inState(transition(asking, EVENTS.captureSettled), status);
      expect(settled.capture).toMatchObject({ kind: 'settled', amountCapturedCents: 370 });
      const failed = inState(transition(asking, EVENTS.captureFailed), status);
      expect(failed.capture).toEqual({ kind: 'failed', message: captureFailedMessage('pi_123') });
    }
  });
});

describe('the payment of a failed run', () => {
  const failed = STATES.failed as Extract<AppState, { status: 'failed' }>;

  it('keeps the receipt the server returned for the release, once', () => {
    const charged = { ...RECEIPT, amountCapturedCents: 80, amountReleasedCents: 320 };
    const settled = inState(transition(failed, { type: 'captureSettled', ...charged }), 'failed');
    expect(settled.capture).toEqual({ kind: 'settled', ...charged });
    expect(settled.error).toBe(failed.error);
    expect(transition(settled, EVENTS.captureSettled)).toBe(settled);
    expect(transition(settled, EVENTS.captureFailed)).toBe(settled);
  });

  it('keeps the warning, with the reference, when the release fails', () => {
    const message = releaseFailedMessage('pi_123');
    const next = inState(transition(failed, { type: 'captureFailed', message }), 'failed');
    expect(next.capture).toEqual({ kind: 'failed', message });
  });

  it('neither reopens the lists nor forgets the archive until the receipt is in', () => {
    expect(transition(failed, EVENTS.selectionOpened)).toBe(failed);
    expect(transition(failed, EVENTS.removed)).toBe(failed);
    const settled = transition(failed, EVENTS.captureSettled);
    const lists = inState(transition(settled, EVENTS.selectionOpened), 'selecting');
    expect([lists.selected, lists.error]).toEqual([failed.selected, null]);
    expect(transition(settled, EVENTS.removed)).toEqual(INITIAL_STATE);
  });
});

describe('downloads', () => {
  const twoFiles = STATES.complete as Extract<AppState, { status: 'complete' }>;
  const clicked = (state: AppState, url: string) =>
    transition(state, { type: 'fileDownloaded', url });

  it('starts with nothing downloaded', () => {
    const done = inState(transition(STATES.preparing, EVENTS.conversionFinished), 'complete');
    expect(done.downloaded).toEqual([]);
  });

  const KML_KEY = RESULT.files[0]!.key;
  const CSV_KEY = RESULT.failed!.key;

  it('remembers each file of the results once, in click order', () => {
    const csv = inState(clicked(twoFiles, 'blob:csv-1'), 'complete');
    expect(csv.downloaded).toEqual([CSV_KEY]);
    expect(clicked(csv, 'blob:csv-1')).toBe(csv);
    const both = inState(clicked(csv, 'blob:kml-1'), 'complete');
    expect(both.downloaded).toEqual([CSV_KEY, KML_KEY]);
  });

  it('ignores a link that is not one of the results', () => {
    expect(clicked(twoFiles, 'blob:elsewhere')).toBe(twoFiles);
  });
});

describe('file format and Download all', () => {
  const complete = STATES.complete as Extract<AppState, { status: 'complete' }>;
  const gpxFile = {
    ...RESULT.files[0]!,
    fileName: 'Want to go.gpx',
    url: 'blob:gpx-1',
    format: 'gpx' as const,
  };

  /** The worker's GPX files for the list arrive, as asked for in `asked`. */
  const gpxFilesArrive = (asked: AppState) =>
    inState(
      transition(asked, {
        type: 'formatFilesReady',
        format: 'gpx',
        files: { [RESULT.path]: [gpxFile] },
      }),
      'complete',
    );

  it('starts in the format of the files converted, with no ZIP', () => {
    const done = inState(transition(STATES.preparing, EVENTS.conversionFinished), 'complete');
    expect([done.format, done.formatPending, done.zip]).toEqual(['kml', null, { kind: 'idle' }]);
  });

  it("swaps every list's files when the chosen format's files arrive, and only then", () => {
    const asked = inState(
      transition(complete, { type: 'formatChosen', format: 'gpx' }),
      'complete',
    );
    expect([asked.format, asked.formatPending]).toEqual(['kml', 'gpx']);
    // The same choice again, or files of a format not asked for, change nothing.
    expect(transition(asked, { type: 'formatChosen', format: 'gpx' })).toBe(asked);
    expect(transition(asked, { type: 'formatFilesReady', format: 'csv', files: {} })).toBe(asked);
    const ready = gpxFilesArrive(asked);
    expect([ready.format, ready.formatPending]).toEqual(['gpx', null]);
    expect(ready.results[0]!.files).toEqual([gpxFile]);
    expect(ready.results[0]!.failed).toEqual(RESULT.failed);
  });

  it('takes a later choice over the format being written; back to the files offered, none waits', () => {
    const asked = transition(complete, { type: 'formatChosen', format: 'gpx' });
    const later = inState(transition(asked, { type: 'formatChosen', format: 'kmz' }), 'complete');
    expect([later.format, later.formatPending]).toEqual(['kml', 'kmz']);
    // The GPX files, no longer wanted, are not taken.
    expect(transition(later, { type: 'formatFilesReady', format: 'gpx', files: {} })).toBe(later);
    const back = inState(transition(later, { type: 'formatChosen', format: 'kml' }), 'complete');
    expect([back.format, back.formatPending, back.results]).toEqual([
      'kml',
      null,
      complete.results,
    ]);
    expect(transition(back, { type: 'formatFilesReady', format: 'kmz', files: {} })).toBe(back);
    expect(transition(back, { type: 'formatFailed', format: 'kmz' })).toBe(back);
  });

  it('keeps the files it had when the worker could not write the other format', () => {
    const asked = transition(complete, { type: 'formatChosen', format: 'kmz' });
    const failed = inState(transition(asked, { type: 'formatFailed', format: 'kmz' }), 'complete');
    expect([failed.format, failed.formatPending, failed.results]).toEqual([
      'kml',
      null,
      complete.results,
    ]);
  });

  it('counts a file downloaded in one format as downloaded in every format', () => {
    const clicked = transition(complete, { type: 'fileDownloaded', url: 'blob:kml-1' });
    const asked = transition(clicked, { type: 'formatChosen', format: 'gpx' });
    const ready = gpxFilesArrive(asked);
    expect(ready.downloaded).toEqual([RESULT.files[0]!.key]);
  });

  it('builds one ZIP at a time for the current format; its download counts for every file', () => {
    const building = inState(transition(complete, { type: 'zipRequested' }), 'complete');
    expect(building.zip).toEqual({ kind: 'building', format: 'kml' });
    expect(transition(building, { type: 'zipRequested' })).toBe(building);
    // A format change waits until the ZIP is written.
    expect(transition(building, { type: 'zipReady', format: 'gpx', url: 'x', fileName: 'x' })).toBe(
      building,
    );
    const ready = inState(
      transition(building, { type: 'zipReady', format: 'kml', url: 'blob:zip', fileName: 'a.zip' }),
      'complete',
    );
    expect(ready.zip).toEqual({ kind: 'ready', format: 'kml', url: 'blob:zip', fileName: 'a.zip' });
    expect(transition(ready, { type: 'zipRequested' })).toBe(ready);
    const all = inState(transition(ready, { type: 'fileDownloaded', url: 'blob:zip' }), 'complete');
    expect([...all.downloaded].sort()).toEqual([RESULT.failed!.key, RESULT.files[0]!.key].sort());
  });

  it('forgets a ZIP of another format when the format changes, and reports a failed one', () => {
    const ready = transition(transition(complete, { type: 'zipRequested' }), {
      type: 'zipReady',
      format: 'kml',
      url: 'blob:zip',
      fileName: 'a.zip',
    });
    const asked = transition(ready, { type: 'formatChosen', format: 'gpx' });
    const gpx = inState(
      transition(asked, { type: 'formatFilesReady', format: 'gpx', files: {} }),
      'complete',
    );
    expect(gpx.zip).toEqual({ kind: 'idle' });
    const failed = inState(
      transition(transition(gpx, { type: 'zipRequested' }), { type: 'zipFailed', message: 'No' }),
      'complete',
    );
    expect(failed.zip).toEqual({ kind: 'failed', message: 'No' });
  });
});

describe('leaving results with files not downloaded', () => {
  const complete = STATES.complete as Extract<AppState, { status: 'complete' }>;

  it('asks before Remove or Convert more lists discards files, and forgets the question on cancel', () => {
    const asking = inState(
      transition(complete, { type: 'discardRequested', action: 'remove' }),
      'complete',
    );
    expect(asking.confirming).toBe('remove');
    const kept = inState(transition(asking, { type: 'discardCancelled' }), 'complete');
    expect(kept.confirming).toBeNull();
    expect(kept.results).toBe(complete.results);
  });

  it('does not ask once every file is downloaded', () => {
    const all = { ...complete, downloaded: [RESULT.files[0]!.key, RESULT.failed!.key] };
    expect(transition(all, { type: 'discardRequested', action: 'convertMore' })).toBe(all);
  });

  it('does not ask for a failed-places CSV alone: only map files not downloaded are a loss', () => {
    const maps = { ...complete, downloaded: [RESULT.files[0]!.key] };
    const nothingPlaced = {
      ...complete,
      results: [{ ...RESULT, counts: { total: 3, converted: 0, skipped: 3 }, files: [] }],
    };
    for (const state of [maps, nothingPlaced]) {
      expect(undownloadedMaps(state)).toEqual([]);
      for (const action of ['remove', 'convertMore', 'retry'] as const) {
        expect(transition(state, { type: 'discardRequested', action })).toBe(state);
      }
    }
    expect(undownloadedMaps(complete)).toEqual(RESULT.files);
  });

  it('goes back to the selection with the lists not converted yet chosen', () => {
    const more = inState(transition(complete, { type: 'convertMoreConfirmed' }), 'selecting');
    expect(more.lists).toBe(complete.lists);
    expect(more.selected).toEqual(
      LISTS.filter((list) => list.path !== RESULT.path).map((list) => list.path),
    );
  });
});

describe('retry failed places', () => {
  const complete = STATES.complete as Extract<AppState, { status: 'complete' }>;
  const retry = (path: string) =>
    listSummary({
      path: `retry:${path}`,
      origin: { kind: 'retry', of: path },
      name: 'Want to go (failed places)',
      rowCount: 3,
      size: 0,
    });

  it('offers the failed places as lists of their own, chosen alone, beside the archive lists', () => {
    const next = inState(
      transition(complete, { type: 'retryPrepared', lists: [retry(LISTS[0]!.path)] }),
      'selecting',
    );
    expect(next.lists.map((list) => list.path)).toEqual([
      ...LISTS.map((list) => list.path),
      `retry:${LISTS[0]!.path}`,
    ]);
    expect(next.selected).toEqual([`retry:${LISTS[0]!.path}`]);
    // Priced on the failed places alone.
    expect(selectedPlaces(next)).toBe(3);
  });

  it('replaces the retry lists of an earlier retry, and ignores an empty answer', () => {
    const first = inState(
      transition(complete, { type: 'retryPrepared', lists: [retry(LISTS[0]!.path)] }),
      'selecting',
    );
    const again = { ...complete, lists: first.lists };
    const second = inState(
      transition(again, { type: 'retryPrepared', lists: [retry(LISTS[1]!.path)] }),
      'selecting',
    );
    expect(second.lists.filter((list) => list.origin?.kind === 'retry')).toHaveLength(1);
    expect(transition(complete, { type: 'retryPrepared', lists: [] })).toBe(complete);
  });
});

describe('lists converted in this session', () => {
  const extracting = STATES.extracting as Extract<AppState, { progress: unknown }>;
  const none: FileResult = {
    ...RESULT,
    path: LISTS[1]!.path,
    counts: { total: 25, converted: 0, skipped: 25 },
    files: [],
  };

  it('are the lists of finished runs that placed at least one place, in order, each once', () => {
    const first = inState(
      transition(extracting, {
        type: 'conversionFinished',
        results: [RESULT, none],
        totals: { total: 65, converted: 37, skipped: 28 },
      }),
      'complete',
    );
    expect(first.converted).toEqual([RESULT.path]);
    const again = inState(
      transition(
        { ...extracting, converted: first.converted },
        { type: 'conversionFinished', results: [RESULT], totals: TOTALS },
      ),
      'complete',
    );
    expect(again.converted).toEqual([RESULT.path]);
  });

  it('are left unchosen by "Convert more lists", with the lists of this run', () => {
    const complete = {
      ...(STATES.complete as Extract<AppState, { status: 'complete' }>),
      converted: [LISTS[2]!.path, RESULT.path],
    };
    const more = inState(transition(complete, { type: 'convertMoreConfirmed' }), 'selecting');
    expect(more.selected).toEqual([LISTS[1]!.path]);
    expect(more.converted).toEqual([LISTS[2]!.path, RESULT.path]);
  });

  it('are kept through a retry, a failed run and a closed dialog, and forgotten by Remove', () => {
    const converted = [RESULT.path];
    const complete = {
      ...(STATES.complete as Extract<AppState, { status: 'complete' }>),
      converted,
    };
    const retry = listSummary({
      path: `retry:${RESULT.path}`,
      origin: { kind: 'retry', of: RESULT.path },
      name: 'x',
      rowCount: 3,
      size: 0,
    });
    const retried = inState(
      transition(complete, { type: 'retryPrepared', lists: [retry] }),
      'selecting',
    );
    expect(retried.converted).toBe(converted);
    const failed = {
      ...(STATES.failed as Extract<AppState, { status: 'failed' }>),
      converted,
      capture: { kind: 'notNeeded' as const },
    };
    const reopened = inState(transition(failed, { type: 'selectionOpened' }), 'selecting');
    expect(reopened.converted).toBe(converted);
    const closed = inState(transition(reopened, { type: 'dialogDismissed' }), 'loaded');
    expect(closed.converted).toBe(converted);
    expect(transition(complete, { type: 'removed' })).toBe(INITIAL_STATE);
  });

  it('start empty for a new archive', () => {
    const read = inState(
      transition(STATES.inspecting, { type: 'archiveInspected', fileId: 7, lists: LISTS }),
      'selecting',
    );
    expect(read.converted).toEqual([]);
  });
});

describe('Cancel during processing', () => {
  type Processing = Extract<AppState, { cancelling: boolean }>;
  const extracting = STATES.extracting as Processing;

  it('marks the run as stopping, once, and keeps its progress coming', () => {
    const cancelling = inState(transition(extracting, { type: 'cancelRequested' }), 'extracting');
    expect(cancelling.cancelling).toBe(true);
    expect(cancelling.progress).toBe(extracting.progress);
    expect(transition(cancelling, { type: 'cancelRequested' })).toBe(cancelling);
    const later = inState(
      transition(cancelling, {
        type: 'progressReported',
        progress: {
          stage: 'converting',
          fileIndex: 0,
          fileCount: 1,
          fileName: 'a.csv',
          percent: 80,
        },
      }),
      'converting',
    );
    expect(later.cancelling).toBe(true);
  });

  it('is too late once the files are being handed over', () => {
    expect(transition(STATES.preparing, { type: 'cancelRequested' })).toBe(STATES.preparing);
  });

  it('ends with the results of what was done, marked as stopped, and the capture awaited', () => {
    const cancelling = { ...extracting, cancelling: true };
    const done = inState(
      transition(cancelling, { type: 'conversionFinished', results: [RESULT], totals: TOTALS }),
      'complete',
    );
    expect(done.stopped).toBe(true);
    expect(done.capture).toEqual({ kind: 'pending' });
    expect(done.results).toEqual([RESULT]);
    const finished = inState(
      transition(extracting, { type: 'conversionFinished', results: [RESULT], totals: TOTALS }),
      'complete',
    );
    expect(finished.stopped).toBe(false);
  });

  it('ends as cancelled, saying so, when the worker had to be ended: the hold is released', () => {
    const cancelling = { ...extracting, cancelling: true };
    const ended = inState(
      transition(cancelling, { type: 'conversionFailed', message: 'The conversion was stopped.' }),
      'failed',
    );
    expect(ended.cancelled).toBe(true);
    expect(ended.error).toBe(MESSAGES.cancelled);
    expect(ended.capture).toEqual({ kind: 'pending' });
    const crashed = inState(
      transition(extracting, { type: 'conversionFailed', message: 'Worker crashed' }),
      'failed',
    );
    expect(crashed.cancelled).toBe(false);
    expect(crashed.error).toBe('Worker crashed');
  });
});
