import { notAuthorized, PaymentError, providerStep, type Log } from './errors.js';
import { chargeCents, isUnderMinimum, PRICE_PER_PLACE_CENTS } from '@placeport/contract';
import type { CaptureBody, CaptureReceipt, PaymentStatus } from '@placeport/contract/routes';
import { dollarsToCents, formatDollars, placesForAmount } from './money.js';
import { PAYMENT_STATE_TTL_MS, StoreUnavailableError, type StateStore } from '../state/index.js';
import { samePayer } from './payer.js';
import { PaymentFailure, PRODUCT_TAG, type IntentView, type PaymentProvider } from './provider.js';
import { PaymentUsage } from './usage.js';

/**
 * How long a capture's or a cancellation's idempotency key stays the same: retries within it get
 * the first result, and a failure Stripe saved under the key (a 500 it replays for 24 hours) holds
 * them no longer than this.
 */
export const IDEMPOTENCY_KEY_PERIOD_MS = 60 * 60 * 1000;

/** Stripe cancels an authorization not captured this long after the intent was created. */
export const AUTHORIZATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a payment's `settling` mark stops lookups: longer than any capture or cancellation
 * takes (at most three Stripe calls, each given up within a minute, and a few store calls), so no
 * lookup starts while one runs. A mark left behind by one that never finished (Redis frozen as it
 * was written: the write ran when Redis woke, after the capture had answered 503) then stops the
 * payment's lookups for minutes, not the 8 days a verdict is kept: once it is gone the next lookup
 * asks Stripe, which says whether the payment is still open. A capture that did finish replaces
 * it with its verdict, kept 8 days.
 */
export const SETTLING_MARK_TTL_MS = 5 * 60 * 1000;

const STATUS_OF: Partial<Record<IntentView['status'], PaymentStatus['status']>> = {
  requires_capture: 'open',
  succeeded: 'captured',
  canceled: 'cancelled',
};

/** What {@link PaymentService.captureOrCancel} did, and the server's count it charged from. */
export interface Settled {
  receipt: CaptureReceipt;
  /** The server's count of places resolved for the payment, read once no lookup could start. */
  resolved: number;
  /** Settled by this call; false when it was settled before and the receipt is repeated. */
  now: boolean;
}

function receipt(intent: IntentView, capturedCents: number): CaptureReceipt {
  return {
    cancelled: capturedCents === 0,
    amountCaptured: capturedCents / 100,
    amountAuthorized: intent.amount / 100,
    amountReleased: (intent.amount - capturedCents) / 100,
    reference: intent.id,
  };
}

/** Refuses more lookups on a payment that is not (or no longer) authorized. */
function placesIfAuthorized(status: string, places: number): number {
  if (status !== 'requires_capture') throw notAuthorized();
  return places;
}

/**
 * The receipt of an intent that is no longer open for `cents`: a repeat of the capture or
 * cancellation that settled it returns the first result; anything else is refused.
 */
function settledReceipt(intent: IntentView, cents: number): CaptureReceipt {
  const cancels = isUnderMinimum(cents);
  switch (intent.status) {
    case 'succeeded':
      if (!cancels && intent.amountReceived === cents) return receipt(intent, cents);
      throw new PaymentError(
        'already_captured',
        `This payment was already captured (${formatDollars(intent.amountReceived)}); it cannot be captured again.`,
        { amountCaptured: intent.amountReceived / 100 },
      );
    case 'canceled':
      if (cancels) return receipt(intent, 0);
      throw new PaymentError(
        'payment_cancelled',
        'This payment authorization was cancelled, so nothing can be captured and nothing was charged.',
      );
    default:
      throw new PaymentError('not_authorized_yet', 'This payment has not been authorized yet.');
  }
}

function requirePlacePortIntent(intent: IntentView): number {
  const places = intent.places;
  if (
    intent.product !== PRODUCT_TAG ||
    places === undefined ||
    intent.currency !== 'usd' ||
    intent.amount !== chargeCents(places)
  ) {
    throw new PaymentError(
      'not_a_placeport_payment',
      'This payment was not made for a PlacePort conversion.',
    );
  }
  return places;
}

/**
 * How many places a capture charges: what the browser claims converted, but never fewer than the
 * server itself resolved for the payment (product.md: "The server's own count is the floor"), and
 * never more than were authorized.
 */
