import { describe, expect, it } from 'vitest';
import { STATES } from '../test/fixtures';
import { backEvent, openDialog, watchDialogHistory, type HistoryWindow } from './dialogHistory';
import { createAppStore } from './store';
import type { AppState, Status } from './types';

/**
 * A window whose history acts as a browser's: `pushState` drops the entries ahead and adds one,
 * `back` and `forward` move within the entries and fire `popstate` later (a task, not at once).
 */
function fakeWindow(initial: unknown = null) {
  const entries: unknown[] = [initial];
  let index = 0;
  const listeners = new Set<() => void>();
  const pending: Array<() => void> = [];
  const traverse = (by: number) => {
    pending.push(() => {
      const next = index + by;
      if (next < 0 || next >= entries.length) return;
      index = next;
      for (const listener of listeners) listener();
    });
  };
  const win: HistoryWindow & { forward(): void } = {
    history: {
      get state() {
        return entries[index];
      },
      pushState(state: unknown) {
        entries.splice(index + 1, entries.length, state);
        index += 1;
      },
      back: () => traverse(-1),
    },
    forward: () => traverse(1),
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
  };
  /** Runs the traversals asked for so far, as the browser's next tasks would. */
  const settle = () => {
    while (pending.length > 0) pending.shift()!();
  };
  return {
    win,
    settle,
    listeners,
    get length() {
      return entries.length;
    },
    get index() {
      return index;
    },
  };
}

function setUp(state: AppState, initial?: unknown) {
  const store = createAppStore(state);
  const browser = fakeWindow(initial);
  const stop = watchDialogHistory(store, browser.win);
  const send = (event: Parameters<ReturnType<typeof store.getState>['send']>[0]) => {
    store.getState().send(event);
    browser.settle();
  };
  /** The person presses the browser's Back (or Forward). */
  const back = () => {
    browser.win.history.back();
    browser.settle();
  };
  const forward = () => {
    browser.win.forward();
    browser.settle();
  };
  const status = () => store.getState().state.status;
  return { store, browser, stop, send, back, forward, status };
}

describe('openDialog and backEvent', () => {
  const DIALOGS: Record<Status, 'list' | null> = {
    empty: null,
    inspecting: null,
    loaded: null,
    selecting: 'list',
    awaitingIntent: 'list',
    paying: 'list',
    authorizing: 'list',
    validating: null,
    extracting: null,
    converting: null,
    preparing: null,
    complete: null,
    failed: null,
  };
  it.each(Object.entries(DIALOGS))('%s shows %s', (status, dialog) => {
    expect(openDialog(STATES[status as Status])).toBe(dialog);
  });

  it('the discard confirmation is a dialog Back cancels', () => {
    const confirming = { ...STATES.complete, confirming: 'remove' } as AppState;
    expect(openDialog(confirming)).toBe('discard');
    expect(backEvent(confirming)).toEqual({ type: 'discardCancelled' });
  });

  it('Back closes the list dialog as Escape does, but not while a card is being authorized', () => {
    expect(backEvent(STATES.selecting)).toEqual({ type: 'dialogDismissed' });
    expect(backEvent(STATES.paying)).toEqual({ type: 'dialogDismissed' });
    expect(backEvent(STATES.awaitingIntent)).toEqual({ type: 'dialogDismissed' });
    expect(backEvent(STATES.authorizing)).toBeNull();
    expect(backEvent(STATES.loaded)).toBeNull();
  });
});

