/**
 * Where the results' map goes on the page. The map's code, its world outline and its styles are a
 * chunk of their own, fetched only once results with placed places are shown; the rest of the
 * results never waits for it, and a chunk that fails to load (the connection or the server away)
 * leaves a sentence and "Try again", which asks for the chunk again.
 */
import {
  Component,
  type ComponentType,
  lazy,
  type LazyExoticComponent,
  type ReactNode,
  Suspense,
  useState,
} from 'react';
import { useApp } from '../../app/context';

/** What the map's chunk gives: its component. */
export interface MapModule {
  default: ComponentType;
}

/**
 * Whether a stylesheet's rules are there: a request that failed leaves no sheet, or (Chromium, for
 * the CORS requests Vite makes) a sheet whose rules cannot be read.
 */
function stylesheetLoaded(link: HTMLLinkElement): boolean {
  try {
    return link.sheet !== null && link.sheet.cssRules.length >= 0;
  } catch {
    return false;
  }
}

/**
 * Asks again for the page's stylesheets that failed to load, and waits for them; rejects when one
 * fails again. A lazy chunk's stylesheet is asked for once by Vite's preload helper, which then
 * remembers it as asked for, failed or not: without this, a retried chunk would come unstyled.
 */
export async function reloadFailedStylesheets(doc: Document): Promise<void> {
  const failed = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
    (link) => !stylesheetLoaded(link),
  );
  await Promise.all(
    failed.map(
      (link) =>
        new Promise<void>((resolve, reject) => {
          const fresh = link.cloneNode() as HTMLLinkElement;
          fresh.addEventListener('load', () => resolve(), { once: true });
          fresh.addEventListener(
            'error',
            () => reject(new Error(`The stylesheet ${link.href} could not be loaded.`)),
            { once: true },
          );
          link.replaceWith(fresh);
        }),
    ),
  );
}

/**
 * Fetches the map's chunk. A call after a failed one asks for it again: a fresh `import()` (the
 * browser does not keep a failed fetch) and the stylesheets that failed.
 */
export async function loadMapView(): Promise<MapModule> {
  await reloadFailedStylesheets(document);
  return import('./MapView');
}

type MapLoader = () => Promise<MapModule>;

/**
 * The map's lazy component for each loader, kept so a results card shown again draws the map at
 * once. React.lazy keeps a failed load for good, so a retry replaces it ({@link freshMapView}).
 */
const mapViews = new WeakMap<MapLoader, LazyExoticComponent<ComponentType>>();

/** The lazy component kept for `load`, made on first use. */
function mapViewFor(load: MapLoader): LazyExoticComponent<ComponentType> {
  const kept = mapViews.get(load) ?? lazy(load);
  mapViews.set(load, kept);
  return kept;
}

/** A new lazy component over a new call of `load`, kept in place of the one that failed. */
function freshMapView(load: MapLoader): LazyExoticComponent<ComponentType> {
  mapViews.delete(load);
  return mapViewFor(load);
}

interface MapBoundaryProps {
  children: ReactNode;
  /** Asks for the map again: the boundary shows its children once more. */
  onRetry: () => void;
}

/** Catches a map that could not be loaded (a failed chunk request) or drawn, and offers a retry. */
class MapBoundary extends Component<MapBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('The map could not be shown', error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="map-failed">
        <p>The map could not be shown.</p>
        <button
          type="button"
          className="button small"
          onClick={() => {
            this.props.onRetry();
            this.setState({ failed: false });
          }}
        >
          Try again
        </button>
      </div>
    );
  }
}

/**
 * The map of the converted places, once the run is complete and some place has coordinates.
 * `load` fetches the map's module ({@link loadMapView}; tests give their own); "Try again" calls
 * it anew.
 */
export function ResultsMap({ load = loadMapView }: { load?: MapLoader }) {
  const placed = useApp((store) =>
    store.state.status === 'complete' ? store.state.totals.converted : 0,
  );
  const [MapView, setMapView] = useState(() => mapViewFor(load));
  if (placed === 0) return null;
  return (
    <MapBoundary onRetry={() => setMapView(() => freshMapView(load))}>
      <Suspense fallback={<p className="map-status">Loading the map…</p>}>
        <MapView />
      </Suspense>
    </MapBoundary>
  );
}
