import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';

describe('MESSAGES', () => {
  it("keeps product.md's texts for an archive without place lists and a ZIP cut short", () => {
    expect(MESSAGES.noPlaceLists).toBe(
      'No saved place lists found in this archive. In Google Takeout, select Saved (and Maps (your places) for starred places).',
    );
    expect(MESSAGES.incompleteZip).toBe(
      'This file is not a complete ZIP archive. Download it again from Google Takeout.',
    );
  });
});
