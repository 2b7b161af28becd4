import { useId } from 'react';
import { formatDateTime } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import type { CaptureOutcome } from '../../api/client';

/**
 * The receipt under the payment summary (product.md "Receipt"): what the card authorization held,
 * what was charged and released, the payment's reference for support, and the date (when a page
 * of this browser saw it settled, kept through a reload; none for a payment the server settled
 * while no page looked). `level` is its heading's, one below the heading it sits under: 4 under a
 * payment summary's h3, 3 straight under a card's h2. Two receipts can be on the page at once (an earlier visit's and this run's),
 * so each names its own heading.
 */
export function PaymentReceipt({
  receipt,
  level,
}: {
  receipt: Omit<CaptureOutcome, 'cancelled'> & { settledAt: number | null };
  level: 3 | 4;
}) {
  const titleId = useId();
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <div className="receipt" role="group" aria-labelledby={titleId}>
      <Heading id={titleId} className="receipt-title">
        Receipt
      </Heading>
      <dl>
        <div>
          <dt>Authorized (held)</dt>
          <dd>{formatUsd(receipt.amountAuthorizedCents)}</dd>
        </div>
        <div>
          <dt>Charged</dt>
          <dd>{formatUsd(receipt.amountCapturedCents)}</dd>
        </div>
        <div>
          <dt>Released</dt>
          <dd>{formatUsd(receipt.amountReleasedCents)}</dd>
        </div>
        <div>
          <dt>Reference</dt>
          <dd className="receipt-reference">{receipt.reference}</dd>
        </div>
        {receipt.settledAt !== null && (
          <div>
            <dt>Date</dt>
            <dd className="receipt-date">
              <time dateTime={new Date(receipt.settledAt).toISOString()}>
                {formatDateTime(receipt.settledAt)}
              </time>
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}
