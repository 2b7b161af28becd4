import { randomBytes } from 'node:crypto';
import { isUnderMinimum } from '@placeport/contract';
import {
  PaymentFailure,
  PRODUCT_TAG,
  type IntentStatus,
  type IntentView,
  type PaymentProvider,
} from './provider.js';
import { StoreUnavailableError } from '../state/store.js';

/**
 * Demo intents kept in memory. Past this, the oldest intent that holds no authorization is
 * forgotten; authorizations are never evicted (the settlement sweep settles them), and when every
 * kept intent is an open authorization, creation is refused until the sweep has run.
 */
export const DEMO_MAX_INTENTS = 10_000;

/** Options of {@link createDemoProvider}. */
export interface DemoProviderOptions {
  /** The clock of `created` (the app's clock, which tests move). */
  now?: () => number;
  /** The most places one intent may cover; unset for any number (loopback). */
  maxPlaces?: number | undefined;
}

/** The demo provider, with the extra step that stands in for the card form. */
export interface DemoPaymentProvider extends PaymentProvider {
  /**
   * Authorizes an intent as a card confirmation would: `requires_payment_method` →
   * `requires_capture`. Idempotent: an intent already authorized answers as authorized (a retry
   * after a lost answer); a settled or cancelled one is refused.
   */
  authorize(id: string): IntentView;
}

/** Refuses a `step` on an intent in none of `statuses`, as Stripe does. */
function requireStatus(intent: IntentView, step: string, ...statuses: IntentStatus[]): void {
  if (!statuses.includes(intent.status)) {
    throw new PaymentFailure('unexpected_state', `Cannot ${step} an intent in ${intent.status}`);
  }
}

function token(): string {
  return randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
}

/**
 * Payments without Stripe keys: the same states and rules as Stripe's manual capture, in memory, so
 * the whole product runs on a fresh machine and the server's checks are exercised the same way.
 * Nothing is charged. Idempotency keys replay the first successful result, as Stripe's do.
 */
export function createDemoProvider(options: DemoProviderOptions = {}): DemoPaymentProvider {
  const { now = Date.now, maxPlaces } = options;
  const intents = new Map<string, IntentView>();
  const replies = new Map<string, { fingerprint: string; result: IntentView }>();

  function find(id: string): IntentView {
    const intent = intents.get(id);
    if (!intent) throw new PaymentFailure('not_found', `No such payment_intent: '${id}'`);
    return intent;
  }

  function once(key: string, fingerprint: string, act: () => IntentView): IntentView {
    const previous = replies.get(key);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw new PaymentFailure('conflict', `Idempotency key ${key} reused with other parameters`);
      }
      return { ...previous.result };
    }
    const result = { ...act() };
    if (replies.size >= 2 * DEMO_MAX_INTENTS) {
      const oldest = replies.keys().next().value;
      if (oldest !== undefined) replies.delete(oldest);
    }
    replies.set(key, { fingerprint, result });
    return result;
  }

  return {
    ...(maxPlaces === undefined ? {} : { maxPlaces }),
    async create({ amountCents, places, payer }) {
      if (isUnderMinimum(amountCents)) {
        throw new PaymentFailure('amount_too_small', 'Amount must be at least $0.50 usd');
      }
      if (maxPlaces !== undefined && places > maxPlaces) {
        throw new PaymentFailure(
          'invalid_request',
          `Demo payments cover at most ${maxPlaces} places`,
        );
      }
      if (intents.size >= DEMO_MAX_INTENTS) {
        let evictable: IntentView | undefined;
        // Oldest first; usually the first one is no open authorization, so this stops at once.
        for (const intent of intents.values()) {
          if (intent.status !== 'requires_capture') {
            evictable = intent;
            break;
          }
        }
        if (!evictable) {
          // The server holds too many open payments, as the memory store says when it is full.
          throw new StoreUnavailableError('full', 'Too many open demo authorizations');
        }
        intents.delete(evictable.id);
      }
      const id = `pi_demo${token()}`;
      intents.set(id, {
        id,
        status: 'requires_payment_method',
        amount: amountCents,
        amountCapturable: 0,
        amountReceived: 0,
        currency: 'usd',
        places,
        product: PRODUCT_TAG,
        created: Math.floor(now() / 1000),
        payer,
        resolved: 0,
        lastUsed: undefined,
      });
      return { id, clientSecret: `${id}_secret_${token()}` };
    },
    async retrieve(id) {
      return { ...find(id) };
    },
    authorize(id) {
      const intent = find(id);
      // Authorized already, perhaps by a call whose answer was lost: the same answer again.
      if (intent.status === 'requires_capture') return { ...intent };
      requireStatus(intent, 'authorize', 'requires_payment_method');
      intent.status = 'requires_capture';
      intent.amountCapturable = intent.amount;
      return { ...intent };
    },
    async capture(id, amountCents, idempotencyKey) {
      return once(idempotencyKey, `capture ${id} ${amountCents}`, () => {
        const intent = find(id);
        requireStatus(intent, 'capture', 'requires_capture');
        if (amountCents > intent.amountCapturable) {
          throw new PaymentFailure(
            'invalid_request',
            'amount_to_capture exceeds amount_capturable',
          );
        }
        if (isUnderMinimum(amountCents)) {
          throw new PaymentFailure('amount_too_small', 'Amount must be at least $0.50 usd');
        }
        intent.status = 'succeeded';
        intent.amountReceived = amountCents;
        intent.amountCapturable = 0;
        return intent;
      });
    },
    async recordUsage(id, usage) {
      const intent = find(id);
      intent.resolved = usage.resolved;
      intent.lastUsed = usage.lastUsed;
      return { ...intent };
    },
    async *openAuthorizations() {
      const open = [...intents.values()].filter(
        (intent) => intent.status === 'requires_capture' && intent.product === PRODUCT_TAG,
      );
      for (const intent of open) yield { ...intent };
    },
    async cancel(id, idempotencyKey) {
      return once(idempotencyKey, `cancel ${id}`, () => {
        const intent = find(id);
        requireStatus(intent, 'cancel', 'requires_payment_method', 'requires_capture');
        intent.status = 'canceled';
        intent.amountCapturable = 0;
        return intent;
      });
    },
  };
}
