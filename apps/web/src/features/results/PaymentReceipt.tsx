import { formatDateTime } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import type { CaptureOutcome } from '../../api/client';

/**
 * The receipt under the payment summary (product.md "Receipt"): what the card authorization held,
 * what was charged and released, the payment's reference for support, and the date (when the page
 * saw it settled; none for a payment the server settled while the page was away).
 */
export function PaymentReceipt({
  receipt,
}: {
  receipt: Omit<CaptureOutcome, 'cancelled'> & { settledAt: number | null };
}) {
  return (
    <div className="receipt" role="group" aria-labelledby="receipt-title">
      <h4 id="receipt-title">Receipt</h4>
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
