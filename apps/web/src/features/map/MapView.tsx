/**
 * The results' map, loaded on its own (`ResultsMap` imports this module lazily): it asks the worker
 * for the run's placed places when it mounts, and draws them on the world's outline, per list or
 * for all lists. A dot's name shows on pointer hover, or with the arrow keys on the focused map.
 */
import {
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useApp, useEffects } from '../../app/context';
import { formatCount } from '../../lib/format';
import type { FileResult } from '../../state/types';
import type { MapPoints } from '../../worker/types';
import { drawMap, HIT_RADIUS, mapHeight } from './draw';
import { nearestPoint, type PointGrid } from './grid';
import { ALL_LISTS, listOptions, type MapSelection, selectPoints } from './view';
import './map.css';

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; data: MapPoints };

/** The width drawn at when the frame cannot be measured (a test's DOM has no layout). */
const FALLBACK_WIDTH = 640;

/**
 * Pixels above a dot a name needs to show above it: the tooltip's three lines at most (map.css),
 * its padding and its gap. A dot nearer the top has its name below it, not cut off by the frame.
 */
const TOOLTIP_ROOM = 80;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

/** The map section of the results: its heading, then the map, or why there is none. */
export default function MapView() {
  const effects = useEffects();
  const results = useApp((store) =>
    store.state.status === 'complete' ? store.state.results : NO_RESULTS,
  );
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    effects.loadMapPoints().then(
      (data) => {
        if (live) setLoaded({ status: 'ready', data });
      },
      (error: unknown) => {
        console.warn('The map could not be loaded', error);
        if (live) setLoaded({ status: 'failed', message: messageOf(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [effects]);

  if (loaded.status === 'ready' && loaded.data.lists.length === 0) return null;
  const missing = loaded.status === 'ready' ? unmapped(results, loaded.data) : [];
  return (
    <section className="results-map" aria-labelledby="results-map-title">
      <h3 id="results-map-title">Where your places landed</h3>
      {loaded.status === 'loading' && <p className="map-status">Loading the map…</p>}
      {loaded.status === 'failed' && (
        <p className="map-status">{`The map could not be shown. ${loaded.message}`.trim()}</p>
      )}
      {loaded.status === 'ready' && <PlaceMap data={loaded.data} />}
      {missing.length > 0 && <UnmappedNote lists={missing} />}
    </section>
  );
}

const NO_RESULTS: readonly FileResult[] = [];

/**
 * The run's lists that hold places but have none on the map (none could be placed, or the list
 * could not be read): the map's count and list picker leave them out, so it says which.
 */
function unmapped(results: readonly FileResult[], data: MapPoints): FileResult[] {
  const drawn = new Set(data.lists.map((list) => list.path));
  return results.filter((result) => !result.empty && !drawn.has(result.path));
}

/** Says which lists of the run are not on the map, and why (their results above say more). */
function UnmappedNote({ lists }: { lists: readonly FileResult[] }) {
  const [only] = lists;
  return (
    <p className="map-unmapped">
      {lists.length === 1 && only ? (
        <>
          Not on the map: “<bdi>{only.name}</bdi>”, none of whose places could be placed (its
          results above say why).
        </>
      ) : (
        `Not on the map: ${formatCount(lists.length)} lists none of whose places could be placed (their results above say why).`
      )}
    </p>
  );
}

/** The frame's width in whole CSS pixels, followed as the page is resized. */
function useWidth(frame: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.clientWidth) || FALLBACK_WIDTH);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [frame]);
  return width;
}

/** A finished drawing: the grid of its points, and what was drawn. */
interface Drawn {
  selection: MapSelection;
  width: number;
  grid: PointGrid;
}

/** The place whose name shows, and whether the pointer or the keyboard chose it. */
interface Shown {
  selection: MapSelection;
  index: number;
  by: 'pointer' | 'keyboard';
}

const STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

function PlaceMap({ data }: { data: MapPoints }) {
  const selectId = useId();
  const hintId = useId();
  const [choice, setChoice] = useState(ALL_LISTS);
  const selection = useMemo(() => selectPoints(data, choice), [data, choice]);
  const options = useMemo(() => listOptions(data.lists), [data]);
  const frame = useRef<HTMLDivElement>(null);
  const base = useRef<HTMLCanvasElement>(null);
  const dots = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const height = mapHeight(width);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    const [below, above] = [base.current, dots.current];
    if (!below || !above || width === 0) return;
    // A newer drawing (another list, another width) stops this one at its next slice.
    let cancelled = false;
    drawMap({ base: below, dots: above }, selection.coordinates, width, height, {
      cancelled: () => cancelled,
    }).then(
      (grid) => {
        if (grid && !cancelled) setDrawn({ selection, width, grid });
      },
      (error: unknown) => console.warn('The map could not be drawn', error),
    );
    return () => {
      cancelled = true;
    };
  }, [selection, width, height]);

  const grid = drawn && drawn.selection === selection && drawn.width === width ? drawn.grid : null;
  const current = grid && shown?.selection === selection ? shown : null;
  const { count } = selection;

  function pointAt(event: PointerEvent<HTMLCanvasElement>): void {
    if (!grid) return;
    const box = event.currentTarget.getBoundingClientRect();
    const index = nearestPoint(grid, event.clientX - box.left, event.clientY - box.top, HIT_RADIUS);
    if (index === current?.index && current.by === 'pointer') return;
    setShown(index < 0 ? null : { selection, index, by: 'pointer' });
  }

  function step(event: KeyboardEvent<HTMLCanvasElement>): void {
    if (event.key === 'Escape') {
      setShown(null);
      return;
    }
    const move = STEPS[event.key];
    if (!move || !grid || count === 0) return;
    event.preventDefault();
    const from = current?.by === 'keyboard' ? current.index : -1;
    const index = from < 0 ? (event.key === 'End' ? count - 1 : 0) : move(from, count);
    setShown({ selection, index, by: 'keyboard' });
  }

  const at: [number, number] | null =
    current && grid ? [grid.xy[2 * current.index]!, grid.xy[2 * current.index + 1]!] : null;
  const name = current ? selection.nameAt(current.index) : undefined;
  const side = at ? (at[0] < width / 3 ? 'start' : at[0] > (2 * width) / 3 ? 'end' : 'middle') : '';

  return (
    <>
      {options.length > 2 && (
        <div className="map-choice">
          <label htmlFor={selectId}>Show</label>
          <select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <figure
        className="results-map-figure"
        data-state={grid ? 'drawn' : 'drawing'}
        aria-busy={grid ? undefined : true}
      >
        <div className="map-frame" ref={frame} style={{ height }}>
          <canvas ref={base} className="map-base" aria-hidden style={{ width, height }} />
          <canvas
            ref={dots}
            role="img"
            aria-label={selection.label}
            aria-describedby={hintId}
            tabIndex={0}
            style={{ width, height }}
            onPointerMove={pointAt}
            onPointerDown={pointAt}
            onPointerLeave={() => current?.by === 'pointer' && setShown(null)}
            onKeyDown={step}
            onBlur={() => current?.by === 'keyboard' && setShown(null)}
          />
          {at && name !== undefined && (
            <>
              <span className="map-marker" style={{ left: at[0], top: at[1] }} aria-hidden />
              <div
                className={`map-tooltip is-${side}${at[1] < TOOLTIP_ROOM ? ' is-below' : ''}`}
                role="tooltip"
                dir="auto"
                style={{ left: at[0], top: at[1] }}
              >
                <span className="map-tooltip-text">{name}</span>
              </div>
            </>
          )}
        </div>
        <figcaption id={hintId}>
          Point at a dot to see the place’s name, or focus the map and use the arrow keys.
        </figcaption>
      </figure>
      <p className="visually-hidden" aria-live="polite">
        {current?.by === 'keyboard' && name !== undefined
          ? `${name} (${current.index + 1} of ${count})`
          : ''}
      </p>
    </>
  );
}
