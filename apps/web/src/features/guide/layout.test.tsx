import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConverterPage } from '../../app/ConverterPage';
import { mount } from '../../test/fixtures';
import { linesOf } from '../../test/reads';
import { MY_MAPS_COMPUTER_NOTE } from './HowToUse';
import { GUIDE_FIRST_QUERY } from './layout';

/** A `matchMedia` whose answer for the guide's query the test decides, and can change. */
function stubWidth(wide: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    get matches() {
      return wide;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => {
    if (query !== GUIDE_FIRST_QUERY) return original.call(window, query);
    return list as unknown as MediaQueryList;
  }) as typeof window.matchMedia;
  restore = () => {
    window.matchMedia = original;
  };
  return {
    resize(next: boolean) {
      wide = next;
      for (const listener of listeners) listener();
    },
  };
}

let restore = () => {};
afterEach(() => restore());

function sectionHeadings(): (string | null)[] {
  return screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
}

describe('page order', () => {
  it("keeps the seed's order at desktop widths: the guide, then the upload card", () => {
    stubWidth(true);
    mount(<ConverterPage />);
    expect(sectionHeadings()).toEqual(['How to Use This Converter', 'Upload Your Takeout Archive']);
    expect(screen.queryByRole('link', { name: 'How to Use This Converter' })).toBeNull();
  });

  it('puts the upload card first on a phone, and links down to the guide', () => {
    stubWidth(false);
    mount(<ConverterPage />);
    expect(sectionHeadings()).toEqual(['Upload Your Takeout Archive', 'How to Use This Converter']);
    expect(
      screen.getByRole('link', { name: 'How to Use This Converter' }).getAttribute('href'),
    ).toBe('#how-to-use');
    expect(document.getElementById('how-to-use')?.textContent).toContain(MY_MAPS_COMPUTER_NOTE);
  });

  it('follows the width when it changes (a phone turned, a window resized)', () => {
    const width = stubWidth(false);
    mount(<ConverterPage />);
    act(() => width.resize(true));
    expect(sectionHeadings()).toEqual(['How to Use This Converter', 'Upload Your Takeout Archive']);
    act(() => width.resize(false));
    expect(sectionHeadings()).toEqual(['Upload Your Takeout Archive', 'How to Use This Converter']);
  });

  it("keeps the seed's order where matchMedia is missing", () => {
    vi.stubGlobal('matchMedia', undefined);
    restore = () => vi.unstubAllGlobals();
    mount(<ConverterPage />);
    expect(sectionHeadings()).toEqual(['How to Use This Converter', 'Upload Your Takeout Archive']);
  });
});

describe('HowToUse', () => {
  it('says under the My Maps step that importing needs a computer', () => {
    stubWidth(true);
    mount(<ConverterPage />);
    const steps = screen.getAllByRole('listitem');
    expect(steps[2]?.textContent).toContain('Import into Google My Maps');
    expect(steps[2]?.textContent).toContain(MY_MAPS_COMPUTER_NOTE);
    expect(steps[0]?.textContent).not.toContain('needs a computer');
  });

  it('points step 2 to the upload card where it is: below at desktop widths, above on a phone', () => {
    const width = stubWidth(true);
    mount(<ConverterPage />);
    const step2 = () => linesOf(screen.getAllByRole('listitem')[1]!);
    expect(step2().slice(0, 2)).toEqual(['2', 'Upload, select and pay']);
    expect(step2()[2]).toMatch(/^Drop the ZIP file below, choose the lists/);
    act(() => width.resize(false));
    expect(step2()[2]).toMatch(/^Upload the ZIP file above, choose the lists/);
    expect(screen.queryByText(/ZIP file below/)).toBeNull();
  });
});

describe('the guide', () => {
  it('says to export both sources: Saved for the lists, Maps (your places) for starred places', () => {
    stubWidth(true);
    mount(<ConverterPage />);
    const guide = screen.getByRole('region', { name: 'How to Use This Converter' });
    expect(guide.textContent).toContain(
      'click Deselect all, then select Saved for your lists and Maps (your places) for your starred places. Export once and download the ZIP file.',
    );
  });
});
