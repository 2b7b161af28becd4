import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { captureFailedMessage, releaseFailedMessage } from '../../state/messages';
import { captureRetryText } from '../../state/refusals';
import type { Authorization, Capture } from '../../state/types';
import { CARD, HELD } from '../../test/fixtures';
import { linesOf } from '../../test/reads';
import { PaymentOutcome } from './PaymentOutcome';

const totals = (converted: number) => ({ total: 40, converted, skipped: 40 - converted });

function show(capture: Capture, converted: number, authorization: Authorization = CARD): string[] {
  render(
    <PaymentOutcome authorization={authorization} capture={capture} totals={totals(converted)} />,
  );
  return linesOf(screen.getByRole('heading', { level: 3 }).parentElement!);
}

describe('PaymentOutcome of a capture not settled', () => {
  it('while the capture is asked again: not charged yet, why, and no final charge', () => {
    const message = captureRetryText('pi_123');
    expect(show({ kind: 'failed', message, retrying: true }, 10)).toEqual([
      'Payment Summary',
      'Successfully converted: 10 places',
      'Not charged yet, as far as this page knows: the payment is not settled.',
      message,
    ]);
    expect(screen.getByRole('status').textContent).toBe(message);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('while the release of a run with nothing converted is asked again: not cancelled yet, no alert', () => {
    const message = captureRetryText('pi_123');
    expect(show({ kind: 'failed', message, retrying: true }, 0)).toEqual([
      'Payment Not Settled',
      'No places were converted, but the payment authorization is not cancelled yet, as far as this page knows.',
      message,
    ]);
    expect(screen.getByRole('status').textContent).toBe(message);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a release that failed for a run with nothing converted: could not be cancelled, an alert', () => {
    const message = releaseFailedMessage('pi_123');
    expect(show({ kind: 'failed', message }, 0)).toEqual([
      'Payment Not Settled',
      'No places were converted, but the payment authorization could not be cancelled from this page.',
      message,
    ]);
    expect(screen.getByRole('alert').textContent).toBe(message);
  });

  it('a failed capture shows no final charge, under the minimum neither', () => {
    for (const converted of [10, 4]) {
      const message = captureFailedMessage('pi_123');
      expect(show({ kind: 'failed', message }, converted)).toEqual([
        'Payment Summary',
        `Successfully converted: ${converted} places`,
        'Not charged by this page: the payment could not be settled here.',
        message,
      ]);
      expect(document.body.textContent).not.toContain('Final charge');
      document.body.innerHTML = '';
    }
  });
});

describe('PaymentOutcome of a run with the hold an earlier visit left', () => {
  it('while its capture is asked, counts what the hold had found: not cancelled, at least that charged', () => {
    const lines = show({ kind: 'pending' }, 3, HELD);
    expect(lines.slice(0, 4)).toEqual([
      'Payment Summary',
      'Successfully converted: 3 places',
      'Final charge: $2.50',
      'The server found the locations of 25 places for this payment, more than the 3 converted here; you are charged for every place it found.',
    ]);
  });

  it('converting more than it had found, is charged for the places converted', () => {
    const lines = show({ kind: 'pending' }, 37, HELD);
    expect(lines.slice(0, 3)).toEqual([
      'Payment Summary',
      'Successfully converted: 37 places',
      'Final charge: $3.70',
    ]);
    expect(lines.join(' ')).not.toContain('more than the');
  });
});
