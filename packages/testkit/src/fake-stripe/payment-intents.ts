import { randomBytes } from 'node:crypto';
import { FakeStripeError, invalidParam, resourceMissing, unexpectedState } from './errors.js';
import { field, type FormObject } from './form.js';
import { mergeMetadata } from './metadata.js';

/** Stripe's PaymentIntent statuses. */
export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

/** The fields of a PaymentIntent the fake keeps, named and shaped as Stripe sends them. */
export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  capture_method: 'manual';
  client_secret: string;
  created: number;
  canceled_at: number | null;
  cancellation_reason: string | null;
  description: string | null;
  livemode: false;
  metadata: Record<string, string>;
  payment_method: string | null;
  payment_method_types: string[];
  automatic_payment_methods: { enabled: boolean; allow_redirects?: string } | null;
  last_payment_error: { code: string; decline_code?: string; message: string } | null;
  status: PaymentIntentStatus;
}

/** Stripe's minimum charge in USD cents. */
export const STRIPE_MINIMUM_CHARGE_CENTS = 50;
/** Stripe cancels an uncaptured authorization this long after the intent's creation. */
export const AUTHORIZATION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

const CANCELLABLE: readonly PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
];
const CANCEL_REASONS = ['abandoned', 'duplicate', 'fraudulent', 'requested_by_customer'];
const CONFIRMABLE: readonly PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
];
/** Test payment methods that Stripe's test mode declines. */
const DECLINING_METHODS = new Set(['pm_card_chargeDeclined', 'pm_card_visa_chargeDeclined']);

function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

function integerParam(body: FormObject, name: string): number | undefined {
  const text = field(body, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text))
    throw invalidParam(name, `Invalid integer: ${text}`, 'parameter_invalid_integer');
  return Number(text);
}

/** What `POST /v1/payment_intents/:id` accepts here (`expand` is read and ignored). */
const UPDATE_PARAMS = new Set(['metadata', 'expand']);

/** An intent with its creation sequence number, which orders intents created in the same second. */
export interface OrderedIntent {
  intent: FakePaymentIntent;
  sequence: number;
}

/**
 * The fake's PaymentIntents and their state machine for manual capture: create → confirm →
 * `requires_capture` → capture (`succeeded`) or cancel (`canceled`), with Stripe's rules and errors.
 * Time is a clock the tests can move, so Stripe's seven-day authorization expiry can be exercised.
 */
export class PaymentIntentStore {
  private readonly intents = new Map<string, FakePaymentIntent>();
  private readonly sequences = new Map<string, number>();
  private clockOffsetSeconds = 0;

  /** Seconds since the epoch, as Stripe's `created` fields count them, moved by `advanceClock`. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffsetSeconds;
  }

  advanceClock(ms: number): void {
    this.clockOffsetSeconds += Math.round(ms / 1000);
  }

  all(): FakePaymentIntent[] {
    return [...this.intents.keys()].map((id) => this.get(id));
  }

  /**
   * Every intent in Stripe's list order: newest `created` first, and among intents created in the
   * same second the one created last first. Expiry is applied on the way, as a read would.
   */
  ordered(): OrderedIntent[] {
    return this.all()
      .map((intent) => ({ intent, sequence: this.sequences.get(intent.id) ?? 0 }))
      .sort((a, b) => b.intent.created - a.intent.created || b.sequence - a.sequence);
  }

  private insert(intent: FakePaymentIntent): FakePaymentIntent {
    this.intents.set(intent.id, intent);
    this.sequences.set(intent.id, this.sequences.size);
    return intent;
  }

  /** The intent after applying Stripe's automatic expiry of old authorizations; throws `resource_missing`. */
  get(id: string): FakePaymentIntent {
    const intent = this.intents.get(id);
    if (!intent) throw resourceMissing(id);
    if (
      intent.status === 'requires_capture' &&
      this.now() - intent.created >= AUTHORIZATION_LIFETIME_SECONDS
    ) {
      intent.status = 'canceled';
      intent.cancellation_reason = 'automatic';
      intent.canceled_at = this.now();
      intent.amount_capturable = 0;
    }
    return intent;
  }

