import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../state/messages';
import {
  errorHeading,
  formatCount,
  formatDateTime,
  formatFileSize,
  formatPlaces,
  listDisplayName,
} from './format';

describe('formatFileSize (base 1024, one decimal, Bytes/KB/MB/GB)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1_500_000, '1.4 MB'],
    [1024 ** 2, '1 MB'],
    [1024 ** 3 * 2.25, '2.3 GB'],
    [1024 ** 4 * 3, '3072 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('moves to the next unit when rounding reaches 1024', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatFileSize(1024 * 1023.94)).toBe('1023.9 KB');
  });

  it('treats nonsense as zero', () => {
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
  });
});

describe('formatCount (thousands separators without Intl)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [2000, '2,000'],
    [100_000, '100,000'],
    [1_234_567, '1,234,567'],
    [-4500, '-4,500'],
  ])('%d → %s', (count, text) => {
    expect(formatCount(count)).toBe(text);
  });

  it('writes what toLocaleString("en-US") writes for whole numbers', () => {
    for (let count = 0; count < 3_000_000; count += 997) {
      expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
    }
  });
});

describe('listDisplayName', () => {
  it.each([
    ['Want to go.csv', 'Want to go'],
    ['Favourite places.CSV', 'Favourite places'],
    ['東京 🍜.Csv', '東京 🍜'],
    ['Trip.csv.csv', 'Trip.csv'],
    ['No extension', 'No extension'],
    ['csv', 'csv'],
  ])('%s → %s', (name, display) => {
    expect(listDisplayName(name)).toBe(display);
  });
});

describe('formatPlaces', () => {
  it('says place or places', () => {
    expect(formatPlaces(0)).toBe('0 places');
    expect(formatPlaces(1)).toBe('1 place');
    expect(formatPlaces(12_345)).toBe('12,345 places');
  });
});

describe('errorHeading', () => {
  it.each([
    ['Failed to initialize payment. Please try again.', 'Payment Issue'],
    ['Payment required before conversion.', 'Payment Issue'],
    ['The PAYMENT file is odd', 'Payment Issue'],
    ['Please upload a ZIP file from Google Takeout with your saved places.', 'Invalid File'],
    ['No CSV files found in the zip file.', 'Invalid File'],
    [MESSAGES.noPlaceLists, 'Invalid File'],
    [MESSAGES.incompleteZip, 'Invalid File'],
    ['CSV parsing error: Quotes', 'Invalid File'],
    ['Failed to extract Zip', 'Invalid File'],
    ['Profile missing', 'Invalid File'],
    ['An error occurred during conversion.', 'Error'],
    ['500: Internal Server Error', 'Error'],
  ])('%s → %s', (message, heading) => {
    expect(errorHeading(message)).toBe(heading);
  });
});

describe('formatDateTime (the receipt date, local time, without Intl)', () => {
  it.each([
    [new Date(2026, 0, 15, 14, 5), 'January 15, 2026, 2:05 PM'],
    [new Date(2026, 11, 31, 0, 0), 'December 31, 2026, 12:00 AM'],
    [new Date(2027, 5, 1, 12, 30), 'June 1, 2027, 12:30 PM'],
    [new Date(2025, 8, 9, 9, 59), 'September 9, 2025, 9:59 AM'],
  ])('%s → %s', (date, text) => {
    expect(formatDateTime(date.getTime())).toBe(text);
  });

  it('writes what toLocaleString("en-US") writes, without the seconds', () => {
    const moment = new Date(2026, 2, 8, 23, 41, 17).getTime();
    const intl = new Date(moment).toLocaleString('en-US', {
      dateStyle: 'long',
      timeStyle: 'short',
    });
    expect(intl.replace(' at ', ', ').replace(/\u202f/g, ' ')).toBe(formatDateTime(moment));
  });
});