describe('watchDialogHistory', () => {
  it('Back closes the selection and keeps the archive; a second Back leaves the page', () => {
    const { browser, send, back, status } = setUp(STATES.loaded);
    expect(browser.length).toBe(1);
    send({ type: 'selectionOpened' });
    expect(status()).toBe('selecting');
    expect(browser.length).toBe(2);

    back();
    expect(status()).toBe('loaded');
    expect(browser.index).toBe(0);
    // The page's entry is not taken again: the next Back is the browser's own.
    expect(browser.length).toBe(2);
    send({ type: 'listToggled', path: 'x' });
    expect(browser.index).toBe(0);
  });

  it('Back in the payment view closes the dialog', () => {
    const { browser, send, back, status } = setUp(STATES.selecting);
    expect(browser.index).toBe(1);
    send({ type: 'paymentRequested', requestId: 9 });
    // One entry for the dialog, whichever of its views shows.
    expect(browser.index).toBe(1);
    back();
    expect(status()).toBe('loaded');
    expect(browser.index).toBe(0);
  });

  it('a dialog closed by the page gives its entry back, so Back then leaves', () => {
    const { browser, send, status } = setUp(STATES.loaded);
    send({ type: 'selectionOpened' });
    expect(browser.index).toBe(1);
    send({ type: 'dialogDismissed' });
    expect(status()).toBe('loaded');
    expect(browser.index).toBe(0);
    // Opened again: a new entry where the old one was, not a second one.
    send({ type: 'selectionOpened' });
    expect(browser.index).toBe(1);
    expect(browser.length).toBe(2);
  });

  it('a payment made closes the dialog and gives its entry back', () => {
    const { browser, send, status } = setUp(STATES.paying);
    expect(browser.index).toBe(1);
    send({ type: 'authorizationSubmitted' });
    expect(browser.index).toBe(1);
    send({ type: 'paymentAuthorized' });
    expect(status()).not.toBe('authorizing');
    expect(openDialog(STATES[status()])).toBeNull();
    expect(browser.index).toBe(0);
  });

  it('Back while a card is being authorized keeps the dialog and takes the entry again', () => {
    const { browser, send, back, status } = setUp(STATES.paying);
    send({ type: 'authorizationSubmitted' });
    back();
    expect(status()).toBe('authorizing');
    expect(browser.index).toBe(1);
    // The bank's refusal brings the payment view back; Back closes it now.
    send({ type: 'authorizationFailed' });
    expect(status()).toBe('paying');
    back();
    expect(status()).toBe('loaded');
  });

  it('Back cancels the discard confirmation and keeps the results', () => {
    const { browser, send, back, status, store } = setUp(STATES.complete);
    expect(browser.length).toBe(1);
    send({ type: 'discardRequested', action: 'remove' });
    const confirming = store.getState().state;
    // The fixture's files are not all downloaded, so Remove asks first.
    expect(confirming.status === 'complete' && confirming.confirming).toBe('remove');
    expect(browser.index).toBe(1);
    back();
    expect(status()).toBe('complete');
    const after = store.getState().state;
    expect(after.status === 'complete' && after.confirming).toBeNull();
  });

  it('Forward onto the entry of a dialog since closed is given back', () => {
    const { browser, send, back, forward, status } = setUp(STATES.loaded);
    send({ type: 'selectionOpened' });
    back();
    expect(status()).toBe('loaded');
    forward();
    // The dialog is not opened by Forward, and the entry does not stay to swallow the next Back.
    expect(status()).toBe('loaded');
    expect(browser.index).toBe(0);
  });

  it("an entry left by the page before a reload is not the page's: it is neither given back nor reused", () => {
    const stale = { 'placeport-dialog': 'an earlier page' };
    const { browser, send, back, status } = setUp(STATES.loaded, stale);
    // Not given back: going back to it would load the page again.
    expect(browser.index).toBe(0);
    send({ type: 'selectionOpened' });
    expect(browser.index).toBe(1);
    back();
    expect(status()).toBe('loaded');
    expect(browser.index).toBe(0);
  });

  it('stopping removes the listener', () => {
    const { browser, stop, send, status } = setUp(STATES.loaded);
    stop();
    expect(browser.listeners.size).toBe(0);
    send({ type: 'selectionOpened' });
    expect(status()).toBe('selecting');
    expect(browser.length).toBe(1);
  });
});
