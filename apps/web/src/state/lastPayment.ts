/**
 * The payments of runs the page may not live to settle (product.md "Money": every money outcome is
 * shown). When a card authorization is submitted, the page notes its id in `localStorage`, one
 * note per payment, and forgets that note once the page shows the capture's (or release's)
 * answer; an answer that comes after the person moved on to another run leaves it. A page loaded
 * while notes are kept — after a reload, a closed tab, a crash, another tab's run — asks the API
 * where each payment stands and shows them one at a time: still held, with when the server
 * settles it and a way to settle it now, or the receipt of what the server did. When a page of
 * this browser got the answer that settled a payment ("Settle it now", or a capture answered after
 * the person moved on), the note keeps when, so the receipt shown on a later visit keeps its date.
 *
 * A tab that is still running a payment's conversion (or settling it) holds a Web Lock named after
 * it, so another tab of the same browser never offers to settle a payment in use, nor settles it.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Where each note is kept: this prefix and the payment's id, one key per payment. */
export const PAYMENT_NOTE_PREFIX = 'placeport.payment.';

/** Where earlier versions of the page kept their one note; read once, then moved. */
export const LEGACY_PAYMENT_KEY = 'placeport.lastPayment';

/** Stripe keeps an authorization 7 days; a note older than that is of a payment long settled. */
export const LAST_PAYMENT_MAX_AGE_MS = 8 * 24 * 60 * 60 * 1000;

/** A payment intent id as Stripe (and the demo) write them. */
const INTENT_ID = /^pi_[A-Za-z0-9_]{1,200}$/;

/**
 * The note: the payment, how many places it held, when its authorization was submitted (ms),
 * once the run's conversion finished how many places it converted (the files were made), and once
 * a page of this browser saw it settled, when (ms: the receipt's date). Notes of earlier versions
 * of the page have no `settledAt`; they are read all the same, their receipts without a date.
 */
export interface RememberedPayment {
  paymentIntentId: string;
  places: number;
  authorizedAt: number;
  converted?: number;
  settledAt?: number;
  /**
   * The archive (its name and size) and the lists the payment was authorized for, each as its
   * {@link notedListToken} (notes of earlier versions of the page keep the paths themselves): a
   * later run of those lists, or some of them, of the same archive may use the hold while it is
   * open (see `effects.ts`, `heldPaymentFor`). Notes of earlier versions of the page have neither.
   */
  archive?: { name: string; size: number };
  lists?: string[];
}

/**
 * What a note keeps of one list the payment was for: not its path, whose name can say where
 * someone goes (a clinic, a friend's street) to whoever opens this browser's storage after them,
 * but the first 128 bits of a SHA-256 of the payment's id and the path, enough to know a later
 * run's list for one the payment was for (web security audit: a run whose tab died left every
 * list's path in storage).
 */
export function notedListToken(paymentIntentId: string, path: string): string {
  return bytesToHex(sha256(utf8ToBytes(`${paymentIntentId}\n${path}`))).slice(0, 32);
}

/** Whether the note's payment was for the list at `path` (a token, or an earlier note's path). */
export function notedForList(note: RememberedPayment, path: string): boolean {
  const lists = note.lists ?? [];
  return lists.includes(notedListToken(note.paymentIntentId, path)) || lists.includes(path);
}

/** The most lists a note keeps; a payment for more lists is not offered to a later run. */
export const MAX_NOTED_LISTS = 500;

/** True when `value` is a note's archive: a name and a size in bytes. */
function isNotedArchive(value: unknown): value is RememberedPayment['archive'] {
  const archive = value as RememberedPayment['archive'] | null;
  return (
    typeof archive?.name === 'string' && Number.isSafeInteger(archive.size) && archive.size >= 0
  );
}

/** True when `value` is a note's list paths. */
function isNotedLists(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length <= MAX_NOTED_LISTS &&
    value.every((path) => typeof path === 'string')
  );
}

/** The part of `Storage` the notes need; `localStorage` on the page. */
export type PaymentNotes = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** The key of one payment's note. */
export function paymentNoteKey(paymentIntentId: string): string {
  return `${PAYMENT_NOTE_PREFIX}${paymentIntentId}`;
}

/**
 * Notes a payment, replacing only an earlier note of the same payment; a browser that refuses
 * storage (private modes, quotas) just keeps no note.
 */
export function rememberPayment(notes: PaymentNotes | null, payment: RememberedPayment): void {
  try {
    notes?.setItem(paymentNoteKey(payment.paymentIntentId), JSON.stringify(payment));
  } catch {
    // Nothing to do: without the note, a closed tab's hold is still settled by the server.
  }
}

