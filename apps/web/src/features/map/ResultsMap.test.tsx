import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AppState, FileResult } from '../../state/types';
import { fakeConverter, mount, RESULT, STATES } from '../../test/fixtures';
import { linesOf } from '../../test/reads';
import { listPoints, WANT_TO_GO } from '../../test/map-points';
import type { MapPoints } from '../../worker/types';
import { mapHeight } from './draw';
import { makeProjection } from './projection';
import { ResultsMap } from './ResultsMap';

type Complete = Extract<AppState, { status: 'complete' }>;

/** The width the map draws at when the test DOM cannot measure its frame. */
const TEST_WIDTH = 640;

const PARIS = listPoints('Takeout/Saved/Paris.csv', 'Paris', [[2.35, 48.86, 'Louvre']]);
const POINTS: MapPoints = { lists: [WANT_TO_GO, PARIS] };

function mountMap(points: () => ReturnType<ReturnType<typeof fakeConverter>['points']>) {
  const converter = fakeConverter({ points });
  return mount(<ResultsMap />, { state: STATES.complete, converter });
}

/** What the map's live region says to a screen reader (the place the arrow keys reached). */
function announced(): string | null | undefined {
  return document.querySelector('[aria-live]')?.textContent;
}

/** Where the map draws a point, computed as the component does. */
function positionOf(coordinates: Float64Array, lng: number, lat: number): [number, number] {
  return makeProjection(coordinates, TEST_WIDTH, mapHeight(TEST_WIDTH))([lng, lat])!;
}

