import { type RefObject, useEffect } from 'react';

/**
 * Brings a card that has just appeared (processing, results) into view and moves focus to its
 * heading, so neither a sighted nor a screen-reader user misses that the page moved on.
 */
export function useReveal(heading: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = heading.current;
    if (!element) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    element.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
    element.focus({ preventScroll: true });
  }, [heading]);
}
