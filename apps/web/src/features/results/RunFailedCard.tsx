import { PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import { useRef } from 'react';
import { useApp, useSend } from '../../app/context';
import { Spinner } from '../../components/Spinner';
import { formatPlaces } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import { useReveal } from '../../lib/useReveal';
import type { Authorization, Capture, StateIn } from '../../state/types';
import { PaymentReceipt } from './PaymentReceipt';

/** Shown once the status is failed: what went wrong, what became of the payment, the way back. */
export function RunFailedCard() {
  const state = useApp((store) => store.state);
  return state.status === 'failed' ? <RunFailedView state={state} /> : null;
}

function RunFailedView({ state }: { state: StateIn<'failed'> }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const send = useSend();
  useReveal(heading);
  return (
    <section className="card run-failed" aria-labelledby="run-failed-title">
      <h2 id="run-failed-title" ref={heading} tabIndex={-1}>
        {state.cancelled ? 'Conversion Cancelled' : 'Conversion Failed'}
      </h2>
      <p className="run-failed-message">{state.error}</p>
      <FailedRunPayment
        authorization={state.authorization}
        capture={state.capture}
        cancelled={state.cancelled}
      />
      {state.capture.kind !== 'pending' && (
        <div className="results-actions">
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'selectionOpened' })}
          >
            Back to the lists
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * What became of the hold after a failed run, from the receipt the server returned: the page
 * claimed nothing, and the server charged the places it had found for the payment (product.md
 * "Money": its own count is the floor), or cancelled the authorization. Says how much and why, or
 * that nothing was charged; if the release did not answer, its warning with the reference.
 */
export function FailedRunPayment({
  authorization,
  capture,
  cancelled = false,
}: {
  authorization: Authorization;
  capture: Capture;
  /** The person cancelled the run (rather than it failing). */
  cancelled?: boolean;
}) {
  const ended = cancelled ? 'you cancelled the conversion' : 'the conversion failed';
  if (authorization.kind === 'free' || capture.kind === 'notNeeded') {
    return <p>This selection was free, so nothing was charged.</p>;
  }
  switch (capture.kind) {
    case 'pending':
      return (
        <div className="payment-outcome is-neutral">
          <Spinner label="Finalizing your payment…" visibleLabel />
        </div>
      );
    case 'failed':
      return (
        <div className="payment-outcome is-cancelled">
          <h3>Payment Hold Not Released</h3>
          <p className="inline-error" role="alert">
            {capture.message}
          </p>
        </div>
      );
    case 'settled': {
      if (capture.cancelled || capture.amountCapturedCents === 0) {
        return (
          <div className="payment-outcome is-cancelled">
            <h3>Payment Cancelled</h3>
            <p>
              {`${cancelled ? 'You cancelled the conversion' : 'The conversion failed'}, so your payment authorization has been cancelled and the hold of ${formatUsd(capture.amountReleasedCents)} released. You have not been charged.`}
            </p>
            <PaymentReceipt receipt={capture} level={4} />
          </div>
        );
      }
      const found = Math.round(capture.amountCapturedCents / PRICE_PER_PLACE_CENTS);
      return (
        <div className="payment-outcome is-neutral">
          <h3>Payment Summary</h3>
          <p>
            {`The server had already found the locations of ${formatPlaces(found)} for this payment when ${ended}; you were charged ${formatUsd(capture.amountCapturedCents)} for them.`}
          </p>
          {capture.amountReleasedCents > 0 && (
            <p>{`The rest of the hold, ${formatUsd(capture.amountReleasedCents)}, was released.`}</p>
          )}
          <PaymentReceipt receipt={capture} level={4} />
        </div>
      );
    }
  }
}
