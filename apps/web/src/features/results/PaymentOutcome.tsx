import {
  chargeCents,
  isUnderMinimum,
  MINIMUM_CHARGE_CENTS,
  PRICE_PER_PLACE_CENTS,
} from '@placeport/contract';
import { Spinner } from '../../components/Spinner';
import { formatCount, formatPlaces } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import type { Authorization, Capture, Counts } from '../../state/types';
import { PaymentReceipt } from './PaymentReceipt';

interface PaymentOutcomeProps {
  authorization: Authorization;
  capture: Capture;
  totals: Counts;
}

/**
 * 'Payment Cancelled' when nothing (or too little to charge) converted, else 'Payment Summary';
 * 'Payment Not Settled' when nothing converted and the cancellation itself failed;
 * once the capture is settled, its receipt below (and, when the server charged for more places than
 * converted here, why: its own count is the floor); if it failed, the seed's warning with the
 * payment's reference.
 */
export function PaymentOutcome({ authorization, capture, totals }: PaymentOutcomeProps) {
  const converted = totals.converted;
  const finalCents = chargeCents(converted);

  if (authorization.kind === 'free') {
    return (
      <div className="payment-outcome">
        <h3>Payment Summary</h3>
        <p>{`Successfully converted: ${formatPlaces(converted)}`}</p>
        <p>{`Final charge: ${formatUsd(0)}. This selection was free, so nothing was charged.`}</p>
      </div>
    );
  }

  const cancelled =
    capture.kind === 'settled'
      ? capture.cancelled
      : isUnderMinimum(finalCents) && capture.kind === 'pending';
  if (cancelled) {
    return (
      <div className="payment-outcome is-cancelled">
        <h3>Payment Cancelled</h3>
        <p>
          {converted === 0
            ? 'No places were converted, so your payment authorization has been cancelled. You have not been charged.'
            : isUnderMinimum(finalCents)
              ? `Only ${formatPlaces(converted)} converted (${formatUsd(finalCents)}), under the ${formatUsd(MINIMUM_CHARGE_CENTS)} minimum card charge, so your payment authorization has been cancelled. You have not been charged.`
              : // The server settled for less than this page counted (its own count is what it
                // charges): say what it decided, not a reason that does not add up.
                'The server cancelled your payment authorization: it charged nothing for this run. You have not been charged.'}
        </p>
        {capture.kind === 'settled' && <PaymentReceipt receipt={capture} />}
      </div>
    );
  }

  if (capture.kind === 'failed' && converted === 0) {
    // Nothing converted, yet the authorization could not be cancelled: not a summary of a charge.
    return (
      <div className="payment-outcome is-cancelled">
        <h3>Payment Not Settled</h3>
        <p>
          No places were converted, but the payment authorization could not be cancelled from this
          page.
        </p>
        <p className="inline-error" role="alert">
          {capture.message}
        </p>
      </div>
    );
  }

  const charged = capture.kind === 'settled' ? capture.amountCapturedCents : finalCents;
  return (
    // Green only for a charge the server confirmed or is confirming; a failed capture is neutral.
    <div className={`payment-outcome${capture.kind === 'failed' ? ' is-neutral' : ''}`}>
      <h3>Payment Summary</h3>
      <p>{`Successfully converted: ${formatPlaces(converted)}`}</p>
      <p>{`Final charge: ${formatUsd(charged)}`}</p>
      {charged > finalCents && (
        <p>
          {`The server found the locations of ${formatPlaces(Math.round(charged / PRICE_PER_PLACE_CENTS))} for this payment, more than the ${formatCount(converted)} converted here; you are charged for every place it found.`}
        </p>
      )}
      {capture.kind === 'pending' && <Spinner label="Finalizing your payment…" visibleLabel />}
      {capture.kind === 'settled' && <PaymentReceipt receipt={capture} />}
      {capture.kind === 'failed' && (
        <p className="inline-error" role="alert">
          {capture.message}
        </p>
      )}
    </div>
  );
}
