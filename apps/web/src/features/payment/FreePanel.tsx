import { MIN_PAID_PLACES, MINIMUM_CHARGE_CENTS } from '@placeport/contract';
import { useEffects } from '../../app/context';
import { formatUsd } from '../../lib/money';

/**
 * Selections under the minimum card charge convert free, with no card (product.md "Money"); one
 * where no place can be placed (`places` 0) is said to make no map file.
 */
export function FreePanel({ places }: { places: number }) {
  const effects = useEffects();
  return (
    <div className="payment-form">
      <div className="free-panel" role="note">
        <p className="demo-title">This conversion is free</p>
        <p>
          {places === 0
            ? 'None of the places chosen can be placed (they have no location, or no usable link), so the conversion makes no map file: only the list of those places with the reason, to check. No card is needed.'
            : `Card payments start at ${formatUsd(MINIMUM_CHARGE_CENTS)}, so selections under that amount (fewer than ${MIN_PAID_PLACES} places) are converted free. No card is needed.`}
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
