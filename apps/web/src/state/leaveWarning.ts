/**
 * The page warns before it is left while converting or while results are not downloaded
 * (product.md "Money"): files are made in this tab and stored nowhere, and a conversion left
 * half-way is lost; it also warns while a payment is being authorized, whose answer the page
 * would not get. The rule is a pure function of the state; {@link watchLeaveWarning} is the
 * effect that keeps a `beforeunload` listener on the window exactly while the rule holds.
 */
import { hasUndownloaded } from './machine';
import type { AppStoreApi } from './store';
import type { AppState } from './types';

/**
 * True while leaving would lose work: while a card authorization is being made (its answer would
 * be lost with the page), during the conversion (validating, extracting, converting, preparing),
 * and on the results while any of their files (map files and failed-places CSVs) has not been
 * downloaded, in some format or inside the ZIP of "Download all".
 */
export function leaveWarningArmed(state: AppState): boolean {
  if (state.status === 'complete') return hasUndownloaded(state);
  return state.status === 'authorizing' || 'progress' in state;
}

/**
 * Asks the browser to confirm leaving. `preventDefault` is the standard way; Chromium also wants
 * `returnValue` set. Browsers show their own text, never the page's.
 */
export function warnBeforeLeaving(event: BeforeUnloadEvent): void {
  event.preventDefault();
  event.returnValue = '';
}

/** Where the listener goes: the window, or a stand-in in tests. */
export type LeaveTarget = Pick<Window, 'addEventListener' | 'removeEventListener'>;

/**
 * Keeps {@link warnBeforeLeaving} on `target`'s `beforeunload` while {@link leaveWarningArmed}
 * holds for the store's state, adding and removing it as the state changes: the page never asks
 * when nothing would be lost, and some browsers keep a page with such a listener out of their
 * back/forward cache. Returns the function that stops it.
 */
export function watchLeaveWarning(store: AppStoreApi, target: LeaveTarget): () => void {
  let armed = false;
  const update = (state: AppState) => {
    const next = leaveWarningArmed(state);
    if (next === armed) return;
    armed = next;
    if (armed) target.addEventListener('beforeunload', warnBeforeLeaving);
    else target.removeEventListener('beforeunload', warnBeforeLeaving);
  };
  update(store.getState().state);
  const unsubscribe = store.subscribe((next, previous) => {
    if (next.state !== previous.state) update(next.state);
  });
  return () => {
    unsubscribe();
    if (armed) target.removeEventListener('beforeunload', warnBeforeLeaving);
    armed = false;
  };
}
