import { MESSAGES } from '@placeport/contract';

/** The seed's exact messages: one table, the contract's, for the converter, the API and the page. */
export { MESSAGES };

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
