import { MESSAGES as SHARED } from '@placeport/contract';

/**
 * The seed's exact messages (the contract's), with the page's names for the two the converter
 * says too: `notZip` is its `notAZip`, `noSelection` its `noListsChosen`.
 */
export const MESSAGES = {
  ...SHARED,
  notZip: SHARED.notAZip,
  noSelection: SHARED.noListsChosen,
} as const;

/**
 * The seed's capture-failure warning, quoting the payment's reference so support can find it
 * (product.md "Receipt").
 */
export function captureFailedMessage(reference: string): string {
  return `${MESSAGES.captureFailed} Reference: ${reference}`;
}

/**
 * After a failed run, the release of the hold did not answer: say so, quoting the payment's
 * reference like {@link captureFailedMessage}.
 */
export function releaseFailedMessage(reference: string): string {
  return `${MESSAGES.releaseFailed} Reference: ${reference}`;
}