export function chargedPlaces(
  claimed: number,
  resolvedByServer: number,
  authorized: number,
): number {
  return Math.min(authorized, Math.max(claimed, resolvedByServer));
}

/**
 * The money rules of product.md, over any {@link PaymentProvider}: the maximum is authorized at
 * creation for the browser that asked (its payer hash on the intent and in the store), the server
 * records what it resolved for each payment, and at capture the intent is re-read, the browser's
 * claims are checked, and `max(claimed, resolved by the server)` places are captured once (or the
 * authorization cancelled). Calls for one intent run one after another, and a repeated call
 * returns the first result.
 *
 * Provider calls are bounded by the run, not by its batches: a payment is checked with the
 * provider once and the verdict kept in the store until its status can change (capture, cancel,
 * the sweep settling it, Stripe's 7-day expiry); the resolved count and time of use live in the
 * store and are written to the intent at capture, in the sweep, and at most once a minute while
 * lookups go on ({@link PaymentUsage}).
 */
export class PaymentService {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Checks with the provider under way, by payment, so concurrent first batches share one. */
  private readonly checks = new Map<string, Promise<number>>();
  /** Each payment's resolved count and last use, in the store, and when the intent hears of them. */
  readonly usage: PaymentUsage;

  constructor(
    readonly provider: PaymentProvider,
    private readonly state: StateStore,
    private readonly now: () => number,
    /** An authorization unused this long is settled by the sweep (`SETTLE_AFTER_MINUTES`). */
    readonly settleAfterMs: number,
  ) {
    this.usage = new PaymentUsage(provider, state, now);
  }

  /** Checks the maximum charge, derives the place count and creates the manual-capture intent. */
  async createIntent(
    amount: number,
    payer: string,
    log: Log,
  ): Promise<{ clientSecret: string; paymentIntentId: string }> {
    const { cents, places } = placesForAmount(amount);
    const cap = this.provider.maxPlaces;
    if (cap !== undefined && places > cap) {
      throw new PaymentError(
        'demo_limit',
        `Demo payments on this server cover at most ${cap.toLocaleString('en-US')} places; choose fewer lists.`,
        { limit: cap },
      );
    }
    const created = await providerStep(
      () => this.provider.create({ amountCents: cents, places, payer }),
      log,
    );
    await this.state.bindPayer(created.id, payer);
    return { clientSecret: created.clientSecret, paymentIntentId: created.id };
  }

  /** Reads an intent; a provider failure is logged and thrown on (see {@link providerStep}). */
  retrieve(id: string, log: Log): Promise<IntentView> {
    return providerStep(() => this.provider.retrieve(id), log);
  }

  /**
   * The place count an authorized PlacePort intent paid for; refuses intents that are not
   * PlacePort's or not (or no longer) authorized. The provider is asked once per payment: the
   * verdict is kept in the store until the status can change (see the class comment), and the
   * first batches of a run, sent at once, share one check in this process.
   */
  async authorizedPlaces(id: string, log: Log): Promise<number> {
    const kept = await this.state.verdictOf(id);
    if (kept) return placesIfAuthorized(kept.status, kept.places);
    let check = this.checks.get(id);
    if (!check) {
      check = this.check(id, log).finally(() => this.checks.delete(id));
      this.checks.set(id, check);
    }
    return check;
  }

  /**
   * Whether {@link authorizedPlaces} would read the payment from the provider now: no verdict is
   * kept and no check of it is under way in this process.
   */
  async readsProviderFor(id: string): Promise<boolean> {
    return !this.checks.has(id) && (await this.state.verdictOf(id)) === undefined;
  }

  /**
   * Asks the provider about a payment and keeps what is worth keeping: the intent authorized, or
   * settled for good. Nothing before it is authorized, since the browser authorizes it with the
   * provider directly.
   */
  private async check(id: string, log: Log): Promise<number> {
    const intent = await this.retrieve(id, log);
    const places = requirePlacePortIntent(intent);
    const { status } = intent;
    if (status === 'succeeded' || status === 'canceled') {
      await this.state.keepVerdict(id, { status, places }, PAYMENT_STATE_TTL_MS);
    } else if (status === 'requires_capture') {
      // An authorization is kept no longer than Stripe keeps it.
      const left = intent.created * 1000 + AUTHORIZATION_LIFETIME_MS - this.now();
      const ttl = Math.floor(Math.min(left, AUTHORIZATION_LIFETIME_MS));
      if (ttl >= 1) await this.state.keepVerdict(id, { status, places }, ttl);
      // No verdict was kept: the store may have lost the payment (a restart of the memory store, a
      // Redis without persistence), its counted links with it. The places the intent says the
      // server resolved stay counted against its allowance, or a payment for 40 places could look
      // up 40 more after each loss (money audit: 70 on one of 40).
      if (intent.resolved > 0) {
        await this.state.countEarlierLinks(id, Math.min(intent.resolved, places));
      }
      // Idle time starts at the authorization (the first batch follows it at once), not creation.
      await this.usage.authorized(id);
    }
    return placesIfAuthorized(status, places);
  }

