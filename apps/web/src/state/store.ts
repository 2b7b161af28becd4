/**
 * The page's zustand store: the machine's state changed only through `send(event)`, the runtime
 * config, and the one toast on screen. A factory, so every test and every page gets its own.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type AppConfig, DEFAULT_CONFIG } from '../api/config';
import { INITIAL_STATE, transition } from './machine';
import type { AppEvent, AppState, LastVisit } from './types';

/** The seed's toast limits (section 9): one visible, removed 1,000,000 ms after dismissal. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
  open: boolean;
}

export interface AppStore {
  state: AppState;
  /** The config as loaded: until the API answers, the defaults are shown. */
  config: { loaded: boolean; value: AppConfig };
  /** Newest first, at most {@link TOAST_LIMIT}. */
  toasts: readonly ToastMessage[];
  /** A payment an earlier visit left unsettled, once the API has said where it stands. */
  lastVisit: LastVisit | null;
  /** Reports what happened; the machine decides what it means. */
  send(event: AppEvent): void;
  configLoaded(config: AppConfig): void;
  lastVisitChanged(lastVisit: LastVisit | null): void;
  toast(
    message: Omit<ToastMessage, 'id' | 'open' | 'variant'> & { variant?: ToastMessage['variant'] },
  ): void;
  /** Closes a toast; it is forgotten {@link TOAST_REMOVE_DELAY_MS} later. */
  dismissToast(id: number): void;
}

export type AppStoreApi = StoreApi<AppStore>;

export function createAppStore(initial: AppState = INITIAL_STATE): AppStoreApi {
  let nextToastId = 1;
  return createStore<AppStore>()((set, get) => ({
    state: initial,
    config: { loaded: false, value: DEFAULT_CONFIG },
    toasts: [],
    lastVisit: null,
    send(event) {
      const current = get().state;
      const next = transition(current, event);
      if (next !== current) set({ state: next });
    },
    configLoaded(config) {
      set({ config: { loaded: true, value: config } });
    },
    lastVisitChanged(lastVisit) {
      set({ lastVisit });
    },
    toast({ title, description, variant = 'default' }) {
      const toast: ToastMessage = { id: nextToastId++, title, variant, open: true };
      if (description !== undefined) toast.description = description;
      set({ toasts: [toast, ...get().toasts].slice(0, TOAST_LIMIT) });
    },
    dismissToast(id) {
      set({ toasts: get().toasts.map((t) => (t.id === id ? { ...t, open: false } : t)) });
      setTimeout(() => {
        set({ toasts: get().toasts.filter((t) => t.id !== id) });
      }, TOAST_REMOVE_DELAY_MS);
    },
  }));
}
