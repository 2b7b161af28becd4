import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOOLTIP_DELAY_MS } from '../../app/context';
import { captureFailedMessage, MESSAGES } from '../../state/messages';
import type { AppState, Capture, FileResult } from '../../state/types';
import { fakeConverter, mount, RECEIPT, receiptLines, RESULT, STATES } from '../../test/fixtures';
import { lineMatching, linesOf } from '../../test/reads';
import { ResultsCard } from './ResultsCard';

type Complete = Extract<AppState, { status: 'complete' }>;

function complete(overrides: Partial<Complete>): AppState {
  return { ...(STATES.complete as Complete), ...overrides };
}

/** What the run's outcome above the lists says, sentence by sentence (it comes before any spinner). */
function runOutcome(): (string | null)[] {
  return Array.from(screen.getAllByRole('status')[0]!.children, (line) => line.textContent);
}

/** What the payment block headed `heading` says, line by line, its receipt as the one line 'Receipt'. */
function payment(heading: string): (string | null)[] {
  const block = screen.getByRole('heading', { name: heading, level: 3 }).parentElement!;
  return Array.from(block.children, (line) =>
    line.getAttribute('role') === 'group' ? 'Receipt' : line.textContent,
  );
}

/** A list's reasons for places without coordinates, each as count, reason and advice. */
function reasonsIn(panel: HTMLElement): (string | null)[] {
  return within(panel)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

const SKIPPED: FileResult = {
  path: 'Takeout/Saved/Broken.csv',
  name: 'Broken',
  fileName: 'Broken.csv',
  outputName: 'Broken',
  counts: { total: 0, converted: 0, skipped: 0 },
  unplaced: {},
  skippedReason: 'CSV file must contain "Title" and "URL" columns. Found columns: Name, Link',
  empty: false,
  files: [],
  failed: null,
};

const SPLIT: FileResult = {
  ...RESULT,
  path: 'Takeout/Saved/Big.csv',
  name: 'Big',
  fileName: 'Big.csv',
  outputName: 'Big',
  counts: { total: 4500, converted: 4500, skipped: 0 },
  files: [1, 2, 3].map((part) => ({
    key: `Takeout/Saved/Big.csv#${part}/3`,
    fileName: `Big (part ${part} of 3).kml`,
    url: `blob:big-${part}`,
    format: 'kml' as const,
    placemarks: 1500,
    part,
    parts: 3,
  })),
  failed: null,
};

describe('ResultsCard', () => {
  it('is hidden until the conversion is complete', () => {
    const { container } = mount(<ResultsCard />, { state: STATES.preparing });
    expect(container.textContent).toBe('');
  });

  it('titles the card with the number of files ready and shows the blue note and Next Steps', () => {
    mount(<ResultsCard />, { state: complete({ results: [RESULT, SPLIT, SKIPPED] }) });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'Conversion Complete - 4 File(s) Ready',
    );
    expect(lineMatching(/^Download your files now/)).toBe(
      'Download your files now, before you close this tab: they are not stored anywhere, so they are gone once you leave.',
    );
    // Four files: one per layer, "Add layer" before each further import.
    const steps = screen.getByRole('heading', { name: 'Next Steps' }).parentElement!;
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual([
      'Go to Google My Maps on a computer (importing is not available in the phone apps).',
      'Click Create a New Map.',
      'In the first layer, click Import and upload your first file. For each further file, click Add layer first, then Import in the new layer: one file per layer.',
      'Customize your map and share it.',
    ]);
  });

  it('takes the focus to its heading when it appears, so the page announces the results', () => {
    mount(<ResultsCard />, { state: STATES.complete });
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2 }));
  });

  it('shows a list with its KML name, counts and both downloads', () => {
    mount(<ResultsCard />, { state: STATES.complete });
    const head = screen.getByRole('article').firstElementChild as HTMLElement;
    // The list's part of the name is isolated in its own direction (<bdi>), the tail outside it.
    expect(linesOf(head)).toEqual(['Want to go.kml', 'Want to go', '37 of 40 places converted']);
    expect(head.querySelector('.file-result-name bdi')?.textContent).toBe('Want to go');
    // The file's name says which list it is: no "List:" line.
    expect(screen.queryByText(/^List:/)).toBeNull();
    const kml = screen.getByRole('link', { name: /^Download KML/ });
    expect(kml.getAttribute('href')).toBe('blob:kml-1');
    expect(kml.getAttribute('download')).toBe('Want to go.kml');
    const failed = screen.getByRole('link', { name: /^Download Failed \(3\)/ });
    expect(failed.getAttribute('download')).toBe('Want to go - failed places.csv');
    const counts = screen.getByText('Total').closest('dl')!;
    expect(counts.textContent).toBe('Total40Converted37Skipped3');
    // Each list's panel is titled by a heading under the card's, and named by it, so a screen
    // reader moves from list to list (accessibility audit); so is the panel's reasons part. The
    // name's <bdi> is read as a word of its own.
    const FILE_NAME_READ = /^Want to go ?\.kml$/;
    const title = screen.getByRole('heading', { level: 3, name: FILE_NAME_READ });
    expect(screen.getByRole('article', { name: FILE_NAME_READ }).contains(title)).toBe(true);
    screen.getByRole('heading', { level: 4, name: 'Why some places could not be placed' });
  });

  it('names same-named lists by the files they get, told apart by folder', () => {
    const fileOf = (fileName: string) => ({ ...RESULT.files[0]!, key: fileName, fileName });
    const old: FileResult = {
      ...RESULT,
      path: 'Takeout/Saved/Old/Want to go.CSV',
      fileName: 'Want to go.CSV',
      outputName: 'Want to go (Old)',
      files: [fileOf('Want to go (Old).kml')],
    };
    const trip: FileResult = {
      ...RESULT,
      path: 'Takeout/Saved/Trip: 2024 | 25?.csv',
      name: 'Trip: 2024 | 25?',
      fileName: 'Trip: 2024 | 25?.csv',
      outputName: 'Trip: 2024 | 25?',
      files: [fileOf('Trip_ 2024 _ 25_.kml')],
    };
    mount(<ResultsCard />, { state: complete({ results: [RESULT, old, trip] }) });
    const titles = screen
      .getAllByRole('article')
      .map((panel) => panel.querySelector('.file-result-name')!.textContent);
    // Each title is the name its download gets: two "Want to go.kml" would hide which is which.
    expect(titles).toEqual(['Want to go.kml', 'Want to go (Old).kml', 'Trip_ 2024 _ 25_.kml']);
    expect(
      screen.getAllByRole('link', { name: /^Download KML/ }).map((link) => link.textContent),
    ).toEqual([
      'Download KML — Want to go',
      'Download KML — Want to go (Old)',
      'Download KML — Trip: 2024 | 25?',
    ]);
    // Only the name made safe for files needs its list named; folders tell the others apart.
    expect(screen.getAllByText(/^List:/).map((line) => line.textContent)).toEqual([
      'List: Trip: 2024 | 25?',
    ]);
  });

  it("says a used-up allowance was the payment's on a paid run and the free tier's on a free one", () => {
    const limited: FileResult = { ...RESULT, unplaced: { limit: 3 } };
    const paid = mount(<ResultsCard />, { state: complete({ results: [limited] }) });
    expect(reasonsIn(screen.getByRole('article'))).toEqual([
      '3The lookup allowance was used up. The lookups allowed for this payment were used up. "Retry failed places" starts a new run for just these places.',
    ]);
    paid.unmount();
    mount(<ResultsCard />, {
      state: complete({ results: [limited], authorization: { kind: 'free' } }),
    });
    expect(reasonsIn(screen.getByRole('article'))).toEqual([
      '3The lookup allowance was used up. Today\'s free lookups were used up. "Retry failed places" looks them up in a new run: paid, or free again tomorrow.',
    ]);
  });

  it('explains the failed-places CSV in a tooltip that opens once the pointer has rested on it', () => {
    vi.useFakeTimers();
    try {
      mount(<ResultsCard />, { state: STATES.complete });
      const failed = screen.getByRole('link', { name: /^Download Failed/ });
      fireEvent.pointerMove(failed, { pointerType: 'mouse' });
      act(() => {
        vi.advanceTimersByTime(TOOLTIP_DELAY_MS - 1);
      });
      expect(screen.queryByRole('tooltip')).toBeNull();
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(screen.getByRole('tooltip').textContent).toBe(
        'A CSV of the places that got no coordinates, to check or retry later.',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('has no Download Failed button when every place converted', () => {
    mount(<ResultsCard />, { state: complete({ results: [{ ...RESULT, failed: null }] }) });
    expect(screen.queryByText(/Download Failed/)).toBeNull();
  });

  it('says why a list without any converted place has no KML to download', () => {
    const none: FileResult = {
      ...RESULT,
      counts: { total: 3, converted: 0, skipped: 3 },
      files: [],
      failed: {
        key: `${RESULT.path}#failed`,
        fileName: 'Want to go - failed-places.csv',
        url: 'blob:failed',
        count: 3,
      },
    };
    mount(<ResultsCard />, { state: complete({ results: [none] }) });
    expect(screen.queryByRole('link', { name: /Download KML/ })).toBeNull();
    // Named as a list, never as a file that does not exist; its failed places its only download.
    expect(linesOf(screen.getByRole('article')).slice(0, 4)).toEqual([
      'Want to go',
      '0 of 3 places converted',
      'No place in this list got coordinates, so there is no map file for it. The failed-places CSV lists them.',
      'Download Failed (3) — Want to go',
    ]);
    expect(screen.queryByText(/Want to go\.kml/)).toBeNull();
    // No format to choose, and the ZIP holds the failed places.
    expect(screen.queryByRole('combobox', { name: 'File format' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download all (ZIP)' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'Nothing could be converted',
    );
  });

  it('says a run the person stopped was stopped, and how many places were not looked up', () => {
    const stopped: FileResult = {
      ...RESULT,
      counts: { total: 40, converted: 30, skipped: 10 },
      unplaced: { interrupted: 9, not_found: 1 },
    };
    mount(<ResultsCard />, { state: complete({ results: [stopped], stopped: true }) });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
      'Conversion Stopped - 1 File(s) Ready',
    );
    expect(runOutcome()).toEqual([
      'You stopped the conversion: 9 places were not looked up. They are in the failed-places CSVs, and "Retry failed places" looks them up in a new run.',
      '10 of 40 places could not be placed; the other 30 are in your files.',
    ]);
    // The places not looked up come first among the reasons, with what to do about them.
    expect(reasonsIn(screen.getByRole('article'))[0]).toBe(
      '9Not looked up: the run was interrupted. The conversion was stopped before they were looked up. "Retry failed places" looks them up in a new run.',
    );
    // Found only with the count of places to look up again: the query is the assertion.
    screen.getByRole('button', { name: 'Retry failed places (9)' });
  });

  it('a run stopped while failed places waited for a retry round says so, never that the lists are complete', () => {
    const stopped: FileResult = {
      ...RESULT,
      counts: { total: 40, converted: 25, skipped: 15 },
      unplaced: { unavailable: 12, throttled: 2, not_found: 1 },
    };
    mount(<ResultsCard />, { state: complete({ results: [stopped], stopped: true }) });
    expect(runOutcome()).toEqual([
      'You stopped the conversion before 14 places could be looked up again. They are in the failed-places CSVs, and "Retry failed places" looks them up in a new run.',
      '15 of 40 places could not be placed; the other 25 are in your files.',
      'Google refused the lookups of 2 places. Places the server could not look up are not charged.',
      'The lookups of 12 places failed: the lookup service was unavailable. Places the server could not look up are not charged.',
    ]);
  });

  it('a free run says nothing of charges beside its failed lookups', () => {
    const failed: FileResult = { ...RESULT, unplaced: { unavailable: 3 } };
    mount(<ResultsCard />, {
      state: complete({
        results: [failed],
        authorization: { kind: 'free' },
        capture: { kind: 'notNeeded' },
      }),
    });
    expect(runOutcome()).toContain(
      'The lookups of 3 places failed: the lookup service was unavailable.',
    );
  });

  it('says an empty list is empty: no file, no failure', () => {
    const empty: FileResult = {
      ...RESULT,
      path: 'Takeout/Saved/Test.csv',
      fileName: 'Test.csv',
      outputName: 'Test',
      counts: { total: 0, converted: 0, skipped: 0 },
      unplaced: {},
      empty: true,
      files: [],
      failed: null,
    };
    mount(<ResultsCard />, { state: complete({ results: [RESULT, empty] }) });
    const panel = screen.getByText('Test').closest('article')!;
    expect(linesOf(panel)).toEqual([
      'Test',
      'Empty list',
      'This list holds no place, so there is nothing to convert and no file for it.',
    ]);
    expect(within(panel).queryByRole('link')).toBeNull();
    expect(screen.queryByText('Test.kml')).toBeNull();
    expect(screen.queryByText(/could not be read/)).toBeNull();
  });

  it("shows a skipped list's panel with its reason", () => {
    mount(<ResultsCard />, { state: complete({ results: [SKIPPED] }) });
    const panel = screen.getByRole('article');
    expect(Array.from(panel.children, (line) => line.textContent)).toEqual([
      'Broken.csv',
      'File skipped - validation failed',
      'Reason: CSV file must contain "Title" and "URL" columns. Found columns: Name, Link',
    ]);
    expect(within(panel).queryByRole('link')).toBeNull();
    expect(runOutcome()).toEqual(['One list could not be read (see below).']);
  });

  it("offers one button per part of a split list and says why (My Maps' 2,000 per layer)", () => {
    mount(<ResultsCard />, { state: complete({ results: [SPLIT] }) });
    const labels = screen
      .getAllByRole('link', { name: /Download KML/ })
      .map((link) => link.firstChild?.nextSibling?.textContent);
    expect(labels).toEqual([
      'Download KML (part 1 of 3)',
      'Download KML (part 2 of 3)',
      'Download KML (part 3 of 3)',
    ]);
    expect(lineMatching(/places per layer/)).toBe(
      'Split into 3 files, because Google My Maps imports at most 2,000 places per layer. Import each part as its own layer.',
    );
    expect(lineMatching(/places converted$/)).toBe('4,500 of 4,500 places converted');
    // Titled by the list's name: "Big.kml" is no file of the three.
    expect(screen.getByRole('article').querySelector('.file-result-name')!.textContent).toBe('Big');
  });

  it('remembers each download the visitor clicks', () => {
    const { store } = mount(<ResultsCard />, { state: STATES.complete });
    const downloaded = () => (store.getState().state as Complete).downloaded;
    fireEvent.click(screen.getByRole('link', { name: /^Download Failed/ }));
    expect(downloaded()).toEqual([RESULT.failed!.key]);
    fireEvent.click(screen.getByRole('link', { name: /^Download KML/ }));
    expect(downloaded()).toEqual([RESULT.failed!.key, RESULT.files[0]!.key]);
  });

  describe('payment outcome', () => {
    const totals = (converted: number) => ({ total: 40, converted, skipped: 40 - converted });
    const settled = (cancelled: boolean, cents: number): Capture => ({
      kind: 'settled',
      ...RECEIPT,
      cancelled,
      amountCapturedCents: cents,
      amountReleasedCents: RECEIPT.amountAuthorizedCents - cents,
    });

    it('Payment Summary with the converted places and the captured charge, and no more when that is what converted', () => {
      mount(<ResultsCard />, { state: complete({ capture: settled(false, 370) }) });
      expect(payment('Payment Summary')).toEqual([
        'Payment Summary',
        'Successfully converted: 37 places',
        'Final charge: $3.70',
        'Receipt',
      ]);
    });

    it('shows the receipt below the summary: held, charged, released, reference and date', () => {
      mount(<ResultsCard />, { state: complete({ capture: settled(false, 370) }) });
      expect(receiptLines()).toEqual({
        'Authorized (held)': '$4.00',
        Charged: '$3.70',
        Released: '$0.30',
        Reference: 'pi_123',
        Date: 'January 15, 2026, 2:05 PM',
      });
      const summary = screen.getByRole('heading', { name: 'Payment Summary' }).parentElement!;
      expect(summary.lastElementChild).toBe(screen.getByRole('group', { name: 'Receipt' }));
      const time = screen.getByText('January 15, 2026, 2:05 PM');
      expect(new Date(time.getAttribute('datetime')!).getTime()).toBe(RECEIPT.settledAt);
    });

    it('writes large amounts with thousands separators', () => {
      const capture: Capture = {
        ...(settled(false, 12_345_670) as Extract<Capture, { kind: 'settled' }>),
        amountAuthorizedCents: 15_000_000,
        amountReleasedCents: 2_654_330,
      };
      mount(<ResultsCard />, {
        state: complete({
          totals: { total: 1_500_000, converted: 1_234_567, skipped: 265_433 },
          capture,
        }),
      });
      expect(receiptLines()).toMatchObject({
        'Authorized (held)': '$150,000.00',
        Charged: '$123,456.70',
        Released: '$26,543.30',
      });
    });

    it('says why when the server charged for more places than converted here', () => {
      // 3 places converted, but the server had found 8 for this payment: its count is the floor.
      mount(<ResultsCard />, {
        state: complete({ totals: totals(3), capture: settled(false, 80) }),
      });
      expect(payment('Payment Summary')).toEqual([
        'Payment Summary',
        'Successfully converted: 3 places',
        'Final charge: $0.80',
        'The server found the locations of 8 places for this payment, more than the 3 converted here; you are charged for every place it found.',
        'Receipt',
      ]);
      expect(receiptLines()).toMatchObject({ Charged: '$0.80', Released: '$3.20' });
    });

    it('says the payment is being finalized while the capture is pending, without a receipt yet', () => {
      mount(<ResultsCard />, { state: STATES.complete });
      expect(payment('Payment Summary')).toEqual([
        'Payment Summary',
        'Successfully converted: 37 places',
        'Final charge: $3.70',
        'Finalizing your payment…',
      ]);
    });

    it('Payment Cancelled when no place converted', () => {
      mount(<ResultsCard />, {
        state: complete({ totals: totals(0), capture: settled(true, 0) }),
      });
      expect(payment('Payment Cancelled')).toEqual([
        'Payment Cancelled',
        'No places were converted, so your payment authorization has been cancelled. You have not been charged.',
        'Receipt',
      ]);
      expect(screen.queryByText('Payment Summary')).toBeNull();
      expect(receiptLines()).toMatchObject({
        'Authorized (held)': '$4.00',
        Charged: '$0.00',
        Released: '$4.00',
        Reference: 'pi_123',
      });
    });

    it('Payment Cancelled with the reason when the charge would be under $0.50', () => {
      mount(<ResultsCard />, {
        state: complete({ totals: totals(3), capture: { kind: 'pending' } }),
      });
      expect(payment('Payment Cancelled')).toEqual([
        'Payment Cancelled',
        'Only 3 places converted ($0.30), under the $0.50 minimum card charge, so your payment authorization has been cancelled. You have not been charged.',
      ]);
    });

    it('writes the failed count with thousands separators, as every count', () => {
      const many: FileResult = { ...RESULT, failed: { ...RESULT.failed!, count: 2419 } };
      mount(<ResultsCard />, { state: complete({ results: [many] }) });
      expect(screen.getByRole('link', { name: /Download Failed/ }).textContent).toBe(
        'Download Failed (2,419) — Want to go',
      );
    });

    it("says the server's decision when it cancelled a charge this page counted over $0.50", () => {
      // The server charges its own count: 84 places here, none resolved there.
      mount(<ResultsCard />, {
        state: complete({ totals: totals(84), capture: settled(true, 0) }),
      });
      expect(payment('Payment Cancelled')).toEqual([
        'Payment Cancelled',
        'The server cancelled your payment authorization: it charged nothing for this run. You have not been charged.',
        'Receipt',
      ]);
    });

    it('warns with the seed message and the reference when the capture failed', () => {
      mount(<ResultsCard />, {
        state: complete({ capture: { kind: 'failed', message: captureFailedMessage('pi_123') } }),
      });
      expect(screen.getByRole('alert').textContent).toBe(
        'Warning: Payment capture failed. Please contact support if you were charged incorrectly. Reference: pi_123',
      );
      expect(screen.getByRole('alert').textContent).toContain(MESSAGES.captureFailed);
      expect(screen.queryByRole('group', { name: 'Receipt' })).toBeNull();
    });

    it('nothing converted and the cancellation failed: not a green summary, the warning instead', () => {
      mount(<ResultsCard />, {
        state: complete({
          totals: totals(0),
          capture: { kind: 'failed', message: captureFailedMessage('pi_123') },
        }),
      });
      const heading = screen.getByRole('heading', { name: 'Payment Not Settled' });
      expect(heading.parentElement!.className).toBe('payment-outcome is-cancelled');
      expect(heading.parentElement!.textContent).toContain(
        'No places were converted, but the payment authorization could not be cancelled from this page.',
      );
      expect(screen.getByRole('alert').textContent).toContain('Reference: pi_123');
      expect(screen.queryByRole('heading', { name: 'Payment Summary' })).toBeNull();
      expect(screen.queryByRole('heading', { name: 'Payment Cancelled' })).toBeNull();
    });

    it('places converted and the capture failed: the summary, neutral, never green', () => {
      mount(<ResultsCard />, {
        state: complete({ capture: { kind: 'failed', message: captureFailedMessage('pi_123') } }),
      });
      const heading = screen.getByRole('heading', { name: 'Payment Summary' });
      expect(heading.parentElement!.className).toBe('payment-outcome is-neutral');
    });

    it('a free run says nothing was charged', () => {
      mount(<ResultsCard />, {
        state: complete({ authorization: { kind: 'free' }, capture: { kind: 'notNeeded' } }),
      });
      expect(payment('Payment Summary')).toEqual([
        'Payment Summary',
        'Successfully converted: 37 places',
        'Final charge: $0.00. This selection was free, so nothing was charged.',
      ]);
    });
  });

  describe('what came of the run', () => {
    it('says how many places could not be placed and why, per list, with what to do', () => {
      mount(<ResultsCard />, { state: STATES.complete });
      // Google's refusal is said plainly at the top, with what it costs.
      expect(runOutcome()).toEqual([
        '3 of 40 places could not be placed; the other 37 are in your files.',
        'Google refused the lookups of 1 place. Places the server could not look up are not charged.',
      ]);
      expect(reasonsIn(screen.getByRole('article'))).toEqual([
        '1Google refused the lookup; try again later. Google refused the lookup for now. Try it again later with "Retry failed places".',
        '2Google has no location for this place. Either your export holds no location for them (a closed or removed place), or a lookup found none we could trust. Check them in the failed-places CSV.',
      ]);
    });

    it('with nothing converted: says so, and offers no note about files and no Next Steps', () => {
      const none: FileResult = {
        ...RESULT,
        counts: { total: 3, converted: 0, skipped: 3 },
        unplaced: { unavailable: 3 },
        files: [],
      };
      mount(<ResultsCard />, {
        state: complete({ results: [none], totals: { total: 3, converted: 0, skipped: 3 } }),
      });
      expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
        'Nothing could be converted',
      );
      expect(runOutcome()).toEqual([
        'None of the 3 places could be placed on a map.',
        'The lookups of 3 places failed: the lookup service was unavailable. Places the server could not look up are not charged.',
      ]);
      expect(screen.queryByRole('heading', { name: 'Next Steps' })).toBeNull();
    });

    it('plans which files go into which map past 10 layers', () => {
      const many: FileResult = {
        ...SPLIT,
        files: Array.from({ length: 12 }, (_, i) => ({
          ...SPLIT.files[0]!,
          key: `k${i}`,
          fileName: `Big (part ${i + 1} of 12).kml`,
          part: i + 1,
          parts: 12,
          placemarks: 100,
        })),
      };
      mount(<ResultsCard />, { state: complete({ results: [many] }) });
      expect(lineMatching(/go into/)).toBe(
        'A map holds at most 10 layers and 10,000 places, so your 12 files go into 2 maps:',
      );
      const plan = screen.getByText('Map 2:').closest('li')!;
      expect(plan.textContent).toBe('Map 2: Big (part 11 of 12).kml, Big (part 12 of 12).kml');
    });

    it('names the list under a file whose name was made safe or numbered apart', () => {
      const renamed: FileResult = {
        ...RESULT,
        name: 'Trip: Paris',
        outputName: 'Trip: Paris',
        files: [{ ...RESULT.files[0]!, fileName: 'Trip_ Paris.kml' }],
      };
      mount(<ResultsCard />, { state: complete({ results: [renamed] }) });
      const line = screen.getByText(/^List:/);
      expect(line.textContent).toBe('List: Trip: Paris');
      expect(line.querySelector('bdi')?.textContent).toBe('Trip: Paris');
      expect(document.querySelector('.file-result-name bdi')?.textContent).toBe('Trip_ Paris');
      // A list whose file is numbered apart from one that became its name keeps its own name:
      // no line (the other file says which list it is).
      cleanup();
      const numbered: FileResult = {
        ...RESULT,
        name: 'Trip_ Paris',
        outputName: 'Trip_ Paris (2)',
        files: [{ ...RESULT.files[0]!, fileName: 'Trip_ Paris (2).kml' }],
      };
      mount(<ResultsCard />, { state: complete({ results: [numbered] }) });
      expect(screen.queryByText(/^List:/)).toBeNull();
    });

    it('starts a new map before a file would take one past 10,000 places', () => {
      const parts = (name: string, count: number, placemarks: number) =>
        Array.from({ length: count }, (_, i) => ({
          ...SPLIT.files[0]!,
          key: `${name}${i}`,
          fileName: `${name} (part ${i + 1} of ${count}).kml`,
          part: i + 1,
          parts: count,
          placemarks,
        }));
      // 12,000 places in six parts of 2,000, then a small list: five parts fill the first map.
      const big: FileResult = { ...SPLIT, files: parts('Big', 6, 2_000) };
      const small: FileResult = { ...SPLIT, path: 'S.csv', files: parts('Small', 1, 17) };
      mount(<ResultsCard />, { state: complete({ results: [big, small] }) });
      expect(lineMatching(/go into/)).toBe(
        'A map holds at most 10 layers and 10,000 places, so your 7 files go into 2 maps:',
      );
      expect(screen.getByText('Map 2:').closest('li')!.textContent).toBe(
        'Map 2: Big (part 6 of 6).kml, Small (part 1 of 1).kml',
      );
    });

    it('asks before Remove discards files not downloaded, and keeps them on "Keep my files"', async () => {
      const { store } = mount(<ResultsCard />, {
        state: complete({ confirming: 'remove' }),
      });
      const dialog = await screen.findByRole('alertdialog');
      expect(linesOf(dialog)).toEqual([
        'Remove files not downloaded?',
        'Want to go.kml has not been downloaded. Files are not stored anywhere: once you remove it, getting it again means converting (and paying) again. Download it first to keep it.',
        'Keep my files',
        'Remove files',
      ]);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my files' }));
      expect((store.getState().state as Complete).confirming).toBeNull();
      expect(store.getState().state.status).toBe('complete');
    });

    it('gives the focus back to the button that asked when the files are kept', async () => {
      const { store } = mount(
        <>
          <button type="button">Remove</button>
          <ResultsCard />
        </>,
        { state: complete({}) },
      );
      const remove = screen.getByRole('button', { name: 'Remove' });
      remove.focus();
      act(() => store.getState().send({ type: 'discardRequested', action: 'remove' }));
      const dialog = await screen.findByRole('alertdialog');
      await waitFor(() =>
        expect(document.activeElement).toBe(
          within(dialog).getByRole('button', { name: 'Keep my files' }),
        ),
      );
      fireEvent.keyDown(dialog, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(document.activeElement).toBe(remove);
    });

    it('names the map files that would be lost, and paying again only when the run was charged', async () => {
      const paid = complete({
        confirming: 'remove',
        results: [RESULT, SPLIT],
        downloaded: [SPLIT.files[0]!.key],
        capture: { kind: 'settled', ...RECEIPT },
      });
      const { unmount } = mount(<ResultsCard />, { state: paid });
      expect((await screen.findByRole('alertdialog')).textContent).toContain(
        'Want to go.kml, Big (part 2 of 3).kml and 1 more file have not been downloaded. Files are not stored anywhere: once you remove them, getting them again means converting (and paying) again.',
      );
      unmount();
      for (const unpaid of [
        { authorization: { kind: 'free' as const }, capture: { kind: 'notNeeded' as const } },
        {
          capture: {
            kind: 'settled' as const,
            ...RECEIPT,
            cancelled: true,
            amountCapturedCents: 0,
          },
        },
      ]) {
        const view = mount(<ResultsCard />, {
          state: complete({ confirming: 'convertMore', ...unpaid }),
        });
        const text = (await screen.findByRole('alertdialog')).textContent ?? '';
        expect(text).toContain(
          'Want to go.kml has not been downloaded. Files are not stored anywhere: once you leave these results, getting it again means converting again.',
        );
        expect(text).not.toMatch(/pay/);
        view.unmount();
      }
    });

    it('"Retry failed places" with only a failed-places CSV not downloaded asks nothing', async () => {
      const prepareRetry = vi.fn(async () => ({ ok: true as const, value: { lists: [] } }));
      mount(<ResultsCard />, {
        state: complete({ downloaded: [RESULT.files[0]!.key] }),
        converter: fakeConverter({ prepareRetry }),
      });
      fireEvent.click(screen.getByRole('button', { name: /^Retry failed places/ }));
      await vi.waitFor(() => expect(prepareRetry).toHaveBeenCalled());
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });

    it('"Convert more lists" goes back to the selection once every file is downloaded', () => {
      const all = [RESULT.files[0]!.key, RESULT.failed!.key];
      const { store } = mount(<ResultsCard />, { state: complete({ downloaded: all }) });
      fireEvent.click(screen.getByRole('button', { name: 'Convert more lists' }));
      expect(store.getState().state.status).toBe('selecting');
    });
  });
});
