import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AppState } from '../../state/types';
import {
  listSummary,
  MANY_LISTS,
  MISSING_COLUMNS_PROBLEM,
  mount,
  STATES,
  TRUTH_LISTS,
} from '../../test/fixtures';
import type { ListSummary } from '../../worker/types';
import { lineMatching, linesOf } from '../../test/reads';
import { ListDialog } from './ListDialog';

/** The selection dialog over `lists`, with `selected` chosen (default: every convertible list). */
function open(
  lists: readonly ListSummary[],
  selected = lists.filter((list) => list.problem === undefined).map((list) => list.path),
) {
  const state = { ...STATES.selecting, lists, selected } as AppState;
  const mounted = mount(<ListDialog />, { state });
  return { ...mounted, dialog: screen.getByRole('dialog', { name: 'Select Lists to Convert' }) };
}

/** The row (list item) holding the checkbox named `name`. */
function rowOf(name: string | RegExp): HTMLElement {
  return screen.getByRole('checkbox', { name }).closest('li')!;
}

function selectedPaths(store: ReturnType<typeof open>['store']): string[] {
  const state = store.getState().state;
  return state.status === 'selecting' ? [...state.selected] : [];
}

describe('each row says what the list holds', () => {
  it('shows places and size, then how many carry coordinates and how many need a lookup', () => {
    open(TRUTH_LISTS);
    expect(linesOf(rowOf('Want to go'))).toEqual([
      'Want to go',
      '40 places · 5 KB',
      // One part a line: the facts wrap between parts, never inside one.
      '3 with coordinates',
      '\u00a0· ',
      '37 need a lookup',
    ]);
    expect(linesOf(rowOf('Day trip'))).toEqual([
      'Day trip',
      '4 places · 600 Bytes',
      '1 with coordinates',
      '\u00a0· ',
      '1 needs a lookup',
      '\u00a0· ',
      '1 without a location',
      '\u00a0· ',
      '1 without a usable link',
    ]);
  });

  it('shows no size for a retry list, which is no file of the archive', () => {
    const retry: ListSummary = {
      ...TRUTH_LISTS[0]!,
      path: 'retry:Takeout/Saved/Want to go.csv',
      name: 'Want to go (failed places)',
      outputName: 'Want to go (retry)',
      origin: { kind: 'retry', of: 'Takeout/Saved/Want to go.csv' },
      size: 0,
      rowCount: 36,
      withCoordinates: 0,
      needsLookup: 36,
    };
    open([retry]);
    expect(linesOf(rowOf('Want to go (failed places)'))).toEqual([
      'Want to go (failed places)',
      '36 places',
      '36 need a lookup',
    ]);
  });

  it('tags the starred places, and only them', () => {
    open(TRUTH_LISTS);
    expect(linesOf(rowOf('Saved Places'))).toEqual([
      'Saved Places',
      'Starred places',
      '12 places · 4 KB',
      '12 with coordinates',
    ]);
    expect(within(rowOf('Want to go')).queryByText('Starred places')).toBeNull();
  });

  it('describes each checkbox by those facts', () => {
    open(TRUTH_LISTS);
    // Found only with that exact name and description: the query is the assertion.
    screen.getByRole('checkbox', {
      name: 'Saved Places',
      description: 'Starred places 12 places · 4 KB 12 with coordinates',
    });
    screen.getByRole('checkbox', {
      name: 'Want to go',
      description: '40 places · 5 KB 3 with coordinates · 37 need a lookup',
    });
  });
});

describe('a dialog opened with the chosen lists below its fold (a retry at 390 px)', () => {
  it('shows the first chosen list, once, as it opens', () => {
    // A layout: rows 50 px high one under the other, in a list 100 px high.
    const rowTop = (row: Element) => [...row.parentElement!.children].indexOf(row) * 50;
    const rect = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: Element,
    ) {
      const top = this.tagName === 'LI' ? rowTop(this) : 0;
      return { top, height: 50, bottom: top + 50 } as DOMRect;
    });
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(100);
    try {
      const last = MANY_LISTS.at(-1)!;
      open(MANY_LISTS, [MANY_LISTS.at(-2)!.path, last.path]);
      const picker = screen.getByRole('list', { name: 'Saved place lists' });
      expect(picker.scrollTop).toBe((MANY_LISTS.length - 2) * 50);
    } finally {
      rect.mockRestore();
      height.mockRestore();
    }
  });

  it('leaves the list where it is when the first chosen list shows', () => {
    open(MANY_LISTS, [MANY_LISTS[0]!.path]);
    expect(screen.getByRole('list', { name: 'Saved place lists' }).scrollTop).toBe(0);
  });
});

