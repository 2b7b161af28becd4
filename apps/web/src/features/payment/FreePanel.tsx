import { MIN_PAID_PLACES, MINIMUM_CHARGE_CENTS } from '@placeport/contract';
import { useEffects } from '../../app/context';
import { formatUsd } from '../../lib/money';

/** Selections under the minimum card charge convert free, with no card (product.md "Money"). */
export function FreePanel() {
  const effects = useEffects();
  return (
    <div className="payment-form">
      <div className="free-panel" role="note">
        <p className="demo-title">This conversion is free</p>
        <p>
          {`Card payments start at ${formatUsd(MINIMUM_CHARGE_CENTS)}, so selections under that amount (fewer than ${MIN_PAID_PLACES} places) are converted free. No card is needed.`}
        </p>
      </div>
      <button
        type="button"
        className="button primary wide"
        onClick={() => void effects.convertFree()}
      >
        Convert for Free
      </button>
    </div>
  );
}
