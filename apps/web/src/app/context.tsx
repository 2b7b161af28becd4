/**
 * Hands the store and the effects to components, so tests can mount any part of the page with
 * their own store and a fake worker.
 */
import { Tooltip } from 'radix-ui';
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { Effects } from '../state/effects';
import type { AppStore, AppStoreApi } from '../state/store';

export interface AppServices {
  store: AppStoreApi;
  effects: Effects;
}

/** The seed's tooltip open delay (section 9). */
export const TOOLTIP_DELAY_MS = 700;

const AppContext = createContext<AppServices | null>(null);

/** Provides the services, and the tooltip timing every tooltip of the page shares. */
export function AppProvider({
  services,
  children,
}: {
  services: AppServices;
  children: ReactNode;
}) {
  return (
    <AppContext.Provider value={services}>
      <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS}>{children}</Tooltip.Provider>
    </AppContext.Provider>
  );
}

function useServices(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('AppProvider is missing above this component.');
  return services;
}

/** Reads from the store; the selector must return a stable value (a field, not a new object). */
export function useApp<T>(selector: (store: AppStore) => T): T {
  return useStore(useServices().store, selector);
}

/** The store itself, for effects that follow its changes. */
export function useStoreApi(): AppStoreApi {
  return useServices().store;
}

/** The effects: what a button does beyond reporting an event. */
export function useEffects(): Effects {
  return useServices().effects;
}

/** Sends an event to the machine. */
export function useSend(): AppStore['send'] {
  return useApp((store) => store.send);
}
