/**
 * The payment of a run the page may not live to settle (product.md "Money": every money outcome is
 * shown). Once a card authorization is made, the page notes its id in `localStorage`, and forgets
 * it when the capture (or release) answers. A page loaded while one is noted — after a reload, a
 * closed tab, a crash — asks the API where that payment stands and shows it: still held, with
 * when the server settles it and a way to settle it now, or the receipt of what the server did.
 *
 * A tab that is still running the payment's conversion holds a Web Lock named after it, so another
 * tab of the same browser never offers to settle a payment in use.
 */

/** Where the note is kept. */
export const LAST_PAYMENT_KEY = 'placeport.lastPayment';

/** Stripe keeps an authorization 7 days; a note older than that is of a payment long settled. */
export const LAST_PAYMENT_MAX_AGE_MS = 8 * 24 * 60 * 60 * 1000;

/** A payment intent id as Stripe (and the demo) write them. */
const INTENT_ID = /^pi_[A-Za-z0-9_]{1,200}$/;

/** The note: the payment, how many places it held, and when it was authorized (ms). */
export interface RememberedPayment {
  paymentIntentId: string;
  places: number;
  authorizedAt: number;
}

/** The part of `Storage` the note needs; `localStorage` on the page. */
export type PaymentNotes = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Notes a payment; a browser that refuses storage (private modes, quotas) just keeps no note. */
export function rememberPayment(notes: PaymentNotes | null, payment: RememberedPayment): void {
  try {
    notes?.setItem(LAST_PAYMENT_KEY, JSON.stringify(payment));
  } catch {
    // Nothing to do: without the note, a closed tab's hold is still settled by the server.
  }
}

/** The payment noted, unless it is missing, malformed or older than {@link LAST_PAYMENT_MAX_AGE_MS}. */
export function recallPayment(notes: PaymentNotes | null, now: number): RememberedPayment | null {
  let text: string | null;
  try {
    text = notes?.getItem(LAST_PAYMENT_KEY) ?? null;
  } catch {
    return null;
  }
  if (text === null) return null;
  let value: Partial<RememberedPayment> | null;
  try {
    value = JSON.parse(text) as Partial<RememberedPayment> | null;
  } catch {
    value = null;
  }
  const usable =
    typeof value?.paymentIntentId === 'string' &&
    INTENT_ID.test(value.paymentIntentId) &&
    Number.isSafeInteger(value.places) &&
    (value.places ?? 0) > 0 &&
    typeof value.authorizedAt === 'number' &&
    now - value.authorizedAt < LAST_PAYMENT_MAX_AGE_MS;
  if (!usable) {
    forgetPayment(notes);
    return null;
  }
  return value as RememberedPayment;
}

/** Forgets the note (only if it is of `paymentIntentId`, when given). */
export function forgetPayment(notes: PaymentNotes | null, paymentIntentId?: string): void {
  try {
    if (paymentIntentId !== undefined) {
      const text = notes?.getItem(LAST_PAYMENT_KEY);
      if (!text?.includes(JSON.stringify(paymentIntentId))) return;
    }
    notes?.removeItem(LAST_PAYMENT_KEY);
  } catch {
    // A note that cannot be removed is forgotten when the API says the payment is settled.
  }
}

/** The name of the Web Lock a tab holds while its run uses the payment. */
export function paymentLockName(paymentIntentId: string): string {
  return `placeport-payment-${paymentIntentId}`;
}

/** The part of the Web Locks API the page uses; absent in old browsers and in tests. */
export interface PaymentLocks {
  /** Runs `task` holding the lock; resolves when the task's promise settles. */
  hold(name: string, task: () => Promise<void>): Promise<void>;
  /** True when some tab holds the lock now. */
  held(name: string): Promise<boolean>;
}

/** `navigator.locks`, when the browser has it. */
export function browserLocks(): PaymentLocks | null {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return null;
  return {
    async hold(name, task) {
      await locks.request(name, task);
    },
    async held(name) {
      const state = await locks.query();
      return (state.held ?? []).some((lock) => lock.name === name);
    },
  };
}
