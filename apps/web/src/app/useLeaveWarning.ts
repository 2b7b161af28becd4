import { useEffect } from 'react';
import { watchLeaveWarning } from '../state/leaveWarning';
import { useStoreApi } from './context';

/**
 * While the converter page is shown, the browser asks before the tab is closed, reloaded or
 * navigated away during a conversion or with results not yet downloaded (state/leaveWarning.ts).
 */
export function useLeaveWarning(): void {
  const store = useStoreApi();
  useEffect(() => watchLeaveWarning(store, window), [store]);
}