  /**
   * What became of a PlacePort payment, read from the provider (no verdict kept, nothing
   * settled): its status, the money held, charged and released, and the server's count. For an
   * open authorization nothing has used yet, reading its last use records this first sighting,
   * as the sweep's read does.
   */
  async status(id: string, log: Log): Promise<PaymentStatus> {
    const intent = await this.retrieve(id, log);
    const places = requirePlacePortIntent(intent);
    const status = STATUS_OF[intent.status] ?? 'not_authorized';
    const captured = status === 'captured' ? intent.amountReceived : 0;
    const settled = status === 'captured' || status === 'cancelled';
    const settlesAt =
      status === 'open' ? new Date(await this.settlesAt(intent)).toISOString() : null;
    return {
      status,
      amountAuthorized: intent.amount / 100,
      amountCaptured: captured / 100,
      amountReleased: settled ? (intent.amount - captured) / 100 : 0,
      reference: intent.id,
      placesAuthorized: places,
      placesResolved: await this.usage.resolvedByServer(intent),
      settlesAt,
    };
  }

  /**
   * When the sweep settles an open authorization that nothing uses again (ms of the app's clock):
   * its last use ({@link PaymentUsage.lastUseMs}) plus the settle-after time.
   */
  async settlesAt(intent: IntentView): Promise<number> {
    return (await this.usage.lastUseMs(intent)) + this.settleAfterMs;
  }

  /**
   * Verifies the claim and captures `max(claimed, resolved by the server)` places, or cancels when
   * that is under the minimum. A claim below the server's count is charged the count, and `note`
   * told so by the call that settles (a repeat of it charges nothing).
   */
  async capture(
    claim: CaptureBody,
    log: Log,
    note: Log = () => undefined,
  ): Promise<CaptureReceipt> {
    const cents = dollarsToCents(claim.actualAmount, 'actualAmount');
    if (claim.convertedCount > claim.totalCount) {
      throw new PaymentError('invalid_counts', 'convertedCount cannot be more than totalCount.');
    }
    const expected = chargeCents(claim.convertedCount);
    if (cents !== expected) {
      throw new PaymentError(
        'amount_mismatch',
        `actualAmount must be ${formatDollars(expected)} for ${claim.convertedCount} converted places at ${formatDollars(PRICE_PER_PLACE_CENTS)} each.`,
      );
    }
    return this.serialized(claim.paymentIntentId, () => this.settle(claim, log, note));
  }

  private async settle(claim: CaptureBody, log: Log, note: Log): Promise<CaptureReceipt> {
    const id = claim.paymentIntentId;
    const intent = await this.retrieve(id, log);
    const places = requirePlacePortIntent(intent);
    if (claim.totalCount !== places) {
      throw new PaymentError(
        'count_mismatch',
        `totalCount must be the ${places} places this payment authorized.`,
      );
    }
    const claimed = claim.convertedCount;
    const settled = await this.captureOrCancel(
      intent,
      (server) => chargedPlaces(claimed, server, places),
      log,
    );
    if (settled.now && claimed < settled.resolved) {
      note(
        `capture claimed ${claimed} places; the server resolved ${settled.resolved}: charging ${chargedPlaces(claimed, settled.resolved, places)}`,
      );
    }
    return settled.receipt;
  }

