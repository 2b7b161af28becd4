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
 * 'Payment Not Settled' when nothing converted and the cancellation itself failed (or got no answer
 * and is asked again);
 * once the capture is settled, its receipt below (and, when the server charged for more places than
 * converted here, why: its own count is the floor); if it failed, or is being asked again after a
 * lost answer, "Not charged yet" instead of a final charge, and the warning with the payment's
 * reference.
 */
export function PaymentOutcome({ authorization, capture, totals }: PaymentOutcomeProps) {
  const converted = totals.converted;
  const finalCents = chargeCents(converted);
  // A held payment's capture charges at least the places it had found when it was taken up (the
  // server's count is the floor): until its answer, that is the least it will charge.
  const floorCents = authorization.kind === 'held' ? chargeCents(authorization.placesResolved) : 0;
  const expectedCents = Math.max(finalCents, floorCents);

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
      : isUnderMinimum(expectedCents) && capture.kind === 'pending';
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
        {capture.kind === 'settled' && <PaymentReceipt receipt={capture} level={4} />}
      </div>
    );
  }

  if (capture.kind === 'failed' && converted === 0) return <UnreleasedHold capture={capture} />;

  if (capture.kind === 'failed')
    return <UnsettledPayment capture={capture} converted={converted} />;

  const charged = capture.kind === 'settled' ? capture.amountCapturedCents : expectedCents;
  return (
    <div className="payment-outcome">
      <h3>Payment Summary</h3>
      <p>{`Successfully converted: ${formatPlaces(converted)}`}</p>
      <p>{`Final charge: ${formatUsd(charged)}`}</p>
      {charged > finalCents && (
        <p>
          {`The server found the locations of ${formatPlaces(Math.round(charged / PRICE_PER_PLACE_CENTS))} for this payment, more than the ${formatCount(converted)} converted here; you are charged for every place it found.`}
        </p>
      )}
      {capture.kind === 'pending' && <Spinner label="Finalizing your payment…" visibleLabel />}
      {capture.kind === 'settled' && <PaymentReceipt receipt={capture} level={4} />}
    </div>
  );
}

/**
 * Nothing converted, yet the authorization is not cancelled: not a summary of a charge. A release
 * that got no answer and is asked again is not cancelled yet (a status); one that failed could not
 * be cancelled from this page (an alert).
 */
function UnreleasedHold({ capture }: { capture: Extract<Capture, { kind: 'failed' }> }) {
  return (
    <div className="payment-outcome is-cancelled">
      <h3>Payment Not Settled</h3>
      {capture.retrying ? (
        <>
          <p>
            No places were converted, but the payment authorization is not cancelled yet, as far as
            this page knows.
          </p>
          <p role="status">{capture.message}</p>
        </>
      ) : (
        <>
          <p>
            No places were converted, but the payment authorization could not be cancelled from this
            page.
          </p>
          <p className="inline-error" role="alert">
            {capture.message}
          </p>
        </>
      )}
    </div>
  );
}

/**
 * The capture failed, or got no answer and is asked again: nothing was charged from this page, so
 * no final charge is shown (the server decides it, from its own count, as the message says).
 */
function UnsettledPayment({
  capture,
  converted,
}: {
  capture: Extract<Capture, { kind: 'failed' }>;
  converted: number;
}) {
  return (
    <div className="payment-outcome is-neutral">
      <h3>Payment Summary</h3>
      <p>{`Successfully converted: ${formatPlaces(converted)}`}</p>
      <p>
        {capture.retrying
          ? 'Not charged yet, as far as this page knows: the payment is not settled.'
          : 'Not charged by this page: the payment could not be settled here.'}
      </p>
      {capture.retrying ? (
        <p role="status">{capture.message}</p>
      ) : (
        <p className="inline-error" role="alert">
          {capture.message}
        </p>
      )}
    </div>
  );
}
