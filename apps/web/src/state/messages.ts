/** The seed's exact user-facing messages (sections 5 and 8), in one place so tests can name them. */
export const MESSAGES = {
  notZip: 'Please upload a ZIP file from Google Takeout with your saved places.',
  noCsv: 'No CSV files found in the zip file.',
  extractFailed: 'Failed to extract zip file.',
  noSelection: 'Please select at least one file to convert.',
  intentFailed: 'Failed to initialize payment. Please try again.',
  unexpected: 'An unexpected error occurred',
  authorized: "Starting conversion. You'll only be charged for successfully converted places.",
  captureFailed:
    'Warning: Payment capture failed. Please contact support if you were charged incorrectly.',
  conversionFailed: 'An error occurred during conversion.',
} as const;
