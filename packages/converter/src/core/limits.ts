/**
 * Explicit bounds on what one archive may ask of the converter. Checked from the ZIP's central
 * directory before anything is inflated, so a zip bomb is refused without allocating it.
 */
export interface Limits {
  maxArchiveBytes: number;
  maxEntries: number;
  maxLists: number;
  maxCsvBytes: number;
  maxPlacemarksPerKml: number;
}

/** The limits every archive is held to unless a caller passes its own. */
export const LIMITS: Readonly<Limits> = {
  /** The archive file itself. A "Saved"-only Takeout export is a few megabytes. */
  maxArchiveBytes: 512 * 1024 * 1024,
  /** Entries listed in the ZIP directory (files and folders). */
  maxEntries: 50_000,
  /** Place lists (CSV files) taken from one archive. */
  maxLists: 2_000,
  /** Uncompressed bytes of all CSV lists together (100,000 places are about 15 MB). */
  maxCsvBytes: 256 * 1024 * 1024,
  /** Placemarks in one KML file: a Google My Maps layer takes at most 2,000. */
  maxPlacemarksPerKml: 2_000,
};

const MB = 1024 * 1024;

/** Formats a byte limit for messages, e.g. "512 MB". */
export function describeBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Longest link the resolver accepts (a longer one is `not_allowed`, and the API refuses it);
 * Takeout's are percent-encoded ASCII of a few hundred characters.
 */
export const MAX_URL_LENGTH = 2048;
