import { MESSAGES as CONVERTER_MESSAGES } from '@placeport/converter/internal';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';

describe('MESSAGES', () => {
  it('says exactly what the converter says for the archive errors it reports', () => {
    expect({
      notZip: MESSAGES.notZip,
      noCsv: MESSAGES.noCsv,
      noPlaceLists: MESSAGES.noPlaceLists,
      incompleteZip: MESSAGES.incompleteZip,
      extractFailed: MESSAGES.extractFailed,
      noSelection: MESSAGES.noSelection,
    }).toEqual({
      notZip: CONVERTER_MESSAGES.notAZip,
      noCsv: CONVERTER_MESSAGES.noCsv,
      noPlaceLists: CONVERTER_MESSAGES.noPlaceLists,
      incompleteZip: CONVERTER_MESSAGES.incompleteZip,
      extractFailed: CONVERTER_MESSAGES.extractFailed,
      noSelection: CONVERTER_MESSAGES.noListsChosen,
    });
  });

  it("keeps product.md's texts for an archive without place lists and a ZIP cut short", () => {
    expect(MESSAGES.noPlaceLists).toBe(
      'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
    );
    expect(MESSAGES.incompleteZip).toBe(
      'This file is not a complete ZIP archive. Download it again from Google Takeout.',
    );
  });
});
