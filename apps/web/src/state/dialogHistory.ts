/**
 * The browser's Back closes the page's dialogs, as it does on a phone's app: while the list dialog
 * (selection or payment) or the discard confirmation is open, the page holds one history entry of
 * its own, and Back leaves that entry, which closes the dialog (as Escape does) instead of leaving
 * the site and the archive chosen with it. Closed any other way (Escape, Cancel, a payment made),
 * the dialog gives its entry back, so the history holds no step of ours once the dialog is gone.
 * The page has one address and no router: the entry changes neither the URL nor the title.
 */
import type { AppStoreApi } from './store';
import type { AppEvent, AppState } from './types';

/** The mark on the page's own history entry, in `history.state`. */
export const DIALOG_ENTRY = 'placeport-dialog';

/** Which dialog the state shows, if any. */
export function openDialog(state: AppState): 'list' | 'discard' | null {
  switch (state.status) {
    case 'selecting':
    case 'awaitingIntent':
    case 'paying':
    case 'authorizing':
      return 'list';
    case 'complete':
      return state.confirming ? 'discard' : null;
    default:
      return null;
  }
}

/**
 * What Back does to the dialog open in `state`: the event that closes it as Escape would; null
 * while a card is being authorized, whose dialog stays until the bank answers.
 */
export function backEvent(state: AppState): AppEvent | null {
  const dialog = openDialog(state);
  if (dialog === 'list') return state.status === 'authorizing' ? null : { type: 'dialogDismissed' };
  if (dialog === 'discard') return { type: 'discardCancelled' };
  return null;
}

/** The window's parts used: its history and its `popstate` events (a stand-in in tests). */
export interface HistoryWindow {
  history: Pick<History, 'state' | 'pushState' | 'back'>;
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

/**
 * Keeps the page's history entry exactly while a dialog is open, and closes the dialog when Back
 * leaves the entry. Returns the function that stops it (the entry, if any, is left as it is).
 */
export function watchDialogHistory(store: AppStoreApi, win: HistoryWindow): () => void {
  /**
   * The mark of this page's entries. An entry the page left before a reload (the browser keeps
   * `history.state`) is not ours: giving it back would go to an entry of the page before the
   * reload, and load the page again.
   */
  const mark = `${Date.now()}-${Math.random()}`;
  const onOurEntry = (): boolean => {
    const entry: unknown = win.history.state;
    return typeof entry === 'object' && entry !== null && DIALOG_ENTRY in entry
      ? (entry as Record<string, unknown>)[DIALOG_ENTRY] === mark
      : false;
  };
  /** Back was called by the page itself, to give its entry back: its popstate is not the person's. */
  let givingBack = false;

  /** Adds the entry when a dialog is open without one, gives it back when none is open. */
  const reconcile = (state: AppState) => {
    const open = openDialog(state) !== null;
    if (open && !onOurEntry()) {
      win.history.pushState({ [DIALOG_ENTRY]: mark }, '');
    } else if (!open && onOurEntry() && !givingBack) {
      givingBack = true;
      win.history.back();
    }
  };

  const onPopState = () => {
    const state = store.getState().state;
    if (givingBack) {
      givingBack = false;
      reconcile(state);
      return;
    }
    // Forward onto the entry of a dialog since closed: it is given back again.
    if (onOurEntry()) return reconcile(state);
    if (openDialog(state) === null) return;
    const event = backEvent(state);
    // The dialog that cannot close now (a card being authorized) takes its entry again.
    if (event) store.getState().send(event);
    else reconcile(state);
  };

  win.addEventListener('popstate', onPopState);
  reconcile(store.getState().state);
  const unsubscribe = store.subscribe((next, previous) => {
    if (next.state !== previous.state) reconcile(next.state);
  });
  return () => {
    unsubscribe();
    win.removeEventListener('popstate', onPopState);
  };
}
