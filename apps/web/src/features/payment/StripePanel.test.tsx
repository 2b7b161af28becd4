/**
 * The Stripe payment form with Stripe.js replaced by the testkit shim, confirming against the
 * testkit's fake Stripe API on 127.0.0.1. The DOM here cannot load scripts, so Stripe's loader is
 * replaced by one that fails until told otherwise and then hands out the shim; the real loader
 * runs in the browser tests.
 */
import '@placeport/testkit/stripe-shim';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type FakeStripe, startFakeStripe } from '@placeport/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../api/client';
import type { AppState } from '../../state/types';
import { ARCHIVE, CAPTURE_OUTCOME, mount, OPEN_PAYMENT, UNUSED_API } from '../../test/fixtures';
import { linesOf } from '../../test/reads';
import { ListDialog } from '../selection/ListDialog';

declare global {
  interface Window {
    __FAKE_STRIPE_URL__?: string;
    __FAKE_STRIPE_PAYMENT_METHOD__?: string;
  }
}

const loader = vi.hoisted(() => ({ available: false }));

vi.mock('@stripe/stripe-js/pure', () => ({
  loadStripe: (publishableKey: string) =>
    loader.available
      ? Promise.resolve(window.Stripe?.(publishableKey) ?? null)
      : Promise.reject(new Error('Failed to load Stripe.js')),
}));

let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  window.__FAKE_STRIPE_URL__ = fake.url;
});

afterAll(async () => {
  await fake.close();
});

function payingWithNewIntent(): { state: AppState; id: string } {
  const intent = fake.createIntent({
    amount: '400',
    currency: 'usd',
    capture_method: 'manual',
    'metadata[places]': '40',
  });
  return {
    id: intent.id,
    state: {
      status: 'paying',
      ...ARCHIVE,
      authorization: {
        kind: 'card',
        clientSecret: intent.client_secret,
        paymentIntentId: intent.id,
      },
    },
  };
}

const CAPTURE_OK: Api = {
  ...UNUSED_API,
  capturePayment: async () => CAPTURE_OUTCOME,
};

function stripeConfig() {
  return { payments: 'stripe' as const, publishableKey: fake.publishableKey };
}

describe('Stripe payment form', () => {
  it('says clearly when Stripe.js cannot load, and Retry loads it again', async () => {
    const { state } = payingWithNewIntent();
    mount(<ListDialog />, { state, config: stripeConfig() });
    expect(linesOf(await screen.findByRole('alert'))).toEqual([
      'Payment form unavailable',
      'The secure payment form (Stripe.js) could not be loaded. Check your connection, then try again.',
      'Retry',
    ]);
    expect(screen.queryByRole('button', { name: 'Authorize Payment & Convert' })).toBeNull();

    loader.available = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('fake-stripe-payment');
    expect(screen.queryByText('Payment form unavailable')).toBeNull();
  });

  it('authorizes the intent with confirmPayment, then closes the dialog and converts', async () => {
    const { state, id } = payingWithNewIntent();
    const { store } = mount(<ListDialog />, { state, config: stripeConfig(), api: CAPTURE_OK });
    const button = await screen.findByRole('button', { name: 'Authorize Payment & Convert' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    await userEvent.click(button);
    await waitFor(() => expect(fake.paymentIntent(id)?.status).toBe('requires_capture'));
    await waitFor(() => expect(store.getState().state.status).not.toMatch(/paying|authorizing/));
    expect(store.getState().toasts[0]).toMatchObject({ title: 'Payment Authorized' });
    const confirm = fake.requests.find((r) => r.path.endsWith(`${id}/confirm`));
    expect(confirm?.body).toMatchObject({
      payment_method: 'pm_card_visa',
      key: fake.publishableKey,
    });
  });

  it('goes on when the intent was already authorized by a try whose answer was lost', async () => {
    const { state, id } = payingWithNewIntent();
    fake.authorize(id);
    const asked: string[] = [];
    const api: Api = {
      ...CAPTURE_OK,
      paymentStatus: async (paymentIntentId) => {
        asked.push(paymentIntentId);
        return { ...OPEN_PAYMENT, reference: paymentIntentId };
      },
    };
    const { store } = mount(<ListDialog />, { state, config: stripeConfig(), api });
    const button = await screen.findByRole('button', { name: 'Authorize Payment & Convert' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    await userEvent.click(button);
    await waitFor(() => expect(store.getState().state.status).not.toMatch(/paying|authorizing/));
    expect(asked).toEqual([id]);
    expect(store.getState().toasts[0]).toMatchObject({ title: 'Payment Authorized' });
  });

  it("shows Stripe's decline in a Payment Failed toast and re-enables the button", async () => {
    window.__FAKE_STRIPE_PAYMENT_METHOD__ = 'pm_card_chargeDeclined';
    try {
      const { state, id } = payingWithNewIntent();
      const { store } = mount(<ListDialog />, { state, config: stripeConfig() });
      const button = await screen.findByRole('button', { name: 'Authorize Payment & Convert' });
      await waitFor(() => expect(button).toHaveProperty('disabled', false));
      await userEvent.click(button);
      await waitFor(() => expect(store.getState().toasts[0]?.title).toBe('Payment Failed'));
      expect(store.getState().toasts[0]?.variant).toBe('destructive');
      expect(store.getState().toasts[0]?.description).toMatch(/declined/i);
      expect(store.getState().state.status).toBe('paying');
      expect(screen.getByRole('button', { name: 'Authorize Payment & Convert' })).toHaveProperty(
        'disabled',
        false,
      );
      expect(fake.paymentIntent(id)?.status).not.toBe('requires_capture');
    } finally {
      delete window.__FAKE_STRIPE_PAYMENT_METHOD__;
    }
  });
});
