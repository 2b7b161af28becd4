// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Api, PaymentStatus } from '../api/client';
import { ApiRequestError } from '../api/http';
import {
  CAPTURE_OUTCOME,
  fakeConverter,
  OPEN_PAYMENT,
  OPEN_PAYMENT_CAPTURED,
  STATES,
  UNUSED_API,
} from '../test/fixtures';
import { createEffects } from './effects';
import {
  forgetPayment,
  LAST_PAYMENT_KEY,
  LAST_PAYMENT_MAX_AGE_MS,
  paymentLockName,
  recallPayment,
  rememberPayment,
  type PaymentLocks,
  type PaymentNotes,
} from './lastPayment';
import { createAppStore } from './store';
import type { AppState } from './types';

const NOW = Date.UTC(2026, 10, 25, 12);

function memoryNotes(initial: Record<string, string> = {}): PaymentNotes & {
  items: Map<string, string>;
} {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const NOTED = { paymentIntentId: 'pi_left', places: 40, authorizedAt: NOW - 60_000 };

function notedNotes() {
  return memoryNotes({ [LAST_PAYMENT_KEY]: JSON.stringify(NOTED) });
}

const OPEN: PaymentStatus = { ...OPEN_PAYMENT, settlesAt: NOW + 20 * 60_000 };

/** Locks as a set of held names; `hold` records the name while the task runs. */
function fakeLocks(held: string[] = []): PaymentLocks & { during: string[][] } {
  const names = new Set(held);
  const during: string[][] = [];
  return {
    during,
    async hold(name, task) {
      names.add(name);
      try {
        await task();
      } finally {
        during.push([...names]);
        names.delete(name);
      }
    },
    held: async (name) => names.has(name),
  };
}

function setup(
  api: Partial<Api>,
  notes: PaymentNotes | null,
  locks: PaymentLocks | null = null,
  state?: AppState,
) {
  const store = createAppStore(state);
  const effects = createEffects({
    store,
    converter: fakeConverter(),
    api: { ...UNUSED_API, ...api },
    apiBase: 'http://127.0.0.1:1',
    now: () => NOW,
    notes,
    locks,
  });
  return { store, effects };
}

const notFound = () =>
  new ApiRequestError(404, '404: not found', {
    status: 404,
    code: 'payment_not_found',
    message: 'No such payment.',
    retryAfterSeconds: null,
  });

describe('the note of an authorized payment', () => {
  it('is read back as written, and forgotten only for its own payment', () => {
    const notes = memoryNotes();
    rememberPayment(notes, NOTED);
    expect(recallPayment(notes, NOW)).toEqual(NOTED);
    forgetPayment(notes, 'pi_other');
    expect(recallPayment(notes, NOW)).toEqual(NOTED);
    forgetPayment(notes, 'pi_left');
    expect(recallPayment(notes, NOW)).toBeNull();
  });

  it('is dropped when malformed, for another kind of id, or older than an authorization lives', () => {
    for (const text of [
      '{not json',
      'null',
      JSON.stringify({ ...NOTED, paymentIntentId: 'https://evil.example/' }),
      JSON.stringify({ ...NOTED, places: 0 }),
      JSON.stringify({ ...NOTED, authorizedAt: NOW - LAST_PAYMENT_MAX_AGE_MS }),
    ]) {
      const notes = memoryNotes({ [LAST_PAYMENT_KEY]: text });
      expect(recallPayment(notes, NOW)).toBeNull();
      expect(notes.items.has(LAST_PAYMENT_KEY)).toBe(false);
    }
    const justInTime = memoryNotes({
      [LAST_PAYMENT_KEY]: JSON.stringify({
        ...NOTED,
        authorizedAt: NOW - LAST_PAYMENT_MAX_AGE_MS + 1,
      }),
    });
    expect(recallPayment(justInTime, NOW)?.paymentIntentId).toBe('pi_left');
  });

  it('never breaks the page when storage refuses', () => {
    const refusing: PaymentNotes = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(() => rememberPayment(refusing, NOTED)).not.toThrow();
    expect(recallPayment(refusing, NOW)).toBeNull();
    expect(() => forgetPayment(refusing)).not.toThrow();
  });
});

describe('a paid run notes its payment until the capture answers', () => {
  it('notes it at authorization, holds its lock through the run, and forgets it once settled', async () => {
    const notes = memoryNotes();
    const locks = fakeLocks();
    let notedDuringCapture: string | undefined;
    const { store, effects } = setup(
      {
        capturePayment: async () => {
          notedDuringCapture = notes.items.get(LAST_PAYMENT_KEY);
          return CAPTURE_OUTCOME;
        },
      },
      notes,
      locks,
      STATES.paying,
    );
    await effects.authorize(async () => ({ ok: true }));
    expect(store.getState().state.status).toBe('complete');
    expect(JSON.parse(notedDuringCapture!)).toMatchObject({
      paymentIntentId: 'pi_123',
      authorizedAt: NOW,
    });
    expect(notes.items.has(LAST_PAYMENT_KEY)).toBe(false);
    expect(locks.during).toEqual([[paymentLockName('pi_123')]]);
  });

  it('keeps the note when the capture fails, so the next visit shows what became of it', async () => {
    const notes = memoryNotes();
    const { effects } = setup(
      { capturePayment: () => Promise.reject(new TypeError('Failed to fetch')) },
      notes,
      null,
      STATES.paying,
    );
    await effects.authorize(async () => ({ ok: true }));
    expect(recallPayment(notes, NOW)?.paymentIntentId).toBe('pi_123');
  });
});

describe('a payment an earlier visit left', () => {
  it('is shown as the API says it stands, and "Settle it now" claims nothing and shows the receipt', async () => {
    const notes = notedNotes();
    const captures: unknown[] = [];
    const { store, effects } = setup(
      {
        paymentStatus: async (id) => ({ ...OPEN, reference: id }),
        capturePayment: async (request) => {
          captures.push(request);
          return OPEN_PAYMENT_CAPTURED;
        },
      },
      notes,
    );
    await effects.recallLastPayment();
    expect(store.getState().lastVisit).toEqual({
      payment: OPEN,
      settling: false,
      settledAt: null,
      error: null,
    });
    await effects.settleLastPayment();
    expect(captures).toEqual([
      { paymentIntentId: 'pi_left', convertedCount: 0, totalCount: 40, actualAmountCents: 0 },
    ]);
    expect(store.getState().lastVisit).toMatchObject({
      payment: {
        status: 'captured',
        amountCapturedCents: 120,
        amountReleasedCents: 280,
        settlesAt: null,
      },
      settledAt: NOW,
      error: null,
    });
    // Settled: kept until dismissed, then forgotten.
    expect(notes.items.has(LAST_PAYMENT_KEY)).toBe(true);
    effects.dismissLastPayment();
    expect(store.getState().lastVisit).toBeNull();
    expect(notes.items.has(LAST_PAYMENT_KEY)).toBe(false);
  });

  it('a settle the API refuses says why, with the reference, and the notice stays', async () => {
    const { store, effects } = setup(
      {
        paymentStatus: async () => OPEN,
        capturePayment: () =>
          Promise.reject(
            new ApiRequestError(503, '503', {
              status: 503,
              code: 'payment_provider_unavailable',
              message: 'Stripe is unreachable.',
              retryAfterSeconds: 30,
            }),
          ),
      },
      notedNotes(),
    );
    await effects.recallLastPayment();
    await effects.settleLastPayment();
    const visit = store.getState().lastVisit;
    expect(visit?.payment.status).toBe('open');
    expect(visit?.settling).toBe(false);
    expect(visit?.error).toContain('Stripe could not be reached');
    expect(visit?.error).toContain('Reference: pi_left');
  });

  it('"Not now" hides an open payment but keeps its note for the next visit', async () => {
    const notes = notedNotes();
    const { store, effects } = setup({ paymentStatus: async () => OPEN }, notes);
    await effects.recallLastPayment();
    effects.dismissLastPayment();
    expect(store.getState().lastVisit).toBeNull();
    expect(recallPayment(notes, NOW)?.paymentIntentId).toBe('pi_left');
  });

  it('is forgotten without a word when the server does not know it or it was never authorized', async () => {
    for (const answer of [
      () => Promise.reject(notFound()),
      async () => ({ ...OPEN, status: 'not_authorized' as const }),
    ]) {
      const notes = notedNotes();
      const { store, effects } = setup({ paymentStatus: answer }, notes);
      await effects.recallLastPayment();
      expect(store.getState().lastVisit).toBeNull();
      expect(notes.items.has(LAST_PAYMENT_KEY)).toBe(false);
    }
  });

  it('is kept for the next visit when the API cannot be reached', async () => {
    const notes = notedNotes();
    const { store, effects } = setup(
      { paymentStatus: () => Promise.reject(new TypeError('Failed to fetch')) },
      notes,
    );
    await effects.recallLastPayment();
    expect(store.getState().lastVisit).toBeNull();
    expect(notes.items.has(LAST_PAYMENT_KEY)).toBe(true);
  });

  it('is not touched while another tab runs its conversion (that tab holds its lock)', async () => {
    let asked = 0;
    const { store, effects } = setup(
      {
        paymentStatus: async () => {
          asked += 1;
          return OPEN;
        },
      },
      notedNotes(),
      fakeLocks([paymentLockName('pi_left')]),
    );
    await effects.recallLastPayment();
    expect(asked).toBe(0);
    expect(store.getState().lastVisit).toBeNull();
  });
});