/** The note in `text`, unless it is malformed or older than {@link LAST_PAYMENT_MAX_AGE_MS}. */
function readNote(text: string | null, now: number): RememberedPayment | null {
  if (text === null) return null;
  let value: Partial<RememberedPayment> | null;
  try {
    value = JSON.parse(text) as Partial<RememberedPayment> | null;
  } catch {
    return null;
  }
  const usable =
    typeof value?.paymentIntentId === 'string' &&
    INTENT_ID.test(value.paymentIntentId) &&
    Number.isSafeInteger(value.places) &&
    (value.places ?? 0) > 0 &&
    typeof value.authorizedAt === 'number' &&
    now - value.authorizedAt < LAST_PAYMENT_MAX_AGE_MS &&
    (value.converted === undefined ||
      (Number.isSafeInteger(value.converted) && value.converted >= 0)) &&
    (value.settledAt === undefined || Number.isSafeInteger(value.settledAt)) &&
    (value.archive === undefined || isNotedArchive(value.archive)) &&
    (value.lists === undefined || isNotedLists(value.lists));
  return usable ? (value as RememberedPayment) : null;
}

/**
 * Moves the one note of an earlier version of the page, if any, to its own key. Storage that
 * refuses (full, say) leaves it where it is, to be moved next visit: the other notes are read all
 * the same.
 */
function migrateLegacyNote(notes: PaymentNotes, now: number): void {
  try {
    const text = notes.getItem(LEGACY_PAYMENT_KEY);
    if (text === null) return;
    const legacy = readNote(text, now);
    if (legacy !== null && notes.getItem(paymentNoteKey(legacy.paymentIntentId)) === null) {
      notes.setItem(paymentNoteKey(legacy.paymentIntentId), JSON.stringify(legacy));
    }
    notes.removeItem(LEGACY_PAYMENT_KEY);
  } catch {
    // Nothing to do: the earlier version's note waits for a visit whose storage takes it.
  }
}

/** The keys of every note kept, read before any is changed. */
function noteKeys(notes: PaymentNotes): string[] {
  const keys: string[] = [];
  for (let index = 0; index < notes.length; index += 1) {
    const key = notes.key(index);
    if (key?.startsWith(PAYMENT_NOTE_PREFIX)) keys.push(key);
  }
  return keys;
}

/**
 * Every payment noted, oldest first. A note that is malformed, of another kind of id, kept under
 * another payment's key, or older than {@link LAST_PAYMENT_MAX_AGE_MS} is dropped; the one note of
 * an earlier version of the page is moved to its own key first.
 */
export function recallPayments(notes: PaymentNotes | null, now: number): RememberedPayment[] {
  if (notes === null) return [];
  const payments: RememberedPayment[] = [];
  try {
    migrateLegacyNote(notes, now);
    for (const key of noteKeys(notes)) {
      const note = readNote(notes.getItem(key), now);
      if (note !== null && key === paymentNoteKey(note.paymentIntentId)) payments.push(note);
      else notes.removeItem(key);
    }
  } catch {
    // Storage refused midway: what was read is shown, the rest waits for the next visit.
  }
  return payments.sort((a, b) => a.authorizedAt - b.authorizedAt);
}

/** The note of one payment, if it is kept and usable (see {@link recallPayments}). */
export function recallPayment(
  notes: PaymentNotes | null,
  paymentIntentId: string,
  now: number,
): RememberedPayment | null {
  try {
    return readNote(notes?.getItem(paymentNoteKey(paymentIntentId)) ?? null, now);
  } catch {
    return null;
  }
}

/** Forgets the note of `paymentIntentId`, and only that one. */
export function forgetPayment(notes: PaymentNotes | null, paymentIntentId: string): void {
  try {
    notes?.removeItem(paymentNoteKey(paymentIntentId));
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
  /** Runs `task` holding the lock, once it is free; resolves when the task's promise settles. */
  hold(name: string, task: () => Promise<void>): Promise<void>;
  /**
   * Runs `task` holding the lock when no tab holds it (Web Locks' `ifAvailable`) and resolves
   * true once it settles; resolves false at once, without running it, when some tab holds it.
   */
  holdIfFree(name: string, task: () => Promise<void>): Promise<boolean>;
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
    async holdIfFree(name, task) {
      let ran = false;
      await locks.request(name, { ifAvailable: true }, async (lock) => {
        if (lock === null) return;
        ran = true;
        await task();
      });
      return ran;
    },
    async held(name) {
      const state = await locks.query();
      return (state.held ?? []).some((lock) => lock.name === name);
    },
  };
}
