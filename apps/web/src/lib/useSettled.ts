import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `ms`; the first value at once. For a live region that
 * should say where things settled, not every step of a burst (a run moving on to its next list
 * passes through three stages within milliseconds).
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return undefined;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}
