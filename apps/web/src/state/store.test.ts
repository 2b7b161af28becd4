import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATES } from '../test/fixtures';
import { INITIAL_STATE } from './machine';
import { createAppStore, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from './store';

afterEach(() => {
  vi.useRealTimers();
});

describe('app store', () => {
  it('changes state only through events, and keeps the object when an event is ignored', () => {
    const store = createAppStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.getState().send({ type: 'selectionOpened' });
    expect(store.getState().state).toBe(INITIAL_STATE);
    expect(listener).not.toHaveBeenCalled();
    store.getState().send({ type: 'fileChosen', fileId: 1, file: { name: 'a.zip', size: 1 } });
    expect(store.getState().state.status).toBe('inspecting');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('starts in a given state (for tests and screenshots)', () => {
    expect(createAppStore(STATES.loaded).getState().state).toBe(STATES.loaded);
  });

  it('shows one toast at a time, the newest', () => {
    expect(TOAST_LIMIT).toBe(1);
    const store = createAppStore();
    store.getState().toast({ title: 'Payment Error', description: 'first' });
    store
      .getState()
      .toast({ title: 'Payment Failed', description: 'second', variant: 'destructive' });
    expect(store.getState().toasts).toEqual([
      { id: 2, title: 'Payment Failed', description: 'second', variant: 'destructive', open: true },
    ]);
  });

  it('closes a dismissed toast at once and forgets it 1,000,000 ms later', () => {
    vi.useFakeTimers();
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    const store = createAppStore();
    store.getState().toast({ title: 'Payment Authorized' });
    const [toast] = store.getState().toasts;
    store.getState().dismissToast(toast!.id);
    expect(store.getState().toasts).toEqual([{ ...toast, open: false }]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toEqual([]);
  });
});
