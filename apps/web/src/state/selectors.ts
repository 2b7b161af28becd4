/**
 * Derived views of the state, so components never re-derive the seed's rules themselves.
 */
import { chargeCents } from '@placeport/contract';
import { selectedPlaces, selectedRows } from './machine';
import type { AppState, Archive } from './types';

/**
 * The message of the error panel under the drop zone, if any (a failed conversion's message is in
 * its own card, beside what became of the payment).
 */
export function errorMessage(state: AppState): string | null {
  switch (state.status) {
    case 'empty':
    case 'loaded':
    case 'selecting':
      return state.error;
    default:
      return null;
  }
}

/**
 * Places of the chosen lists, those of them that can be placed (the others have no usable link and
 * are never charged), and the maximum charge in cents.
 */
export function selectionTotals(archive: Archive): {
  places: number;
  chargeable: number;
  maxChargeCents: number;
} {
  const chargeable = selectedPlaces(archive);
  return { places: selectedRows(archive), chargeable, maxChargeCents: chargeCents(chargeable) };
}
