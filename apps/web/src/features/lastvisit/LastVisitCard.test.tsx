import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { Api, PaymentStatus } from '../../api/client';
import { rememberPayment } from '../../state/lastPayment';
import type { AppState, LastVisit } from '../../state/types';
import {
  CARD,
  memoryNotes,
  mount,
  OPEN_PAYMENT as OPEN,
  OPEN_PAYMENT_CAPTURED,
  RECEIPT,
  receiptLines,
  STATES,
  UNUSED_API,
} from '../../test/fixtures';
import { Header } from '../header/Header';
import { PaymentOutcome } from '../results/PaymentOutcome';
import { UploadCard } from '../upload/UploadCard';
import { LastVisitCard } from './LastVisitCard';

/** The captured receipt of {@link OPEN}, as the card shows it once settled. */
const SETTLED: PaymentStatus = {
  ...OPEN,
  status: 'captured',
  settlesAt: null,
  amountCapturedCents: 120,
  amountReleasedCents: 280,
};

function show(
  visit: Partial<LastVisit> & { payment: PaymentStatus },
  api: Partial<Api> = {},
  { page = <LastVisitCard />, state }: { page?: ReactElement; state?: AppState } = {},
) {
  const mounted = mount(page, { api: { ...UNUSED_API, ...api }, ...(state ? { state } : {}) });
  act(() =>
    mounted.store.getState().lastVisitChanged({
      converted: null,
      settling: false,
      settledAt: null,
      error: null,
      archiveName: null,
      ...visit,
    }),
  );
  return mounted;
}

