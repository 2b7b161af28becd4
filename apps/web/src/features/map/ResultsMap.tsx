/**
 * Where the results' map goes on the page. The map's code, its world outline and its styles are a
 * chunk of their own, fetched only once results with placed places are shown; the rest of the
 * results never waits for it, and a chunk that fails to load leaves a sentence, not a broken page.
 */
import { Component, lazy, type ReactNode, Suspense } from 'react';
import { useApp } from '../../app/context';

const MapView = lazy(() => import('./MapView'));

/** Catches a map that could not be loaded (a failed chunk request) or drawn. */
class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('The map could not be shown', error);
  }

  override render(): ReactNode {
    return this.state.failed ? (
      <p className="map-status">The map could not be shown.</p>
    ) : (
      this.props.children
    );
  }
}

/** The map of the converted places, once the run is complete and some place has coordinates. */
export function ResultsMap() {
  const placed = useApp((store) =>
    store.state.status === 'complete' ? store.state.totals.converted : 0,
  );
  if (placed === 0) return null;
  return (
    <MapBoundary>
      <Suspense fallback={<p className="map-status">Loading the map…</p>}>
        <MapView />
      </Suspense>
    </MapBoundary>
  );
}
