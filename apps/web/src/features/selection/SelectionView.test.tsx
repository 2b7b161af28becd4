import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AppState } from '../../state/types';
import {
  MANY_LISTS,
  MISSING_COLUMNS_PROBLEM,
  mount,
  STATES,
  TRUTH_LISTS,
} from '../../test/fixtures';
import type { ListSummary } from '../../worker/types';
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
    const wantToGo = rowOf('Want to go');
    expect(within(wantToGo).getByText('40 places · 5 KB')).toBeTruthy();
    expect(within(wantToGo).getByText('3 with coordinates · 37 need a lookup')).toBeTruthy();
    expect(within(rowOf('Saved Places')).getByText('12 with coordinates')).toBeTruthy();
    expect(
      within(rowOf('Day trip')).getByText(
        '1 with coordinates · 1 needs a lookup · 2 without a usable link',
      ),
    ).toBeTruthy();
  });

  it('tags the starred places, and only them', () => {
    open(TRUTH_LISTS);
    expect(within(rowOf('Saved Places')).getByText('Starred places')).toBeTruthy();
    expect(within(rowOf('Want to go')).queryByText('Starred places')).toBeNull();
  });

  it('describes each checkbox by those facts', () => {
    open(TRUTH_LISTS);
    expect(
      screen.getByRole('checkbox', {
        name: 'Saved Places',
        description: 'Starred places 12 places · 4 KB 12 with coordinates',
      }),
    ).toBeTruthy();
    expect(
      screen.getByRole('checkbox', {
        name: 'Want to go',
        description: '40 places · 5 KB 3 with coordinates · 37 need a lookup',
      }),
    ).toBeTruthy();
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
    expect(
      screen.getByRole('checkbox', {
        name: 'Old export',
        description: new RegExp(`^Can't be converted: ${MISSING_COLUMNS_PROBLEM}`),
      }),
    ).toBeTruthy();
  });

  it('is never counted nor chosen, by click, by Select All or by its label', async () => {
    const { store } = open(TRUTH_LISTS);
    expect(screen.getByText('3 of 4 lists selected')).toBeTruthy();
    expect(screen.getByText('56 places in total')).toBeTruthy();
    // The 2 places of "Day trip" without a usable link are never in the charge.
    expect(screen.getByText('Maximum charge: $5.40')).toBeTruthy();
    screen.getByText(
      'Only converted places are charged, at $0.10 each. 2 places without a usable link are never charged.',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Old export' }));
    await userEvent.click(within(rowOf('Old export')).getByText('Old export'));
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    await userEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByText('3 of 4 lists selected')).toBeTruthy();
    expect(screen.getByText('56 places in total')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Old export' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    expect(selectedPaths(store)).not.toContain('Takeout/Saved/Old export.csv');
  });
});

describe('the maximum charge beside the place total', () => {
  it('is the places at $0.10, with the note that only converted places are charged', () => {
    mount(<ListDialog />, { state: STATES.selecting });
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('40 places in total')).toBeTruthy();
    expect(within(dialog).getByText('Maximum charge: $4.00')).toBeTruthy();
    expect(
      within(dialog).getByText('Only converted places are charged, at $0.10 each.'),
    ).toBeTruthy();
  });

  it('follows the selection, and says when it is free under the minimum charge', async () => {
    open(TRUTH_LISTS, ['Takeout/Saved/Day trip.csv']);
    expect(screen.getByText('4 places in total')).toBeTruthy();
    expect(screen.getByText('Maximum charge: $0.00 (free)')).toBeTruthy();
    expect(screen.getByText('Your selection is small enough to convert for free.')).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Saved Places' }));
    expect(screen.getByText('Maximum charge: $1.40')).toBeTruthy();
    expect(screen.queryByText('Your selection is small enough to convert for free.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByText('Maximum charge: $0.00')).toBeTruthy();
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
    expect(screen.getByText('Showing all 12 lists')).toBeTruthy();
    await userEvent.type(filter, 'CAFE');
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: 'Cafés à Paris' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Café crawl' })).toBeTruthy();
    expect(screen.getByText('Showing 2 of 12 lists')).toBeTruthy();
    expect(
      screen.getByText('Select All and Deselect All act on all 12 lists, shown or not.'),
    ).toBeTruthy();
  });

  it('narrows the rows by folder', async () => {
    open(MANY_LISTS);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter lists' }), 'takeout 2');
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    expect(screen.getByRole('checkbox', { name: 'Want to go in Takeout 2/Saved' })).toBeTruthy();
  });

  it('says when nothing matches', async () => {
    open(MANY_LISTS);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter lists' }), 'nowhere');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getByText('No list matches “nowhere”.')).toBeTruthy();
    expect(screen.getByText('Showing 0 of 12 lists')).toBeTruthy();
  });

  it('never changes the selection, and Select All / Deselect All act on every list', async () => {
    const { store } = open(MANY_LISTS, [MANY_LISTS[4]!.path]);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Filter lists' }), 'cafe');
    expect(selectedPaths(store)).toEqual([MANY_LISTS[4]!.path]);
    expect(screen.getByText('1 of 12 lists selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByText('12 of 12 lists selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByText('0 of 12 lists selected')).toBeTruthy();
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
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(12);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(store.getState().state.status).toBe('loaded');
  });

  it('tells the count to the box by aria-describedby', () => {
    open(MANY_LISTS);
    expect(
      screen.getByRole('searchbox', { name: 'Filter lists', description: 'Showing all 12 lists' }),
    ).toBeTruthy();
  });
});

describe('lists with the same name', () => {
  it('show their folder, which their checkbox names include', () => {
    open(MANY_LISTS);
    const first = screen.getByRole('checkbox', { name: 'Want to go in Takeout/Saved' });
    const second = screen.getByRole('checkbox', { name: 'Want to go in Takeout 2/Saved' });
    expect(within(first.closest('li')!).getByText('Takeout/Saved')).toBeTruthy();
    expect(within(second.closest('li')!).getByText('Takeout 2/Saved')).toBeTruthy();
  });

  it('are the only rows showing a folder', () => {
    open(MANY_LISTS);
    expect(screen.getByRole('checkbox', { name: 'Museums' })).toBeTruthy();
    expect(within(rowOf('Museums')).queryByText('Takeout/Saved')).toBeNull();
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
    expect(within(rowOf('Cafés à Paris')).getByText('Converted in this session')).toBeTruthy();
    expect(
      within(rowOf(/in Takeout 2\/Saved/)).queryByText('Converted in this session'),
    ).toBeNull();
    expect(
      screen.getByRole('checkbox', {
        name: 'Cafés à Paris',
        description: /Converted in this session/,
      }),
    ).toBeTruthy();
    expect(screen.queryByText(/already converted in this session/)).toBeNull();
  });

  it('say, when chosen again, that converting them again charges for them again', () => {
    openConverted(MANY_LISTS.slice(0, 3).map((list) => list.path));
    expect(
      screen.getByText(
        '2 chosen lists were already converted in this session: converting them again converts (and charges for) their places again.',
      ),
    ).toBeTruthy();
  });
});