describe('LastVisitCard', () => {
  it('shows nothing while no earlier payment is known', () => {
    mount(<LastVisitCard />);
    expect(screen.queryByRole('region')).toBeNull();
    expect(document.body.textContent).toBe('');
  });

  it('an open hold: what is held, what the server will charge and when, and Settle it now', async () => {
    const captured: unknown[] = [];
    const { store } = show(
      { payment: OPEN },
      {
        capturePayment: async (request) => {
          captured.push(request);
          return OPEN_PAYMENT_CAPTURED;
        },
      },
    );
    const card = screen.getByRole('region', {
      name: 'A payment from your last visit is still held',
    });
    expect(card.textContent).toContain(
      '$4.00 is still held (authorized, not charged) on your card',
    );
    expect(card.textContent).toContain(
      'The server settles it by itself by November 25, 2026, 2:35 PM: the server had found the locations of 12 places for it, so you will be charged $1.20 for them',
    );
    expect(card.textContent).toContain('Reference: pi_left');
    fireEvent.click(within(card).getByRole('button', { name: 'Settle it now' }));
    await screen.findByRole('region', { name: 'Your last visit’s payment was settled' });
    expect(captured).toEqual([
      { paymentIntentId: 'pi_left', convertedCount: 0, totalCount: 40, actualAmountCents: 0 },
    ]);
    screen.getByText(
      /you were charged \$1\.20 for them, and the rest of the hold, \$2\.80, was released/,
    );
    expect(receiptLines()).toMatchObject({
      'Authorized (held)': '$4.00',
      Charged: '$1.20',
      Released: '$2.80',
      Reference: 'pi_left',
    });
    expect(receiptLines().Date).toMatch(/2026/);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(store.getState().lastVisit).toBeNull();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('after Settle it now and a reload, the same receipt still has its date', async () => {
    const notes = memoryNotes();
    rememberPayment(notes, { paymentIntentId: 'pi_left', places: 40, authorizedAt: Date.now() });
    const first = mount(<LastVisitCard />, {
      api: {
        ...UNUSED_API,
        paymentStatus: async () => OPEN,
        capturePayment: async () => OPEN_PAYMENT_CAPTURED,
      },
      notes,
    });
    await act(() => first.effects.recallLastPayment());
    fireEvent.click(screen.getByRole('button', { name: 'Settle it now' }));
    await screen.findByRole('region', { name: 'Your last visit’s payment was settled' });
    const settled = receiptLines();
    expect(settled.Date).toMatch(/\d{4}/);
    first.unmount();
    // The reload: a new page over the same notes, and the API says the payment is captured.
    const reloaded = mount(<LastVisitCard />, {
      api: { ...UNUSED_API, paymentStatus: async () => SETTLED },
      notes,
    });
    await act(() => reloaded.effects.recallLastPayment());
    screen.getByRole('region', { name: 'Your last visit’s payment was settled' });
    expect(receiptLines()).toEqual(settled);
  });

  it('an open hold whose note names its archive says a run of the same lists of it can use the hold', () => {
    show({ payment: OPEN, archiveName: 'takeout-20250101.zip' });
    expect(screen.getByRole('region').textContent).toContain(
      'To convert the same lists of takeout-20250101.zip again, choose that file before then: the payment step offers this hold, so the places already found are not charged twice.',
    );
  });

  it('says nothing of using the hold again when its note does not name the archive, or once it is settled', () => {
    show({ payment: OPEN });
    expect(screen.getByRole('region').textContent).not.toContain('choose that file');
    cleanup();
    show({ payment: SETTLED, archiveName: 'takeout-20250101.zip' });
    expect(screen.getByRole('region').textContent).not.toContain('choose that file');
  });

  it('an open hold of a run that finished says so, not that its files are gone', () => {
    show({ payment: OPEN, converted: 37 });
    const card = screen.getByRole('region', {
      name: 'A payment from your last visit is still held',
    });
    expect(card.textContent).toContain(
      'Your last conversion finished (37 places converted), but its payment was not settled, so $4.00 is still held (authorized, not charged) on your card.',
    );
    expect(card.textContent).not.toContain('did not finish');
    expect(card.textContent).not.toContain('are gone');
  });

  it('the receipt of a run that finished says it finished', () => {
    show({
      payment: {
        ...OPEN,
        status: 'captured',
        settlesAt: null,
        amountCapturedCents: 120,
        amountReleasedCents: 280,
      },
      converted: 37,
    });
    expect(screen.getByRole('region').textContent).toContain(
      'Your last conversion finished, but that page did not show how its payment was settled. The server had found the locations of 12 places for it, so you were charged $1.20 for them, and the rest of the hold, $2.80, was released.',
    );
  });

  it("the receipt of that page's own capture, whose answer was lost, charges for the places converted", () => {
    show({
      payment: {
        ...OPEN,
        status: 'captured',
        settlesAt: null,
        placesResolved: 0,
        amountCapturedCents: 190,
        amountReleasedCents: 210,
      },
      converted: 19,
    });
    const card = screen.getByRole('region', { name: 'Your last visit’s payment was settled' });
    expect(card.textContent).toContain(
      'Your last conversion finished, but that page did not show how its payment was settled. You were charged $1.90 for the 19 places converted, and the rest of the hold, $2.10, was released.',
    );
    expect(card.textContent).not.toContain('The server had found');
  });

  it('an open hold of a run that never finished says no map files were kept, not that they are gone', () => {
    show({ payment: OPEN, converted: null });
    const card = screen.getByRole('region', {
      name: 'A payment from your last visit is still held',
    });
    expect(card.textContent).toContain(
      'Your last conversion did not finish, so no map files were kept, and $4.00 is still held (authorized, not charged) on your card.',
    );
    expect(card.textContent).not.toContain('made in that page');
  });

  it('an open hold under the minimum says it will be cancelled, not charged', () => {
    show({ payment: { ...OPEN, placesResolved: 3 } });
    expect(screen.getByRole('region').textContent).toContain(
      'the server had found 3 places for it ($0.30), under the $0.50 minimum card charge, so the authorization will be cancelled and you will not be charged',
    );
  });

  it('a hold the server cancelled: nothing charged, everything released, no date it did not see', () => {
    show({
      payment: {
        ...OPEN,
        status: 'cancelled',
        amountReleasedCents: 400,
        placesResolved: 0,
        settlesAt: null,
      },
    });
    const card = screen.getByRole('region', { name: 'Your last visit’s payment was settled' });
    expect(card.textContent).toContain(
      'the payment authorization was cancelled and the hold of $4.00 released. You have not been charged.',
    );
    expect(receiptLines()).toEqual({
      'Authorized (held)': '$4.00',
      Charged: '$0.00',
      Released: '$4.00',
      Reference: 'pi_left',
    });
    expect(within(card).queryByRole('button', { name: 'Settle it now' })).toBeNull();
  });

  it('while settling, both buttons wait; Settling… keeps the focus, aria-disabled', () => {
    show({ payment: OPEN, settling: true });
    const buttons = screen.getAllByRole<HTMLButtonElement>('button');
    expect(
      buttons.map((button) => [
        button.textContent,
        button.disabled || button.getAttribute('aria-disabled') === 'true',
        button.disabled,
      ]),
    ).toEqual([
      ['Settling…', true, false],
      ['Not now', true, true],
    ]);
  });

  it('after Settle it now, the focus is on the heading that says it was settled', async () => {
    show({ payment: OPEN }, { capturePayment: async () => OPEN_PAYMENT_CAPTURED });
    const settle = screen.getByRole('button', { name: 'Settle it now' });
    settle.focus();
    fireEvent.click(settle);
    const card = await screen.findByRole('region', {
      name: 'Your last visit’s payment was settled',
    });
    expect(document.activeElement).toBe(within(card).getByRole('heading', { level: 2 }));
  });

  it('heads its receipt one level under the card: h3 under the h2, as axe asks', () => {
    show({ payment: SETTLED });
    const receipt = screen.getByRole('group', { name: 'Receipt' });
    expect(within(receipt).getByRole('heading', { name: 'Receipt' }).tagName).toBe('H3');
  });

  it("names its receipt by its own heading beside this run's receipt", () => {
    const page = (
      <>
        <LastVisitCard />
        <PaymentOutcome
          authorization={CARD}
          capture={{ kind: 'settled', ...RECEIPT }}
          totals={{ total: 40, converted: 37, skipped: 3 }}
        />
      </>
    );
    show({ payment: SETTLED }, {}, { page });
    const receipts = screen.getAllByRole('group', { name: 'Receipt' });
    const titles = receipts.map((receipt) => receipt.getAttribute('aria-labelledby'));
    expect(new Set(titles).size).toBe(2);
    receipts.forEach((receipt, index) => {
      expect(receipt.contains(document.getElementById(titles[index]!))).toBe(true);
    });
  });

  it.each([
    ['Dismiss', SETTLED],
    ['Not now', OPEN],
  ])('%s gives the focus to Choose File, the page’s first step', (name, payment) => {
    const page = (
      <>
        <LastVisitCard />
        <UploadCard />
      </>
    );
    show({ payment }, {}, { page });
    const close = screen.getByRole('button', { name });
    close.focus();
    fireEvent.click(close);
    expect(screen.queryByRole('region', { name: /last visit/ })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose File' }));
  });

  it('Not now with a file chosen gives the focus to the page’s main heading', () => {
    const page = (
      <>
        <Header />
        <LastVisitCard />
        <UploadCard />
      </>
    );
    show({ payment: OPEN }, {}, { page, state: STATES.loaded });
    const close = screen.getByRole('button', { name: 'Not now' });
    close.focus();
    fireEvent.click(close);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('a settle that failed is said under the hold, and Settle it now can be pressed again', () => {
    show({ payment: OPEN, error: 'Stripe could not be reached. Reference: pi_left' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Settle it now' }).disabled).toBe(
      false,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Stripe could not be reached. Reference: pi_left',
    );
  });
});
