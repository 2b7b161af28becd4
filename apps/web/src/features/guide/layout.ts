import { useSyncExternalStore } from 'react';

/**
 * From this width up the page keeps the seed's order (the guide above the upload card); the same
 * breakpoint as the stylesheet's `min-width: 640px`.
 */
export const GUIDE_FIRST_QUERY = '(min-width: 640px)';

function query(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(GUIDE_FIRST_QUERY)
    : null;
}

function subscribe(onChange: () => void): () => void {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

function guideFirstNow(): boolean {
  return query()?.matches ?? true;
}

/**
 * Whether the "How to Use This Converter" card comes before the upload card. True at desktop
 * widths (the seed's order). On a phone the guide is taller than the screen, so the upload card
 * comes first and its Choose File button is visible without scrolling; the guide follows it.
 * The order is changed in the document, not only on screen, so reading and Tab order match what
 * is seen. Without `matchMedia` the seed's order is kept.
 */
export function useGuideFirst(): boolean {
  return useSyncExternalStore(subscribe, guideFirstNow, () => true);
}
