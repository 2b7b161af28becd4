/** The seed's exact user-facing messages (sections 5 and 8) and product.md's, in one place so tests can name them. */
export const MESSAGES = {
  notZip: 'Please upload a ZIP file from Google Takeout with your saved places.',
  noCsv: 'No CSV files found in the zip file.',
  /** product.md: the converter's `no-place-lists`, an archive of image and page lists only. */
  noPlaceLists:
    'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
  /** product.md: the converter's `incomplete-zip`, a ZIP that cannot be read (a download cut short). */
  incompleteZip: 'This file is not a complete ZIP archive. Download it again from Google Takeout.',
  /** What to do after `noCsv`, which the seed words without a next step. */
  noCsvNextStep:
    'Choose the ZIP file from Google Takeout, exported with Saved selected (and Maps (your places) for starred places).',
  extractFailed: 'Failed to extract zip file.',
  noSelection: 'Please select at least one file to convert.',
  intentFailed: 'Failed to initialize payment. Please try again.',
  unexpected: 'An unexpected error occurred',
  authorized: "Starting conversion. You'll only be charged for successfully converted places.",
  captureFailed:
    'Warning: Payment capture failed. Please contact support if you were charged incorrectly.',
  conversionFailed: 'An error occurred during conversion.',
  /** Cancel had to end the worker (it could not be asked to stop): its files were never written. */
  cancelled:
    'You cancelled the conversion before its files were written, so there are no files to download. Your lists are still here: choose them again to convert them.',
  /** product.md "Receipt": after a failed run, the release of the hold did not answer. */
  releaseFailed:
    'Warning: Your payment hold could not be released. The server settles it by itself later, charging only for the places it looked up. Please contact support if you were charged incorrectly.',
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
