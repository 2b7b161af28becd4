import { chargeCents, isUnderMinimum, PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import { Dialog } from 'radix-ui';
import { lazy, Suspense } from 'react';
import { useApp, useSend } from '../../app/context';
import { Spinner } from '../../components/Spinner';
import { formatPlaces } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import { selectedPlaces } from '../../state/machine';
import type { StateIn } from '../../state/types';
import { PAYMENT_ERROR_ID } from './AuthorizeButton';
import { DemoPanel } from './DemoPanel';
import { FreePanel } from './FreePanel';
import { HeldPanel } from './HeldPanel';

/** Stripe.js and its React bindings load only when a card form is really needed. */
const StripePanel = lazy(() => import('./StripePanel'));

type PaymentState = StateIn<'awaitingIntent' | 'paying' | 'authorizing'>;

/**
 * Said when another tab of this browser is converting lists of this selection with its own
 * payment: both runs would charge for the places they share.
 */
export const ANOTHER_TAB_TEXT =
  'Another tab of this browser is converting lists of this archive right now, with its own payment. Places converted in both tabs are charged in both: to pay once, let that tab finish and download the files there.';

/** The payment view of the dialog: the amounts, the authorize-only explanation and the form. */
export function PaymentView({ state }: { state: PaymentState }) {
  const send = useSend();
  const config = useApp((store) => store.config.value);
  // The places that can be placed: the table multiplies out to the maximum charge.
  const places = selectedPlaces(state);
  const held =
    'authorization' in state && state.authorization.kind === 'held' ? state.authorization : null;
  // With an earlier visit's hold, what it found counts too (each place once), up to what it holds.
  const maxChargeCents = held
    ? Math.min(held.amountAuthorizedCents, chargeCents(Math.max(places, held.placesResolved)))
    : chargeCents(places);
  const free = isUnderMinimum(maxChargeCents) && held === null;
  const anotherTab =
    'authorization' in state &&
    state.authorization.kind === 'card' &&
    state.authorization.anotherTab === true;
  const busy = state.status === 'authorizing';

  function form() {
    if (state.status === 'awaitingIntent') {
      return (
        <div className="payment-loading">
          <Spinner label="Preparing secure payment…" visibleLabel />
        </div>
      );
    }
    const { authorization } = state;
    if (authorization.kind === 'free') return <FreePanel places={places} />;
    if (authorization.kind === 'held') return <HeldPanel held={authorization} busy={busy} />;
    if (config.payments === 'demo' || config.publishableKey === null) {
      return <DemoPanel busy={busy} />;
    }
    return (
      <Suspense
        fallback={
          <div className="payment-loading">
            <Spinner label="Loading the payment form…" visibleLabel />
          </div>
        }
      >
        <StripePanel
          publishableKey={config.publishableKey}
          clientSecret={authorization.clientSecret}
          busy={busy}
        />
      </Suspense>
    );
  }

  return (
    <>
      <div className="dialog-header-row">
        <Dialog.Title className="dialog-title">Payment</Dialog.Title>
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => send({ type: 'selectionResumed' })}
        >
          Back to Selection
        </button>
      </div>
      <Dialog.Description className="dialog-description">
        {free && places === 0
          ? 'Nothing in your selection can be placed.'
          : free
            ? 'Your selection is small enough to convert for free.'
            : held
              ? 'The payment held from your last visit covers this selection.'
              : 'Authorize the maximum charge; you pay only for places that convert.'}
      </Dialog.Description>
      <dl className="price-table">
        <div>
          <dt>Places to convert</dt>
          <dd>{formatPlaces(places)}</dd>
        </div>
        <div>
          <dt>Price per place</dt>
          <dd>{formatUsd(PRICE_PER_PLACE_CENTS)}</dd>
        </div>
        <div className="price-total">
          <dt>Maximum charge</dt>
          <dd>{free ? `${formatUsd(0)} (free)` : formatUsd(maxChargeCents)}</dd>
        </div>
      </dl>
      {anotherTab && <p className="payment-warning">{ANOTHER_TAB_TEXT}</p>}
      {!free && !held && (
        <p className="payment-explain">
          {`This amount is only authorized (held) on your card, not charged. After the conversion you are charged only for places that were converted successfully, at ${formatUsd(PRICE_PER_PLACE_CENTS)} each; the rest of the hold is released.`}
        </p>
      )}
      {!free && !held && config.payments === 'stripe' && (
        <p className="payment-hint">
          Optional: enter your e-mail and phone number in the payment form for faster checkout next
          time.
        </p>
      )}
      {state.status === 'paying' && state.error !== undefined && (
        // Kept until the next attempt (the toast that said it goes); the Authorize button, which
        // keeps the focus, is described by it.
        <p className="inline-error payment-error" id={PAYMENT_ERROR_ID}>
          {state.error}
        </p>
      )}
      {form()}
    </>
  );
}
