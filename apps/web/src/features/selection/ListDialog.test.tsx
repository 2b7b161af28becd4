import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AppEvent, AppState } from '../../state/types';
import { LISTS, mount, STATES, UNUSED_API } from '../../test/fixtures';
import { lineMatching, linesOf } from '../../test/reads';
import { UploadCard } from '../upload/UploadCard';
import { ListDialog } from './ListDialog';

/**
 * A click on the overlay around the dialog, as a mouse makes it (pointer down, up, click). Radix
 * watches for a pointer down outside the dialog from the task after its view opened: it waits.
 */
async function clickOutside(): Promise<void> {
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  const overlay = document.querySelector('.dialog-overlay');
  expect(overlay).not.toBeNull();
  await userEvent.click(overlay!);
}

describe('selection dialog', () => {
  it('names the lists without .csv and shows their counts and sizes', () => {
    const lists = [
      { ...LISTS[0]!, name: 'Want to go' },
      { ...LISTS[1]!, name: 'Favourite places.CSV' },
    ];
    const state = { ...STATES.selecting, lists, selected: [lists[0]!.path] } as AppState;
    mount(<ListDialog />, { state });
    const dialog = screen.getByRole('dialog', { name: 'Select Lists to Convert' });
    expect(linesOf(within(dialog).getByRole('list', { name: 'Saved place lists' }))).toEqual([
      'Want to go',
      '40 places · 5 KB',
      '40 need a lookup',
      'Favourite places',
      '25 places · 2.9 KB',
      '25 need a lookup',
    ]);
  });

  it('counts the chosen lists and their places, with Select All and Deselect All', async () => {
    mount(<ListDialog />, { state: STATES.selecting });
    expect(lineMatching(/lists selected$/)).toBe('1 of 3 lists selected');
    expect(lineMatching(/in total$/)).toBe('40 places in total');
    await userEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(lineMatching(/lists selected$/)).toBe('3 of 3 lists selected');
    expect(lineMatching(/in total$/)).toBe('68 places in total');
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(lineMatching(/lists selected$/)).toBe('0 of 3 lists selected');
    expect(lineMatching(/in total$/)).toBe('0 places in total');
    expect(screen.getByRole('button', { name: 'Proceed to Payment' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('toggles a list with its checkbox, by click or keyboard', async () => {
    mount(<ListDialog />, { state: STATES.selecting });
    const starred = screen.getByRole('checkbox', { name: /Starred places/ });
    expect(starred.getAttribute('aria-checked')).toBe('false');
    await userEvent.click(starred);
    expect(starred.getAttribute('aria-checked')).toBe('true');
    starred.focus();
    await userEvent.keyboard(' ');
    expect(starred.getAttribute('aria-checked')).toBe('false');
  });

  it('Cancel closes the dialog and keeps the file', async () => {
    const { store } = mount(<ListDialog />, { state: STATES.selecting });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(store.getState().state.status).toBe('loaded');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it.each<[string, AppEvent[]]>([
    ['the selection', []],
    // The view changes under the focus, which the dialog itself then holds.
    ['the payment view, its intent awaited', [{ type: 'paymentRequested', requestId: 1 }]],
  ])('gives the focus to Select Lists when Escape closes it from %s', async (_, events) => {
    const { store } = mount(
      <>
        <UploadCard />
        <ListDialog />
      </>,
      { state: STATES.selecting },
    );
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    act(() => events.forEach((event) => store.getState().send(event)));
    await userEvent.keyboard('{Escape}');
    expect(store.getState().state.status).toBe('loaded');
    const selectLists = screen.getByRole('button', { name: 'Select Lists' });
    await waitFor(() => expect(document.activeElement).toBe(selectLists));
  });

  it.each<[string, AppState]>([
    ['its intent awaited', STATES.awaitingIntent],
    ['its card form shown', STATES.paying],
    ['a free selection', { ...STATES.paying, authorization: { kind: 'free' } } as AppState],
  ])(
    'stays open in the payment view (%s) when the overlay around it is clicked',
    async (_, state) => {
      const { store } = mount(<ListDialog />, { state });
      await clickOutside();
      expect(store.getState().state.status).toBe(state.status);
      screen.getByRole('dialog', { name: 'Payment' });
    },
  );

  it('the second click of a double click on Proceed to Payment, outside the payment view, keeps it', async () => {
    const { store } = mount(<ListDialog />, {
      state: STATES.selecting,
      config: {},
      // The intent is still being prepared when the second click comes.
      api: { ...UNUSED_API, createPaymentIntent: () => new Promise(() => undefined) },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Payment' }));
    await screen.findByRole('dialog', { name: 'Payment' });
    await clickOutside();
    expect(store.getState().state.status).toBe('awaitingIntent');
    screen.getByRole('dialog', { name: 'Payment' });
  });

  it('closes the selection view, keeping the lists chosen, when the overlay is clicked', async () => {
    const { store } = mount(<ListDialog />, { state: STATES.selecting });
    await clickOutside();
    expect(store.getState().state).toMatchObject({
      status: 'loaded',
      selected: (STATES.selecting as Extract<AppState, { status: 'selecting' }>).selected,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows an error inside the dialog', () => {
    mount(<ListDialog />, {
      state: {
        ...STATES.selecting,
        error: 'Failed to initialize payment. Please try again.',
      } as AppState,
    });
    expect(within(screen.getByRole('dialog')).getByRole('alert').textContent).toBe(
      'Failed to initialize payment. Please try again.',
    );
  });
});
