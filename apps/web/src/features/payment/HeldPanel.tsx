import { PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import { useEffects } from '../../app/context';
import { Spinner } from '../../components/Spinner';
import { formatPlaces } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import type { HeldPayment } from '../../state/types';
import { PAYMENT_ERROR_ID, useFailedAttempt } from './AuthorizeButton';

/**
 * In place of the card form: the hold an earlier visit left open for these lists of this archive
 * (a reload or a closed tab during its run). Converting with it places no new hold, and its
 * allowance counts distinct links, so what it already found is not charged again (product.md
 * "Money"); "Use a New Card Instead" leaves it to be settled as the last-visit card says.
 */
export function HeldPanel({ held, busy }: { held: HeldPayment; busy: boolean }) {
  const effects = useEffects();
  const failed = useFailedAttempt();
  const found = held.placesResolved;
  return (
    <div className="payment-form">
      <div className="held-panel" role="note" aria-labelledby="held-title">
        <p className="demo-title" id="held-title">
          A payment from your last visit is still held
        </p>
        <p>
          {`${formatUsd(held.amountAuthorizedCents)} is still held (authorized, not charged) on your card from your last visit, for these lists of this archive. Convert with it: no new hold is placed${found > 0 ? `, and the ${formatPlaces(found)} already found with it are not charged again` : ''}.`}
        </p>
        <p>
          {`After the conversion you are charged for the places converted, at ${formatUsd(PRICE_PER_PLACE_CENTS)} each, or for every place found with this payment if that is more (each place once), and the rest of the hold is released.`}
        </p>
        <p className="receipt-reference">{`Reference: ${held.paymentIntentId}`}</p>
      </div>
      {/* Busy, it keeps the focus (aria-disabled, presses ignored): a disabled button would drop it. */}
      <button
        type="button"
        className="button primary wide"
        aria-disabled={busy || undefined}
        aria-busy={busy}
        aria-describedby={failed ? PAYMENT_ERROR_ID : undefined}
        onClick={() => {
          if (!busy) void effects.convertWithHeld();
        }}
      >
        {busy ? (
          <Spinner label="Checking the held payment…" visibleLabel />
        ) : (
          'Convert with the Held Payment'
        )}
      </button>
      <button
        type="button"
        className="button wide"
        disabled={busy}
        onClick={() => void effects.useNewCard()}
      >
        Use a New Card Instead
      </button>
    </div>
  );
}
