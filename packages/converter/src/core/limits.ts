import { MAX_ARCHIVE_PLACES } from '@placeport/contract';
import { ConverterError, tooManyPlacesMessage } from './errors.js';

/**
 * Explicit bounds on what one archive may ask of the converter. Bytes are checked from the ZIP's
 * central directory before anything is inflated, so a zip bomb is refused without allocating it;
 * places are counted while the lists are parsed ({@link PlaceCounter}).
 */
export interface Limits {
  maxArchiveBytes: number;
  maxEntries: number;
  maxLists: number;
  maxCsvBytes: number;
  maxPlacemarksPerKml: number;
  /** Places in all the lists of one archive together ({@link MAX_PLACES}). */
  maxPlaces: number;
}

/** The most places one archive may hold, all its lists together (the contract's, with why). */
export const MAX_PLACES = MAX_ARCHIVE_PLACES;

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
  maxPlaces: MAX_PLACES,
};

/**
 * Counts the places of one archive as its lists are parsed, and refuses the archive (ConverterError
 * `too-many-places`, its message naming the cap) at the first place past `max`. One counter is
 * shared by all the lists of an archive, so the cap is per archive, not per list.
 */
export class PlaceCounter {
  private counted = 0;
  constructor(readonly max: number = MAX_PLACES) {}

  /** Places counted so far. */
  get count(): number {
    return this.counted;
  }

  /** Takes back what was counted past `count` (a list read again from another encoding). */
  rewind(count: number): void {
    this.counted = Math.min(this.counted, count);
  }

  /** Counts `places` more; throws once the archive holds more than `max`. */
  add(places = 1): void {
    this.counted += places;
    if (this.counted > this.max) {
      throw new ConverterError('too-many-places', tooManyPlacesMessage(this.max));
    }
  }
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** Formats a byte limit for messages: "512 MB", "2 GB", "1.5 GB", "64 KB". */
export function describeBytes(bytes: number): string {
  if (bytes >= GB) return `${Number((bytes / GB).toFixed(1))} GB`;
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Longest link the resolver accepts (the contract's; a longer one is `not_allowed`). */
export { MAX_URL_LENGTH } from '@placeport/contract';
