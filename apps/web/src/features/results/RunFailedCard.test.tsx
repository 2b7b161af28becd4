import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES, releaseFailedMessage } from '../../state/messages';
import type { AppState, Capture } from '../../state/types';
import { mount, RECEIPT, receiptLines, STATES } from '../../test/fixtures';
import { UploadCard } from '../upload/UploadCard';
import { RunFailedCard } from './RunFailedCard';

type Failed = Extract<AppState, { status: 'failed' }>;

function failed(capture: Capture, overrides: Partial<Failed> = {}): AppState {
  return { ...(STATES.failed as Failed), capture, ...overrides };
}

/** The release's receipt for the fixtures' $4.00 hold, `cents` of it charged. */
function released(cents: number): Capture {
  return {
    kind: 'settled',
    ...RECEIPT,
    cancelled: cents === 0,
    amountCapturedCents: cents,
    amountReleasedCents: RECEIPT.amountAuthorizedCents - cents,
  };
}

const ERROR = (STATES.failed as Failed).error;

/**
 * What the card says, in order: its heading, the error, what became of the payment (its receipt as
 * the one line 'Receipt') and the way back.
 */
function cardSays(): (string | null)[] {
  const card = screen.getByRole('heading', { level: 2 }).parentElement!;
  return Array.from(
    card.querySelectorAll('h2, h3, p, [role="status"], [role="group"], button'),
    (line) => (line.getAttribute('role') === 'group' ? 'Receipt' : line.textContent),
  );
}

describe('RunFailedCard', () => {
  it('is hidden unless the conversion failed', () => {
    for (const status of ['loaded', 'converting', 'complete'] as const) {
      const { container, unmount } = mount(<RunFailedCard />, { state: STATES[status] });
      expect(container.textContent).toBe('');
      unmount();
    }
  });

  it('says what went wrong, takes the focus, and finalizes the payment before offering the lists', () => {
    mount(<RunFailedCard />, { state: STATES.failed });
    const heading = screen.getByRole('heading', { name: 'Conversion Failed', level: 2 });
    expect(document.activeElement).toBe(heading);
    expect(cardSays()).toEqual(['Conversion Failed', ERROR, 'Finalizing your payment…']);
  });

  it('says a run the person cancelled was cancelled, and what became of the hold', () => {
    const { unmount } = mount(<RunFailedCard />, {
      state: failed(released(0), { cancelled: true, error: MESSAGES.cancelled }),
    });
    expect(cardSays()).toEqual([
      'Conversion Cancelled',
      MESSAGES.cancelled,
      'Payment Cancelled',
      'You cancelled the conversion, so your payment authorization has been cancelled and the hold of $4.00 released. You have not been charged.',
      'Receipt',
      'Back to the lists',
    ]);
    unmount();
    mount(<RunFailedCard />, { state: failed(released(80), { cancelled: true }) });
    expect(cardSays()).toEqual([
      'Conversion Cancelled',
      ERROR,
      'Payment Summary',
      'The server had already found the locations of 8 places for this payment when you cancelled the conversion; you were charged $0.80 for them.',
      'The rest of the hold, $3.20, was released.',
      'Receipt',
      'Back to the lists',
    ]);
  });

  it('shows how much the server charged for the places it found, and why', () => {
    mount(<RunFailedCard />, { state: failed(released(80)) });
    expect(cardSays()).toEqual([
      'Conversion Failed',
      ERROR,
      'Payment Summary',
      'The server had already found the locations of 8 places for this payment when the conversion failed; you were charged $0.80 for them.',
      'The rest of the hold, $3.20, was released.',
      'Receipt',
      'Back to the lists',
    ]);
    expect(receiptLines()).toEqual({
      'Authorized (held)': '$4.00',
      Charged: '$0.80',
      Released: '$3.20',
      Reference: 'pi_123',
      Date: 'January 15, 2026, 2:05 PM',
    });
  });

  it('says nothing else was held when the whole hold was charged', () => {
    mount(<RunFailedCard />, { state: failed(released(400)) });
    expect(cardSays()).toEqual([
      'Conversion Failed',
      ERROR,
      'Payment Summary',
      'The server had already found the locations of 40 places for this payment when the conversion failed; you were charged $4.00 for them.',
      'Receipt',
      'Back to the lists',
    ]);
  });

  it('says the hold was released when nothing was charged', () => {
    mount(<RunFailedCard />, { state: failed(released(0)) });
    expect(cardSays()).toEqual([
      'Conversion Failed',
      ERROR,
      'Payment Cancelled',
      'The conversion failed, so your payment authorization has been cancelled and the hold of $4.00 released. You have not been charged.',
      'Receipt',
      'Back to the lists',
    ]);
    expect(receiptLines()).toMatchObject({ Charged: '$0.00', Released: '$4.00' });
  });

  it('warns, quoting the reference, when the release itself failed', () => {
    mount(<RunFailedCard />, {
      state: failed({ kind: 'failed', message: releaseFailedMessage('pi_123') }),
    });
    expect(cardSays()).toEqual([
      'Conversion Failed',
      ERROR,
      'Payment Hold Not Released',
      releaseFailedMessage('pi_123'),
      'Back to the lists',
    ]);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(releaseFailedMessage('pi_123'));
    expect(alert.textContent).toMatch(/could not be released.*Reference: pi_123$/);
  });

  it('a free run had nothing to charge', () => {
    mount(<RunFailedCard />, {
      state: failed({ kind: 'notNeeded' }, { authorization: { kind: 'free' } }),
    });
    expect(cardSays()).toEqual([
      'Conversion Failed',
      ERROR,
      'This selection was free, so nothing was charged.',
      'Back to the lists',
    ]);
  });

  it('goes back to the lists once the payment is settled', () => {
    const { store } = mount(<RunFailedCard />, { state: failed(released(80)) });
    fireEvent.click(screen.getByRole('button', { name: 'Back to the lists' }));
    expect(store.getState().state.status).toBe('selecting');
  });

  it('keeps Remove off while the hold is released, and the message out of the upload card', () => {
    const { store } = mount(
      <>
        <UploadCard />
        <RunFailedCard />
      </>,
      { state: STATES.failed },
    );
    const remove = screen.getByRole('button', { name: 'Remove' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Select Lists' })).toBeNull();
    expect(screen.getAllByText(ERROR)).toHaveLength(1);
    act(() => store.getState().send({ type: 'captureSettled', ...RECEIPT }));
    expect((screen.getByRole('button', { name: 'Remove' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});
