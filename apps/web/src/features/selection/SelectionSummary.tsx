import { chargeCents, isUnderMinimum, PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import { formatPlaces } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import {
  isConvertible,
  selectedPlaces,
  selectedRows,
  selectedWithoutLocation,
} from '../../state/machine';
import type { Archive } from '../../state/types';

/**
 * The counts above the lists: lists chosen, their places, and the most the selection can cost
 * (worded as the payment view words it, free under the minimum card charge), with the note that
 * only converted places are charged. Lists that cannot be converted are never counted, and places
 * without a location (Takeout's 0,0) or a usable link (none, or one the resolver refuses) are
 * never in the charge. Chosen lists converted earlier in this session are pointed out: converting
 * them again is paid again.
 */
export function SelectionSummary({ archive }: { archive: Archive }) {
  const places = selectedRows(archive);
  const chargeable = selectedPlaces(archive);
  const maxChargeCents = chargeCents(chargeable);
  const unplaceable = places - chargeable;
  const withoutLocation = selectedWithoutLocation(archive);
  const why =
    withoutLocation === 0
      ? 'without a usable link'
      : withoutLocation === unplaceable
        ? 'without a location'
        : 'without a location or a usable link';
  const unusableNote =
    unplaceable > 0
      ? ` ${formatPlaces(unplaceable)} ${why} ${unplaceable === 1 ? 'is' : 'are'} never charged.`
      : '';
  const free = chargeable > 0 && isUnderMinimum(maxChargeCents);
  const chosen = new Set(archive.selected);
  const selected = archive.lists.filter((list) => chosen.has(list.path) && isConvertible(list));
  const again = selected.filter((list) => archive.converted.includes(list.path)).length;

  return (
    <>
      <div className="selection-summary">
        <p className="selection-count" aria-live="polite">
          {`${selected.length} of ${archive.lists.length} lists selected`}
        </p>
        <div className="selection-totals" aria-live="polite">
          <p className="selection-places">{`${formatPlaces(places)} in total`}</p>
          <p className="selection-charge">
            {`Maximum charge: ${free ? `${formatUsd(0)} (free)` : formatUsd(maxChargeCents)}`}
          </p>
        </div>
      </div>
      <p className="selection-charge-note">
        {selected.length > 0 && places === 0
          ? 'The lists chosen hold no places: choose a list with places to convert it.'
          : chargeable === 0 && places > 0
            ? `None of the places chosen can be placed: ${places === 1 ? 'it is' : `all ${formatPlaces(places)} are`} ${why}. Converting makes no map file, only the list of ${places === 1 ? 'it' : 'them'} with the reason (nothing is charged).`
            : free
              ? 'Your selection is small enough to convert for free.'
              : `Only converted places are charged, at ${formatUsd(PRICE_PER_PLACE_CENTS)} each.${unusableNote}`}
      </p>
      {again > 0 && (
        <p className="selection-again-note" role="status">
          {again === 1
            ? 'One chosen list was already converted in this session: converting it again converts (and charges for) its places again.'
            : `${again} chosen lists were already converted in this session: converting them again converts (and charges for) their places again.`}
        </p>
      )}
    </>
  );
}