  create(body: FormObject): FakePaymentIntent {
    const amount = integerParam(body, 'amount');
    if (amount === undefined)
      throw invalidParam('amount', 'Missing required param: amount.', 'parameter_missing');
    const currency = field(body, 'currency');
    if (!currency)
      throw invalidParam('currency', 'Missing required param: currency.', 'parameter_missing');
    if (currency === 'usd' && amount < STRIPE_MINIMUM_CHARGE_CENTS) {
      throw invalidParam('amount', 'Amount must be at least $0.50 usd', 'amount_too_small');
    }
    if (field(body, 'capture_method') !== 'manual') {
      throw invalidParam('capture_method', 'The fake Stripe makes manual-capture intents only.');
    }
    const autoEnabled = field(body, 'automatic_payment_methods', 'enabled');
    const allowRedirects = field(body, 'automatic_payment_methods', 'allow_redirects');
    const id = randomId('pi_');
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency,
      capture_method: 'manual',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      created: this.now(),
      canceled_at: null,
      cancellation_reason: null,
      description: field(body, 'description') ?? null,
      livemode: false,
      metadata: mergeMetadata({}, body.metadata),
      payment_method: null,
      payment_method_types: ['card'],
      automatic_payment_methods:
        autoEnabled === undefined
          ? null
          : {
              enabled: autoEnabled === 'true',
              ...(allowRedirects ? { allow_redirects: allowRedirects } : {}),
            },
      last_payment_error: null,
      status: 'requires_payment_method',
    };
    return this.insert(intent);
  }

  /**
   * Updates `metadata` (merged: `metadata[key]=` unsets a key), in any status, `succeeded` and
   * `canceled` included, as Stripe allows. Other parameters are refused by name rather than
   * ignored. Nothing changes unless everything is valid.
   */
  update(id: string, body: FormObject): FakePaymentIntent {
    const intent = this.get(id);
    for (const name of Object.keys(body)) {
      if (!UPDATE_PARAMS.has(name)) {
        throw invalidParam(
          name,
          `Received unknown parameter: ${name}. (The fake Stripe updates only metadata.)`,
          'parameter_unknown',
        );
      }
    }
    intent.metadata = mergeMetadata(intent.metadata, body.metadata);
    return intent;
  }

  /** Confirms with a test payment method: `pm_card_visa` authorizes, `pm_card_chargeDeclined` is declined. */
  confirm(id: string, body: FormObject): FakePaymentIntent {
    const intent = this.get(id);
    if (!CONFIRMABLE.includes(intent.status)) {
      throw unexpectedState('confirm', intent.status, CONFIRMABLE, intent);
    }
    const method = field(body, 'payment_method') ?? intent.payment_method;
    if (!method) {
      throw new FakeStripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method or ConfirmationToken.",
        payment_intent: intent,
      });
    }
    if (DECLINING_METHODS.has(method)) {
      intent.last_payment_error = {
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      intent.status = 'requires_payment_method';
      throw new FakeStripeError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        payment_intent: intent,
      });
    }
    intent.payment_method = method;
    intent.last_payment_error = null;
    intent.status = 'requires_capture';
    intent.amount_capturable = intent.amount;
    return intent;
  }

  /** Captures `amount_to_capture` (default: all) of an authorization, once. */
  capture(id: string, body: FormObject): FakePaymentIntent {
    const intent = this.get(id);
    if (intent.status !== 'requires_capture') {
      throw unexpectedState('capture', intent.status, ['requires_capture'], intent);
    }
    const amount = integerParam(body, 'amount_to_capture') ?? intent.amount_capturable;
    if (amount > intent.amount_capturable) {
      throw invalidParam(
        'amount_to_capture',
        `The amount to capture (${amount}) must be less than or equal to the amount capturable (${intent.amount_capturable}).`,
        'amount_too_large',
      );
    }
    if (intent.currency === 'usd' && amount < STRIPE_MINIMUM_CHARGE_CENTS) {
      throw invalidParam(
        'amount_to_capture',
        'Amount must be at least $0.50 usd',
        'amount_too_small',
      );
    }
    intent.status = 'succeeded';
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    return intent;
  }

  cancel(id: string, body: FormObject): FakePaymentIntent {
    const intent = this.get(id);
    if (!CANCELLABLE.includes(intent.status)) {
      throw unexpectedState('cancel', intent.status, CANCELLABLE, intent);
    }
    const reason = field(body, 'cancellation_reason');
    if (reason !== undefined && !CANCEL_REASONS.includes(reason)) {
      throw invalidParam(
        'cancellation_reason',
        `Invalid cancellation_reason: must be one of ${CANCEL_REASONS.join(', ')}`,
      );
    }
    intent.status = 'canceled';
    intent.cancellation_reason = reason ?? null;
    intent.canceled_at = this.now();
    intent.amount_capturable = 0;
    return intent;
  }
}
