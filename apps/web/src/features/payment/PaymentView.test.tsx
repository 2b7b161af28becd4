import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../api/client';
import { ApiRequestError } from '../../api/http';
import type { AppState } from '../../state/types';
import {
  ARCHIVE,
  CAPTURE_OUTCOME,
  fakeConverter,
  HELD,
  LISTS,
  mount,
  STATES,
  UNUSED_API,
} from '../../test/fixtures';
import { ListDialog } from '../selection/ListDialog';
import { ANOTHER_TAB_TEXT } from './PaymentView';

const DEMO = { payments: 'demo' as const };

describe('payment view', () => {
  it('shows the places, the price per place, the maximum charge and the authorize-only rule', () => {
    mount(<ListDialog />, { state: STATES.paying, config: DEMO });
    const dialog = screen.getByRole('dialog', { name: 'Payment' });
    expect(within(dialog).getByRole('button', { name: 'Back to Selection' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(within(dialog).getByText('Places to convert').nextSibling?.textContent).toBe(
      '40 places',
    );
    expect(within(dialog).getByText('Price per place').nextSibling?.textContent).toBe('$0.10');
    expect(within(dialog).getByText('Maximum charge').nextSibling?.textContent).toBe('$4.00');
    expect(within(dialog).getByText(/only authorized \(held\)/).textContent).toBe(
      'This amount is only authorized (held) on your card, not charged. After the conversion you are charged only for places that were converted successfully, at $0.10 each; the rest of the hold is released.',
    );
  });

  it('says when another tab of this browser is converting these lists with its own payment', () => {
    const paying = STATES.paying as Extract<AppState, { status: 'paying' }>;
    const authorization = { ...paying.authorization, anotherTab: true };
    mount(<ListDialog />, { state: { ...paying, authorization }, config: DEMO });
    const dialog = screen.getByRole('dialog', { name: 'Payment' });
    expect(within(dialog).getByText(/^Another tab of this browser/).textContent).toBe(
      ANOTHER_TAB_TEXT,
    );
    expect(ANOTHER_TAB_TEXT).toContain('charged in both');
    // The payment is still offered: the person may mean to convert them again.
    within(dialog).getByRole('button', { name: 'Authorize Payment & Convert' });
  });

  it('says nothing of another tab when none is paying for these lists', () => {
    mount(<ListDialog />, { state: STATES.paying, config: DEMO });
    expect(screen.queryByText(/Another tab/)).toBeNull();
  });

  it('shows a spinner while the client secret is missing', () => {
    mount(<ListDialog />, { state: STATES.awaitingIntent, config: DEMO });
    expect(screen.getByRole('status').textContent).toContain('Preparing secure payment…');
    expect(screen.queryByRole('button', { name: 'Authorize Payment & Convert' })).toBeNull();
  });

  /** The demo API, recording the payments it authorized. */
  function demoAuthorizing() {
    const authorized: string[] = [];
    const api: Api = {
      ...UNUSED_API,
      demoAuthorize: async (id) => {
        authorized.push(id);
        return { status: 'requires_capture' };
      },
      capturePayment: async () => CAPTURE_OUTCOME,
    };
    return { authorized, api };
  }

  it('in demo mode shows the labelled panel instead of a card form, and authorizes through the API', async () => {
    const { authorized, api } = demoAuthorizing();
    const { store } = mount(<ListDialog />, { state: STATES.paying, config: DEMO, api });
    screen.getByRole('note', { name: 'Demo mode — no card is charged' });
    expect(screen.queryByText(/faster checkout/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Authorize Payment & Convert' }));
    expect(authorized).toEqual(['pi_123']);
    await waitFor(() => expect(store.getState().state.status).not.toBe('authorizing'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the busy text 'Authorizing Payment...', keeps its focus, ignores presses and locks Back while authorizing", async () => {
    const { authorized, api } = demoAuthorizing();
    mount(<ListDialog />, { state: STATES.authorizing, config: DEMO, api });
    const button = screen.getByRole('button', { name: 'Authorizing Payment...' });
    // aria-disabled, not disabled: a disabled button would drop the focus to the page's top.
    expect(button.getAttribute('aria-disabled')).toBe('true');
    button.focus();
    await userEvent.click(button);
    expect(document.activeElement).toBe(button);
    expect(authorized).toEqual([]);
    expect(screen.getByRole('button', { name: 'Back to Selection' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('keeps why the card was refused in the payment view until the next attempt, describing the button', async () => {
    let answer: 'declined' | 'ok' = 'declined';
    const api: Api = {
      ...UNUSED_API,
      demoAuthorize: async () => {
        if (answer === 'declined') {
          throw new ApiRequestError(402, '402: payment_declined', {
            status: 402,
            code: 'payment_declined',
            message: 'Your card was declined.',
            retryAfterSeconds: null,
          });
        }
        return { status: 'requires_capture' };
      },
      capturePayment: async () => CAPTURE_OUTCOME,
    };
    const { store } = mount(<ListDialog />, { state: STATES.paying, config: DEMO, api });
    const button = screen.getByRole('button', { name: 'Authorize Payment & Convert' });
    await userEvent.click(button);
    await waitFor(() => expect(store.getState().state.status).toBe('paying'));
    const dialog = screen.getByRole('dialog', { name: 'Payment' });
    const error = await within(dialog).findByText(/declined/);
    expect(error.textContent).toMatch(/^Payment (Failed|Error): Your card was declined\.$/);
    // The button kept the focus and is described by the error, so a screen reader reads both.
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-describedby')).toBe(error.id);
    // The next attempt clears it.
    answer = 'ok';
    await userEvent.click(button);
    await waitFor(() => expect(store.getState().state.status).not.toBe('paying'));
    expect(screen.queryByText(/declined/)).toBeNull();
  });

  it('says a selection where no place can be placed makes no map file', () => {
    const state: AppState = {
      status: 'paying',
      ...ARCHIVE,
      lists: [
        {
          ...ARCHIVE.lists[0]!,
          rowCount: 10,
          withCoordinates: 0,
          needsLookup: 0,
          withoutLocation: 10,
        },
      ],
      selected: [ARCHIVE.lists[0]!.path],
      authorization: { kind: 'free' },
    };
    mount(<ListDialog />, { state, config: DEMO });
    expect(screen.getByText('Places to convert').nextSibling?.textContent).toBe('0 places');
    screen.getByText('Nothing in your selection can be placed.');
    screen.getByText(
      'None of the places chosen can be placed (they have no location, or no usable link), so the conversion makes no map file: only the list of those places with the reason, to check. No card is needed.',
    );
  });

  it('Back to Selection returns to the list', async () => {
    const { store } = mount(<ListDialog />, { state: STATES.paying, config: DEMO });
    await userEvent.click(screen.getByRole('button', { name: 'Back to Selection' }));
    expect(store.getState().state.status).toBe('selecting');
    screen.getByRole('dialog', { name: 'Select Lists to Convert' });
  });

  it('says a selection under $0.50 is free and converts it without a card', async () => {
    const converter = fakeConverter();
    const state: AppState = {
      status: 'paying',
      ...ARCHIVE,
      selected: [LISTS[2]!.path],
      authorization: { kind: 'free' },
    };
    const { store } = mount(<ListDialog />, { state, config: DEMO, converter });
    expect(within(screen.getByRole('note')).getByText(/^This conversion/).textContent).toBe(
      'This conversion is free',
    );
    expect(screen.getByText('Maximum charge').nextSibling?.textContent).toBe('$0.00 (free)');
    expect(screen.queryByText('Demo mode — no card is charged')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Convert for Free' }));
    await waitFor(() =>
      expect(converter.calls).toEqual([`convert:${LISTS[2]!.path}`, 'lookupRefusals']),
    );
    expect(store.getState().state.status).not.toBe('paying');
  });

  it('in Stripe mode mentions the optional e-mail and phone for faster checkout', () => {
    mount(<ListDialog />, {
      state: STATES.awaitingIntent,
      config: { payments: 'stripe', publishableKey: 'pk_test_x' },
    });
    expect(screen.getByText(/faster checkout/).textContent).toBe(
      'Optional: enter your e-mail and phone number in the payment form for faster checkout next time.',
    );
  });

  describe("an earlier visit's hold for these lists", () => {
    const offered: AppState = { status: 'paying', ...ARCHIVE, authorization: HELD };

    it('is offered in place of the card form: what it holds, what it charges, its reference', () => {
      mount(<ListDialog />, {
        state: offered,
        config: { payments: 'stripe', publishableKey: 'pk_test_x' },
      });
      const dialog = screen.getByRole('dialog', { name: 'Payment' });
      expect(within(dialog).getByText('Maximum charge').nextSibling?.textContent).toBe('$4.00');
      const note = within(dialog).getByRole('note', {
        name: 'A payment from your last visit is still held',
      });
      expect(note.textContent).toContain(
        '$6.80 is still held (authorized, not charged) on your card from your last visit, for these lists of this archive. Convert with it: no new hold is placed, and the 25 places already found with it are not charged again.',
      );
      expect(note.textContent).toContain(
        'After the conversion you are charged for the places converted, at $0.10 each, or for every place found with this payment if that is more (each place once), and the rest of the hold is released.',
      );
      expect(note.textContent).toContain('Reference: pi_left');
      // No card form, no authorize-only text of a new hold.
      expect(within(dialog).queryByText(/faster checkout/)).toBeNull();
      expect(within(dialog).queryByText(/only authorized \(held\)/)).toBeNull();
      expect(
        within(dialog).queryByRole('button', { name: 'Authorize Payment & Convert' }),
      ).toBeNull();
    });

    it('the maximum charge counts what it found when that is more than this selection', () => {
      const found = { ...HELD, placesResolved: 60 };
      mount(<ListDialog />, {
        state: { ...offered, authorization: found } as AppState,
        config: DEMO,
      });
      expect(screen.getByText('Maximum charge').nextSibling?.textContent).toBe('$6.00');
    });

    it('Convert with the Held Payment checks it and converts; Use a New Card Instead asks for an intent', async () => {
      const asked: string[] = [];
      const api: Api = {
        ...UNUSED_API,
        paymentStatus: async (id) => {
          asked.push(`status:${id}`);
          return {
            status: 'open',
            amountAuthorizedCents: 680,
            amountCapturedCents: 0,
            amountReleasedCents: 0,
            reference: id,
            placesAuthorized: 68,
            placesResolved: 25,
            settlesAt: null,
          };
        },
        capturePayment: async (request) => {
          asked.push(`capture:${request.paymentIntentId}:${request.totalCount}`);
          return { ...CAPTURE_OUTCOME, reference: request.paymentIntentId };
        },
        createPaymentIntent: async (cents) => {
          asked.push(`intent:${cents}`);
          return { clientSecret: 'pi_new_secret', paymentIntentId: 'pi_new' };
        },
      };
      const converter = fakeConverter();
      const first = mount(<ListDialog />, { state: offered, config: DEMO, api, converter });
      await userEvent.click(screen.getByRole('button', { name: 'Convert with the Held Payment' }));
      await waitFor(() => expect(first.store.getState().state.status).toBe('complete'));
      expect(converter.calls).toContain(`convert:${ARCHIVE.selected.join('|')}`);
      expect(asked).toEqual(['status:pi_left', 'capture:pi_left:68']);
      first.unmount();

      asked.length = 0;
      const second = mount(<ListDialog />, { state: offered, config: DEMO, api });
      await userEvent.click(screen.getByRole('button', { name: 'Use a New Card Instead' }));
      await waitFor(() =>
        expect(second.store.getState().state).toMatchObject({
          status: 'paying',
          authorization: { kind: 'card', paymentIntentId: 'pi_new' },
        }),
      );
      expect(asked).toEqual(['intent:400']);
      screen.getByRole('button', { name: 'Authorize Payment & Convert' });
    });
  });
});
