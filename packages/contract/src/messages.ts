/**
 * The seed's exact user-facing messages (sections 5, 8 and 9) and product.md's, and ours where the
 * seed names none: what the converter says of an archive, and what the page says of a payment or a
 * run. In one place so every app words a thing the same and tests can name them.
 */
export const MESSAGES = {
  notAZip: 'Please upload a ZIP file from Google Takeout with your saved places.',
  noCsv: 'No CSV files found in the zip file.',
  /** What to do after `noCsv`, which the seed words without a next step. */
  noCsvNextStep:
    'Choose the ZIP file from Google Takeout, exported with Saved selected (and Maps (your places) for starred places).',
  /** product.md: every CSV of the archive is an image or page list, none holds places. */
  noPlaceLists:
    'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
  /** product.md: the ZIP cannot be read, most often a download cut short. */
  incompleteZip: 'This file is not a complete ZIP archive. Download it again from Google Takeout.',
  /** A file named .zip that is no ZIP at all (it does not start as one): not a download cut short. */
  notAZipInside:
    'This file is not a ZIP archive. Choose the ZIP file you downloaded from Google Takeout (its name starts with "takeout-").',
  extractFailed: 'Failed to extract zip file.',
  /** A ZIP whose lists are protected with a password (made again by another tool). */
  passwordProtected:
    'This ZIP file is protected with a password, and PlacePort cannot read it. Use the ZIP file exactly as Google Takeout gave it (Takeout sets no password), or create it again without one.',
  /** The browser could not read the chosen file (moved, deleted, a folder, no permission). */
  fileUnreadable:
    'This file could not be read: it may have been moved, or it is a folder. Choose the ZIP file from Google Takeout again.',
  csvEmpty: 'CSV file is empty or contains no valid data rows.',
  /**
   * product.md "Starred places": `Saved Places.json` (or its name in the account's language) that is
   * not JSON or not a FeatureCollection.
   */
  jsonParse:
    'This starred-places file could not be read: it is not a Google Maps saved-places file.',
  /** A starred-places file without a single place. */
  jsonEmpty: 'This starred-places file holds no places.',
  /** The archive's only list was a starred-places file without a place (Takeout writes them so). */
  noPlacesStarredEmpty:
    'Your starred places file holds no places, and this archive has no saved place lists. In Google Takeout, select Saved for your saved lists.',
  noListsChosen: 'Please select at least one file to convert.',
  validationFailed: 'Validation failed',
  noArchive: 'Please choose a ZIP file first.',
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
