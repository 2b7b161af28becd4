import {
  chargeCents,
  isUnderMinimum,
  MINIMUM_CHARGE_CENTS,
  PRICE_PER_PLACE_CENTS,
} from '@placeport/contract';
import { useEffect, useRef } from 'react';
import { useApp, useEffects } from '../../app/context';
import { Spinner } from '../../components/Spinner';
import { formatDateTime, formatPlaces } from '../../lib/format';
import { formatUsd } from '../../lib/money';
import type { LastVisit } from '../../state/types';
import { PAGE_TITLE_ID } from '../header/Header';
import { PaymentReceipt } from '../results/PaymentReceipt';
import { CHOOSE_FILE_ID } from '../upload/DropZone';

/**
 * A payment an earlier visit left unsettled (a reload or a closed tab during a paid run, or a
 * capture that got no answer after the run finished), as the API says it stands: still held, with
 * what the server will do and when, and "Settle it now"; or the receipt of what was charged and
 * released, and why. Whether that run finished comes from the page's own note of it.
 */
export function LastVisitCard() {
  const visit = useApp((store) => store.lastVisit);
  return visit === null ? null : <LastVisitView visit={visit} />;
}

/**
 * Closing the card takes its buttons, and the focus, away: the focus goes to Choose File, the
 * page's first step, or, with a file already chosen, to the page's main heading (WCAG 2.4.3).
 */
function focusPageStart(): void {
  (document.getElementById(CHOOSE_FILE_ID) ?? document.getElementById(PAGE_TITLE_ID))?.focus();
}

function LastVisitView({ visit }: { visit: LastVisit }) {
  const effects = useEffects();
  const { payment } = visit;
  const open = payment.status === 'open';
  const title = open
    ? 'A payment from your last visit is still held'
    : 'Your last visit’s payment was settled';
  const card = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    // Settled while shown ("Settle it now"): the button went with the hold, the focus with it. The
    // heading, now the receipt's, takes the focus, so the outcome is read from there on.
    if (wasOpen.current && !open) {
      const active = document.activeElement;
      if (active === null || active === document.body || card.current?.contains(active)) {
        heading.current?.focus();
      }
    }
    wasOpen.current = open;
  }, [open]);
  return (
    <section ref={card} className="card last-visit" aria-labelledby="last-visit-title">
      <h2 id="last-visit-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <div
        className={`payment-outcome ${open || payment.amountCapturedCents > 0 ? 'is-neutral' : 'is-cancelled'}`}
      >
        {open ? <OpenPayment visit={visit} /> : <SettledPayment visit={visit} />}
        {visit.error !== null && (
          <p className="inline-error" role="alert">
            {visit.error}
          </p>
        )}
      </div>
      <div className="results-actions">
        {open && (
          // Settling… keeps the focus (aria-disabled: a disabled button would drop it).
          <button
            type="button"
            className="button primary"
            aria-disabled={visit.settling || undefined}
            onClick={() => {
              if (!visit.settling) void effects.settleLastPayment();
            }}
          >
            {visit.settling ? <Spinner label="Settling…" visibleLabel /> : 'Settle it now'}
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={visit.settling}
          onClick={() => {
            effects.dismissLastPayment();
            focusPageStart();
          }}
        >
          {open ? 'Not now' : 'Dismiss'}
        </button>
      </div>
    </section>
  );
}

/** What the server will do with the hold, from its own count: the same as "Settle it now", later. */
function OpenPayment({ visit }: { visit: LastVisit }) {
  const { payment } = visit;
  const found = payment.placesResolved;
  const owed = chargeCents(found);
  const when = payment.settlesAt === null ? 'soon' : `by ${formatDateTime(payment.settlesAt)}`;
  const outcome =
    found === 0
      ? 'no place had been looked up for it, so the authorization will be cancelled and you will not be charged'
      : isUnderMinimum(owed)
        ? `the server had found ${formatPlaces(found)} for it (${formatUsd(owed)}), under the ${formatUsd(MINIMUM_CHARGE_CENTS)} minimum card charge, so the authorization will be cancelled and you will not be charged`
        : `the server had found the locations of ${formatPlaces(found)} for it, so you will be charged ${formatUsd(owed)} for them and the rest of the hold released`;
  return (
    <>
      <p>
        {visit.converted === null
          ? `Your last conversion did not finish, so no map files were kept, and ${formatUsd(payment.amountAuthorizedCents)} is still held (authorized, not charged) on your card.`
          : `Your last conversion finished (${formatPlaces(visit.converted)} converted), but its payment was not settled, so ${formatUsd(payment.amountAuthorizedCents)} is still held (authorized, not charged) on your card.`}
      </p>
      <p>{`The server settles it by itself ${when}: ${outcome}. Settle it now to release the hold sooner.`}</p>
      {visit.archiveName !== null && (
        <p>{`To convert the same lists of ${visit.archiveName} again, choose that file before then: the payment step offers this hold, so the places already found are not charged twice.`}</p>
      )}
      <p className="receipt-reference">{`Reference: ${payment.reference}`}</p>
    </>
  );
}

/**
 * The receipt of a payment settled without that page seeing it (by the server, by a capture whose
 * answer was lost, or by "Settle it now"), and what the charge was for, from what is known: the
 * places that run converted, when its note says, or else the server's own count.
 */
function SettledPayment({ visit }: { visit: LastVisit }) {
  const { payment } = visit;
  const sentence =
    payment.amountCapturedCents === 0
      ? `${visit.converted === null ? 'Your last conversion did not finish, so the' : `${FINISHED_UNSEEN}; the`} payment authorization was cancelled and the hold of ${formatUsd(payment.amountReleasedCents)} released. You have not been charged.`
      : chargeSentence(visit);
  return (
    <>
      <p>{sentence}</p>
      <PaymentReceipt receipt={{ ...payment, settledAt: visit.settledAt }} level={3} />
    </>
  );
}

/** A run that finished whose page did not learn how its payment was settled. */
const FINISHED_UNSEEN =
  'Your last conversion finished, but that page did not show how its payment was settled';

/**
 * What a charge was for: the places the run converted, when it is exactly their price and the
 * server had found no more (the page's own capture, whose answer was lost); otherwise the places
 * the server had found, the floor of any charge.
 */
function chargeSentence({ payment, converted }: LastVisit): string {
  const charged = payment.amountCapturedCents;
  const ending =
    converted === null ? 'Your last conversion did not finish.' : `${FINISHED_UNSEEN}.`;
  const forConverted =
    converted !== null && charged === chargeCents(converted) && converted >= payment.placesResolved;
  const charge = forConverted
    ? `You were charged ${formatUsd(charged)} for the ${formatPlaces(converted)} converted`
    : `The server had found the locations of ${formatPlaces(Math.round(charged / PRICE_PER_PLACE_CENTS))} for it, so you were charged ${formatUsd(charged)} for them`;
  const released =
    payment.amountReleasedCents > 0
      ? `, and the rest of the hold, ${formatUsd(payment.amountReleasedCents)}, was released`
      : '';
  return `${ending} ${charge}${released}.`;
}