describe('ResultsMap', () => {
  it('asks the worker for the points and names the map for every list', async () => {
    let asked = 0;
    mountMap(async () => {
      asked += 1;
      return { ok: true, value: POINTS };
    });
    const map = await screen.findByRole('img', { name: 'Map of 3 places in 2 lists' });
    expect(asked).toBe(1);
    expect(screen.getByRole('region', { name: 'Where your places landed' }).contains(map)).toBe(
      true,
    );
    screen.getByRole('img', {
      name: 'Map of 3 places in 2 lists',
      description:
        'Point at a dot to see the place’s name, or focus the map and use the arrow keys.',
    });
    const select = screen.getByRole('combobox', { name: 'Show' });
    expect([...(select as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'All lists',
      'Want to go',
      'Paris',
    ]);
  });

  it('says which lists of the run are not on the map: none of their places could be placed', async () => {
    const placed = { ...RESULT, path: PARIS.path, name: 'Paris' };
    const none = {
      ...RESULT,
      path: 'Takeout/Saved/Nowhere.csv',
      name: 'Nowhere',
      counts: { total: 4, converted: 0, skipped: 4 },
    };
    const empty = { ...RESULT, path: 'Takeout/Saved/Empty.csv', name: 'Empty', empty: true };
    const complete = (results: FileResult[]): Complete => ({
      ...(STATES.complete as Complete),
      results,
    });
    const converter = fakeConverter({ points: async () => ({ ok: true, value: POINTS }) });
    const one = mount(<ResultsMap />, {
      state: complete([RESULT, placed, none, empty]),
      converter,
    });
    await screen.findByRole('img', { name: 'Map of 3 places in 2 lists' });
    expect(screen.getByText(/^Not on the map:/).textContent).toBe(
      'Not on the map: “Nowhere”, none of whose places could be placed (its results above say why).',
    );
    one.unmount();

    mount(<ResultsMap />, {
      state: complete([RESULT, placed, none, { ...none, path: 'b.csv', name: 'B' }]),
      converter,
    });
    await screen.findByRole('img', { name: 'Map of 3 places in 2 lists' });
    expect(screen.getByText(/^Not on the map:/).textContent).toBe(
      'Not on the map: 2 lists none of whose places could be placed (their results above say why).',
    );
  });

  it('says nothing more when every list of the run is on the map', async () => {
    const placed = { ...RESULT, path: PARIS.path, name: 'Paris' };
    mount(<ResultsMap />, {
      state: { ...(STATES.complete as Complete), results: [RESULT, placed] },
      converter: fakeConverter({ points: async () => ({ ok: true, value: POINTS }) }),
    });
    await screen.findByRole('img', { name: 'Map of 3 places in 2 lists' });
    expect(screen.queryByText(/Not on the map/)).toBeNull();
  });

  it('shows one list when it is chosen', async () => {
    mountMap(async () => ({ ok: true, value: POINTS }));
    const select = await screen.findByRole('combobox', { name: 'Show' });
    fireEvent.change(select, { target: { value: PARIS.path } });
    await screen.findByRole('img', { name: 'Map of 1 place in Paris' });
  });

  it('has no selector for a single list', async () => {
    mountMap(async () => ({ ok: true, value: { lists: [WANT_TO_GO] } }));
    await screen.findByRole('img', { name: 'Map of 2 places in Want to go' });
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('shows the name of the point under the pointer once drawn', async () => {
    mountMap(async () => ({ ok: true, value: { lists: [WANT_TO_GO] } }));
    const map = await screen.findByRole('img', { name: 'Map of 2 places in Want to go' });
    await screen.findByRole('figure', { busy: false });
    const [x, y] = positionOf(WANT_TO_GO.coordinates, 139.69, 35.68);
    fireEvent.pointerMove(map, { clientX: x + 3, clientY: y - 2 });
    expect(screen.getByRole('tooltip').textContent).toBe('Shrine B');
    fireEvent.pointerMove(map, { clientX: x + 30, clientY: y + 30 });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('steps from place to place with the arrow keys, and says where it is', async () => {
    mountMap(async () => ({ ok: true, value: { lists: [WANT_TO_GO] } }));
    const map = await screen.findByRole('img', { name: 'Map of 2 places in Want to go' });
    await screen.findByRole('figure', { busy: false });
    act(() => map.focus());
    fireEvent.keyDown(map, { key: 'ArrowRight' });
    expect(screen.getByRole('tooltip').textContent).toBe('Café A');
    expect(announced()).toBe('Café A (1 of 2)');
    fireEvent.keyDown(map, { key: 'ArrowRight' });
    expect(announced()).toBe('Shrine B (2 of 2)');
    fireEvent.keyDown(map, { key: 'ArrowRight' });
    expect(announced()).toBe('Café A (1 of 2)');
    fireEvent.keyDown(map, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(announced()).toBe('');
  });

  it('says so when the worker cannot give the points', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mountMap(async () => ({ ok: false, error: { code: 'no-archive', message: 'Gone.' } }));
    const region = screen.getByRole('region', { name: 'Where your places landed' });
    await screen.findByText(/could not be shown/);
    expect(linesOf(region)).toEqual([
      'Where your places landed',
      'The map could not be shown. Gone.',
    ]);
    expect(screen.queryByRole('img')).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('offers to try again when its chunk could not be loaded, and loads it afresh', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const real = await import('./MapView');
    let loads = 0;
    const load = () => {
      loads += 1;
      return loads === 1
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : Promise.resolve(real);
    };
    const converter = fakeConverter({ points: async () => ({ ok: true, value: POINTS }) });
    mount(<ResultsMap load={load} />, { state: STATES.complete, converter });
    const again = await screen.findByRole('button', { name: 'Try again' });
    expect(screen.getByText('The map could not be shown.')).toBeTruthy();
    expect(warn).toHaveBeenCalled();
    again.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('img', { name: 'Map of 3 places in 2 lists' });
    expect(loads).toBe(2);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('is not there when no place was converted, and asks the worker nothing', () => {
    const converter = fakeConverter();
    const state: AppState = {
      ...(STATES.complete as Complete),
      totals: { total: 3, converted: 0, skipped: 3 },
    };
    const { container } = mount(<ResultsMap />, { state, converter });
    expect(container.textContent).toBe('');
    expect(converter.calls).not.toContain('points');
  });
});