describe('a list that cannot be converted', () => {
  it('shows why, with its checkbox disabled, unchecked and described by the reason', () => {
    open(TRUTH_LISTS);
    const box = screen.getByRole('checkbox', { name: 'Old export' });
    expect(box).toHaveProperty('disabled', true);
    expect(box.getAttribute('aria-checked')).toBe('false');
    const reason = within(rowOf('Old export')).getByText(
      `Can't be converted: ${MISSING_COLUMNS_PROBLEM}`,
    );
    expect(box.getAttribute('aria-describedby')?.split(' ')).toContain(reason.id);
    screen.getByRole('checkbox', {
      name: 'Old export',
      description: new RegExp(`^Can't be converted: ${MISSING_COLUMNS_PROBLEM}`),
    });
  });

  it('is never counted nor chosen, by click, by Select All or by its label', async () => {
    const { store } = open(TRUTH_LISTS);
    expect(lineMatching(/lists selected$/)).toBe('3 of 4 lists selected');
    expect(lineMatching(/in total$/)).toBe('56 places in total');
    // The 2 places of "Day trip" without a location (0,0) or a usable link are never in the charge.
    expect(lineMatching(/^Maximum charge/)).toBe('Maximum charge: $5.40');
    expect(lineMatching(/^Only converted places/)).toBe(
      'Only converted places are charged, at $0.10 each. 2 places without a location or a usable link are never charged.',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Old export' }));
    await userEvent.click(within(rowOf('Old export')).getByText('Old export'));
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(lineMatching(/lists selected$/)).toBe('3 of 4 lists selected');
    expect(lineMatching(/in total$/)).toBe('56 places in total');
    expect(screen.getByRole('checkbox', { name: 'Old export' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    expect(selectedPaths(store)).not.toContain('Takeout/Saved/Old export.csv');
  });
});

describe('a selection where no place can be placed', () => {
  it('says so before any payment, instead of offering to convert 0 places', () => {
    const nowhere = listSummary({
      path: 'Takeout/Saved/Nowhere.csv',
      name: 'Nowhere',
      rowCount: 10,
      size: 700,
      withCoordinates: 0,
      needsLookup: 0,
      withoutLocation: 10,
    });
    const { unmount } = open([nowhere]);
    expect(lineMatching(/in total$/)).toBe('10 places in total');
    expect(lineMatching(/^None of the places/)).toBe(
      'None of the places chosen can be placed: all 10 places are without a location. Converting makes no map file, only the list of them with the reason (nothing is charged).',
    );
    unmount();
    open([{ ...nowhere, rowCount: 1, withoutLocation: 0 }]);
    expect(lineMatching(/^None of the places/)).toBe(
      'None of the places chosen can be placed: it is without a usable link. Converting makes no map file, only the list of it with the reason (nothing is charged).',
    );
  });
});

describe('the maximum charge beside the place total', () => {
  it('is the places at $0.10, with the note that only converted places are charged', () => {
    mount(<ListDialog />, { state: STATES.selecting });
    expect(lineMatching(/in total$/)).toBe('40 places in total');
    expect(lineMatching(/^Maximum charge/)).toBe('Maximum charge: $4.00');
    expect(lineMatching(/^Only converted places/)).toBe(
      'Only converted places are charged, at $0.10 each.',
    );
  });

  it('follows the selection, and says when it is free under the minimum charge', async () => {
    open(TRUTH_LISTS, ['Takeout/Saved/Day trip.csv']);
    expect(lineMatching(/in total$/)).toBe('4 places in total');
    expect(lineMatching(/^Maximum charge/)).toBe('Maximum charge: $0.00 (free)');
    expect(lineMatching(/small enough/)).toBe(
      'Your selection is small enough to convert for free.',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Saved Places' }));
    expect(lineMatching(/^Maximum charge/)).toBe('Maximum charge: $1.40');
    expect(screen.queryByText(/small enough/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(lineMatching(/^Maximum charge/)).toBe('Maximum charge: $0.00');
  });
});

describe('a selection that holds no place', () => {
  it('cannot proceed, and says why, until a list with places is chosen', async () => {
    const empty = listSummary({
      path: 'Takeout/Saved/Test.csv',
      name: 'Test',
      rowCount: 0,
      size: 32,
    });
    const lists = [empty, ...TRUTH_LISTS.filter((list) => list.problem === undefined)];
    open(lists, [empty.path]);
    const proceed = screen.getByRole('button', { name: 'Proceed to Payment' });
    expect(proceed).toHaveProperty('disabled', true);
    expect(lineMatching(/hold no places/)).toBe(
      'The lists chosen hold no places: choose a list with places to convert it.',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Day trip' }));
    expect(proceed).toHaveProperty('disabled', false);
    expect(screen.queryByText(/hold no places/)).toBeNull();
  });
});

describe('the filter, past eight lists', () => {
  it('is offered only when there are more than eight lists', () => {
    open(MANY_LISTS.slice(0, 8));
    expect(screen.queryByRole('searchbox', { name: 'Filter lists' })).toBeNull();
    expect(screen.getAllByRole('checkbox')).toHaveLength(8);
  });

  it('narrows the rows by name, without regard to case or accents, and says how many show', async () => {
    open(MANY_LISTS);
    const filter = screen.getByRole('searchbox', { name: 'Filter lists' });
    expect(lineMatching(/^Showing/)).toBe('Showing all 12 lists');
    await userEvent.type(filter, 'CAFE');
    expect(linesOf(screen.getByRole('list', { name: 'Saved place lists' }))).toEqual([
      'Cafés à Paris',
      '18 places · 2.1 KB',
      '18 need a lookup',
      'Café crawl',
      '8 places · 960 Bytes',
      '8 need a lookup',
    ]);
    expect(lineMatching(/^Showing/)).toBe('Showing 2 of 12 lists');
    expect(lineMatching(/act on all/)).toBe(
      'Select All and Deselect All act on all 12 lists, shown or not.',
    );
  });

  it('narrows the rows by folder', async () => {
    open(MANY_LISTS);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter lists' }), 'takeout 2');
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    screen.getByRole('checkbox', { name: 'Want to go in Takeout 2/Saved' });
  });

  it('says when nothing matches', async () => {
    open(MANY_LISTS);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter lists' }), 'nowhere');
    expect(linesOf(screen.getByRole('list', { name: 'Saved place lists' }))).toEqual([
      'No list matches “nowhere”.',
    ]);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(lineMatching(/^Showing/)).toBe('Showing 0 of 12 lists');
  });

  it('never changes the selection, and Select All / Deselect All act on every list', async () => {
    const { store } = open(MANY_LISTS, [MANY_LISTS[4]!.path]);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter lists' }), 'cafe');
    expect(selectedPaths(store)).toEqual([MANY_LISTS[4]!.path]);
    expect(lineMatching(/lists selected$/)).toBe('1 of 12 lists selected');
    await userEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(lineMatching(/lists selected$/)).toBe('12 of 12 lists selected');
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(lineMatching(/lists selected$/)).toBe('0 of 12 lists selected');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Café crawl' }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(screen.getAllByRole('checkbox')).toHaveLength(12);
    expect(selectedPaths(store)).toEqual(['Takeout/Saved/Café crawl.csv']);
  });

  it('clears with its button, which gives the focus back to the box', async () => {
    open(MANY_LISTS);
    const filter = screen.getByRole('searchbox', { name: 'Filter lists' });
    expect(screen.queryByRole('button', { name: 'Clear filter' })).toBeNull();
    await userEvent.type(filter, 'ramen');
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(filter).toHaveProperty('value', '');
    expect(document.activeElement).toBe(filter);
    expect(screen.getAllByRole('checkbox')).toHaveLength(12);
  });

  it('clears with Escape, and only then does Escape close the dialog', async () => {
    const { store } = open(MANY_LISTS);
    const filter = screen.getByRole('searchbox', { name: 'Filter lists' });
    await userEvent.type(filter, 'ramen');
    await userEvent.keyboard('{Escape}');
    expect(filter).toHaveProperty('value', '');
    expect(store.getState().state.status).toBe('selecting');
    screen.getByRole('dialog', { name: 'Select Lists to Convert' });
    expect(screen.getAllByRole('checkbox')).toHaveLength(12);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.getState().state.status).toBe('loaded');
  });

  it('tells the count to the box by aria-describedby', () => {
    open(MANY_LISTS);
    screen.getByRole('searchbox', { name: 'Filter lists', description: 'Showing all 12 lists' });
  });
});

describe('lists with the same name', () => {
  it('show their folder, which their checkbox names include', () => {
    open(MANY_LISTS);
    const first = screen.getByRole('checkbox', { name: 'Want to go in Takeout/Saved' });
    const second = screen.getByRole('checkbox', { name: 'Want to go in Takeout 2/Saved' });
    expect(linesOf(first.closest('li')!).slice(0, 3)).toEqual([
      'Want to go',
      'in ',
      'Takeout/Saved',
    ]);
    expect(linesOf(second.closest('li')!).slice(0, 3)).toEqual([
      'Want to go',
      'in ',
      'Takeout 2/Saved',
    ]);
  });

  it('are the only rows showing a folder', () => {
    open(MANY_LISTS);
    expect(linesOf(rowOf('Museums'))).toEqual(['Museums', '9 places · 1.1 KB', '9 need a lookup']);
  });
});

describe('keyboard', () => {
  it('reaches the filter, then the rows, skipping a list that cannot be converted', async () => {
    open([...MANY_LISTS.slice(0, 8), ...TRUTH_LISTS.slice(2)]);
    screen.getByRole('button', { name: 'Deselect All' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Filter lists' }));
    await userEvent.keyboard('day');
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Clear filter' }));
    await userEvent.tab();
    const dayTrip = screen.getByRole('checkbox', { name: 'Day trip' });
    expect(document.activeElement).toBe(dayTrip);
    await userEvent.keyboard(' ');
    expect(dayTrip.getAttribute('aria-checked')).toBe('false');
    await userEvent.keyboard(' ');
    expect(dayTrip.getAttribute('aria-checked')).toBe('true');
    // Past the last convertible row, Tab goes on to Cancel: the disabled row is not a stop.
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });
});

describe('lists converted earlier in this session', () => {
  function openConverted(selected: readonly string[]) {
    const state = {
      ...STATES.selecting,
      lists: MANY_LISTS.slice(0, 3),
      selected,
      converted: [MANY_LISTS[0]!.path, MANY_LISTS[2]!.path],
    } as AppState;
    mount(<ListDialog />, { state });
  }

  it('are marked, and the mark describes their checkbox', () => {
    openConverted([MANY_LISTS[1]!.path]);
    expect(linesOf(rowOf('Cafés à Paris'))).toEqual([
      'Cafés à Paris',
      'Converted in this session',
      '18 places · 2.1 KB',
      '18 need a lookup',
    ]);
    expect(
      within(rowOf(/in Takeout 2\/Saved/)).queryByText('Converted in this session'),
    ).toBeNull();
    screen.getByRole('checkbox', {
      name: 'Cafés à Paris',
      description: /Converted in this session/,
    });
    expect(screen.queryByText(/already converted in this session/)).toBeNull();
  });

  it('say, when chosen again, that converting them again charges for them again', () => {
    openConverted(MANY_LISTS.slice(0, 3).map((list) => list.path));
    expect(screen.getByRole('status').textContent).toBe(
      '2 chosen lists were already converted in this session: converting them again converts (and charges for) their places again.',
    );
  });
});