  /**
   * Captures `placesFor(server's count)` places of an intent, or cancels it when that is under
   * the minimum, with the idempotency keys bound to the intent, so the browser's capture and the
   * settlement sweep can never both act. An open intent is first marked `settling` in the store,
   * so no new lookup starts on it on any instance, and only then is the server's count read; its
   * usage is written to the intent when the intent is behind. A settled intent answers a repeat
   * of what settled it with the first result.
   */
  async captureOrCancel(
    intent: IntentView,
    placesFor: (resolvedByServer: number) => number,
    log: Log,
  ): Promise<Settled> {
    const id = intent.id;
    const places = intent.places ?? 0;
    if (intent.status !== 'requires_capture') {
      const resolved = await this.usage.resolvedByServer(intent);
      const cents = chargeCents(placesFor(resolved));
      return { receipt: settledReceipt(intent, cents), resolved, now: false };
    }
    let capturedCents = 0;
    let resolved: number;
    try {
      await this.state.replaceVerdict(id, { status: 'settling', places }, SETTLING_MARK_TTL_MS);
      resolved = await this.usage.resolvedByServer(intent);
      const cents = chargeCents(placesFor(resolved));
      await this.usage.reportIfBehind(intent, log);
      // Idempotency keys bound to the intent, the step (and a capture's amount) and the hour, so a
      // retry of a capture whose answer was lost gets its first result. A capture of another
      // amount (the sweep's, or a racing claim on another instance) is another request under
      // another key: Stripe captures an intent once, and refuses it as already captured (then
      // answered below) rather than as a key reused with other parameters. The hour: Stripe
      // replays a 500 saved under a key for 24 hours, which would hold every retry of the capture,
      // and the sweep's, that long; a retry in a later hour is a request of its own, and one
      // after a capture that did happen is refused as already captured and answered the same.
      const hour = `h${Math.floor(this.now() / IDEMPOTENCY_KEY_PERIOD_MS)}`;
      if (isUnderMinimum(cents)) {
        await providerStep(() => this.provider.cancel(id, `placeport-cancel-${id}-${hour}`), log);
      } else {
        const captured = await providerStep(
          () => this.provider.capture(id, cents, `placeport-capture-${id}-${cents}-${hour}`),
          log,
        );
        capturedCents = captured.amountReceived;
      }
    } catch (error) {
      // Not settled here: the next check asks the provider again. The settling error is the one
      // to report; a mark the store could not drop only refuses lookups until it expires
      // (SETTLING_MARK_TTL_MS).
      await this.state.forgetVerdict(id).catch(() => undefined);
      if (error instanceof PaymentFailure && error.kind === 'unexpected_state') {
        // Settled meanwhile by a capture on another instance (a racing claim, the sweep): the
        // answer is that settlement's, as for a capture arriving after it.
        const settled = await this.retrieve(id, log);
        if (settled.status !== 'requires_capture') {
          return this.captureOrCancel(settled, placesFor, log);
        }
      }
      throw error;
    }
    // The money has moved: the receipt is the answer even when the store cannot record the
    // verdict now (its `settling` mark refuses lookups until it expires; the next lookup then
    // asks Stripe, which says the payment is settled).
    const status = capturedCents === 0 ? 'canceled' : 'succeeded';
    await this.state
      .replaceVerdict(id, { status, places }, PAYMENT_STATE_TTL_MS)
      .catch((error: unknown) => {
        if (!(error instanceof StoreUnavailableError)) throw error;
        log(`${status}, but the shared state could not record it: ${error.message}`);
      });
    return { receipt: receipt(intent, capturedCents), resolved, now: true };
  }

  /**
   * For a payment the store has no payer for (pushed out of memory before its authorization was
   * known, or lost with a Redis that restarted without persistence): reads the intent and, when
   * it is PlacePort's and its `metadata.payer` is `payerHash`, binds it again (an authorization
   * among the open ones again) and answers true. False for an unknown id, another product's
   * intent or another payer's; any other provider failure is thrown.
   */
  async restorePayer(id: string, payerHash: string, log: Log): Promise<boolean> {
    let intent: IntentView;
    try {
      intent = await this.retrieve(id, log);
    } catch (error) {
      if (error instanceof PaymentFailure && error.kind === 'not_found') return false;
      throw error;
    }
    if (intent.product !== PRODUCT_TAG || intent.payer === undefined) return false;
    if (!samePayer(intent.payer, payerHash)) return false;
    if (!(await this.state.bindPayer(id, intent.payer))) {
      // Bound meanwhile (another request of the same browser, or another instance): that decides.
      const bound = await this.state.payerOf(id);
      if (bound === undefined || !samePayer(bound, payerHash)) return false;
    }
    if (intent.status === 'requires_capture') await this.usage.authorized(id);
    return true;
  }

  /** Runs `task` after any other call for the same intent in this process. */
  async serialized<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    this.queues.set(id, settled);
    try {
      return await run;
    } finally {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    }
  }
}
