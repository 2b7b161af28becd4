// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Api, PaymentStatus } from '../api/client';
import { DEFAULT_CONFIG } from '../api/config';
import { ApiRequestError, NoAnswerError } from '../api/http';
import {
  ARCHIVE,
  CAPTURE_OUTCOME,
  fakeConverter,
  HELD,
  LISTS,
  listSummary,
  memoryNotes,
  OPEN_PAYMENT,
  OPEN_PAYMENT_CAPTURED,
  STATES,
  UNUSED_API,
} from '../test/fixtures';
import { CAPTURE_RETRY_DELAYS_MS, createEffects, type EffectsDeps } from './effects';
import { captureFailedMessage } from './messages';
import {
  HELD_PAYMENT_IN_USE_TEXT,
  HELD_PAYMENT_SETTLED_TEXT,
  HELD_PAYMENT_UNCHECKED_TEXT,
  PAYMENT_IN_USE_TEXT,
} from './refusals';
import {
  forgetPayment,
  LAST_PAYMENT_MAX_AGE_MS,
  LEGACY_PAYMENT_KEY,
  MAX_NOTED_LISTS,
  paymentLockName,
  notedForList,
  notedListToken,
  paymentNoteKey,
  recallPayment,
  recallPayments,
  rememberPayment,
  type PaymentLocks,
  type PaymentNotes,
} from './lastPayment';
import { createAppStore } from './store';
import type { AppState } from './types';

const NOW = Date.UTC(2026, 10, 25, 12);

const NOTED = { paymentIntentId: 'pi_left', places: 40, authorizedAt: NOW - 60_000 };
const LEFT_KEY = paymentNoteKey('pi_left');
const RUN_KEY = paymentNoteKey('pi_123');

function notedNotes() {
  return memoryNotes({ [LEFT_KEY]: JSON.stringify(NOTED) });
}

const OPEN: PaymentStatus = { ...OPEN_PAYMENT, settlesAt: NOW + 20 * 60_000 };

/** What the fixtures' card payment is for: their archive and its one chosen list. */
const PAID_FOR = {
  archive: { name: ARCHIVE.file.name, size: ARCHIVE.file.size },
  lists: ARCHIVE.selected.map((path) => notedListToken('pi_123', path)),
};

/** {@link OPEN} once a capture settled it: $1.20 charged, the rest released. */
const CAPTURED: PaymentStatus = {
  ...OPEN,
  status: 'captured',
  amountCapturedCents: 120,
  amountReleasedCents: 280,
  settlesAt: null,
};

/**
 * Locks as a set of held names; `hold` records the names held while the task runs, and `take`
 * is another tab taking a lock.
 */
function fakeLocks(held: string[] = []): PaymentLocks & {
  during: string[][];
  take(name: string): void;
} {
  const names = new Set(held);
  const during: string[][] = [];
  async function hold(name: string, task: () => Promise<void>): Promise<void> {
    names.add(name);
    try {
      await task();
    } finally {
      during.push([...names]);
      names.delete(name);
    }
  }
  return {
    during,
    take: (name) => void names.add(name),
    hold,
    async holdIfFree(name, task) {
      if (names.has(name)) return false;
      await hold(name, task);
      return true;
    },
    held: async (name) => names.has(name),
  };
}

function setup(
  api: Partial<Api>,
  notes: PaymentNotes | null,
  locks: PaymentLocks | null = null,
  state?: AppState,
  more: Partial<EffectsDeps> = {},
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
    ...more,
  });
  return { store, effects };
}

/**
 * The pauses before a capture is asked again, driven by the test: each is recorded, and ends when
 * `release` is called or its signal aborts (the browser back online). `paused` resolves at the
 * next pause.
 */
function fakePauses() {
  const asked: number[] = [];
  let release = () => {};
  let reached = () => {};
  let next = new Promise<void>((resolve) => (reached = resolve));
  return {
    asked,
    get paused() {
      return next;
    },
    release: () => release(),
    wait(ms: number, signal: AbortSignal): Promise<void> {
      asked.push(ms);
      const done = new Promise<void>((resolve) => {
        release = resolve;
        signal.addEventListener('abort', () => resolve());
      });
      reached();
      next = new Promise<void>((resolve) => (reached = resolve));
      return done;
    },
  };
}

const networkError = () => new TypeError('Failed to fetch');

/** A `paymentStatus` that answers `answer()` ({@link OPEN} by default) and counts the calls. */
function countedStatus(answer: () => PaymentStatus = () => OPEN) {
  const counted = {
    asked: 0,
    paymentStatus: async () => {
      counted.asked += 1;
      return answer();
    },
  };
  return counted;
}

const refusedBy = (status: number, code: string) =>
  new ApiRequestError(status, `${status}: ${code}`, {
    status,
    code,
    message: code,
    retryAfterSeconds: null,
  });

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
    expect(recallPayments(notes, NOW)).toEqual([NOTED]);
    forgetPayment(notes, 'pi_other');
    expect(recallPayments(notes, NOW)).toEqual([NOTED]);
    forgetPayment(notes, 'pi_left');
    expect(recallPayments(notes, NOW)).toEqual([]);
  });

  it('is dropped when malformed, for another kind of id, or older than an authorization lives', () => {
    for (const text of [
      '{not json',
      'null',
      JSON.stringify({ ...NOTED, paymentIntentId: 'https://evil.example/' }),
      JSON.stringify({ ...NOTED, places: 0 }),
      JSON.stringify({ ...NOTED, authorizedAt: NOW - LAST_PAYMENT_MAX_AGE_MS }),
      JSON.stringify({ ...NOTED, settledAt: 'yesterday' }),
      JSON.stringify({ ...NOTED, archive: { name: 7, size: 10 } }),
      JSON.stringify({ ...NOTED, archive: { name: 'a.zip', size: -1 } }),
      JSON.stringify({ ...NOTED, lists: 'Takeout/Saved/Want to go.csv' }),
      JSON.stringify({ ...NOTED, lists: [null] }),
      JSON.stringify({ ...NOTED, lists: Array<string>(MAX_NOTED_LISTS + 1).fill('a.csv') }),
    ]) {
      const notes = memoryNotes({ [LEFT_KEY]: text });
      expect(recallPayments(notes, NOW)).toEqual([]);
      expect(notes.items.has(LEFT_KEY)).toBe(false);
    }
    const justInTime = memoryNotes({
      [LEFT_KEY]: JSON.stringify({
        ...NOTED,
        authorizedAt: NOW - LAST_PAYMENT_MAX_AGE_MS + 1,
      }),
    });
    expect(recallPayments(justInTime, NOW)[0]?.paymentIntentId).toBe('pi_left');
    const atTheLimit = {
      ...NOTED,
      archive: { name: 'a.zip', size: 0 },
      lists: Array<string>(MAX_NOTED_LISTS).fill('a.csv'),
    };
    const full = memoryNotes({ [LEFT_KEY]: JSON.stringify(atTheLimit) });
    expect(recallPayments(full, NOW)).toEqual([atTheLimit]);
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
      key: () => {
        throw new Error('SecurityError');
      },
      get length(): number {
        throw new Error('SecurityError');
      },
    };
    expect(() => rememberPayment(refusing, NOTED)).not.toThrow();
    expect(recallPayments(refusing, NOW)).toEqual([]);
    expect(recallPayment(refusing, 'pi_left', NOW)).toBeNull();
    expect(() => forgetPayment(refusing, 'pi_left')).not.toThrow();
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
          notedDuringCapture = notes.items.get(RUN_KEY);
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
    expect(notes.items.has(RUN_KEY)).toBe(false);
    expect(locks.during).toEqual([[paymentLockName('pi_123')]]);
  });

  it('keeps the note, with the places converted, when the capture fails: the next visit says the run finished', async () => {
    const notes = memoryNotes();
    const { effects } = setup(
      { capturePayment: () => Promise.reject(refusedBy(503, 'payment_provider_unavailable')) },
      notes,
      null,
      STATES.paying,
    );
    await effects.authorize(async () => ({ ok: true }));
    expect(recallPayment(notes, 'pi_123', NOW)).toEqual({
      paymentIntentId: 'pi_123',
      places: 40,
      authorizedAt: NOW,
      converted: 0,
      ...PAID_FOR,
    });
    // What storage keeps names no list: whoever opens this browser after them reads no list name.
    const stored = notes.items.get(RUN_KEY)!;
    for (const path of ARCHIVE.selected) {
      expect(stored).not.toContain(path);
      expect(stored).not.toContain(
        path
          .split('/')
          .at(-1)!
          .replace(/\.csv$/, ''),
      );
    }

    const next = setup({ paymentStatus: async () => ({ ...OPEN, reference: 'pi_123' }) }, notes);
    await next.effects.recallLastPayment();
    expect(next.store.getState().lastVisit).toMatchObject({
      payment: { reference: 'pi_123' },
      converted: 0,
    });
  });

  it('notes the payment when its authorization is submitted, holding its lock, before any answer', async () => {
    const notes = memoryNotes();
    const locks = fakeLocks();
    let notedBeforeAnswer: unknown;
    let lockedBeforeAnswer: boolean | undefined;
    const { effects } = setup({}, notes, locks, STATES.paying);
    await effects.authorize(async () => {
      notedBeforeAnswer = recallPayment(notes, 'pi_123', NOW);
      lockedBeforeAnswer = await locks.held(paymentLockName('pi_123'));
      throw networkError();
    });
    // With what it is for: a later run of these lists of this archive may use the hold.
    expect(notedBeforeAnswer).toEqual({
      paymentIntentId: 'pi_123',
      places: 40,
      authorizedAt: NOW,
      ...PAID_FOR,
    });
    expect(lockedBeforeAnswer).toBe(true);
    // The answer was lost: the note stays, and the next visit asks the API where it stands.
    expect(notes.items.has(RUN_KEY)).toBe(true);
  });

  it.each([
    [MAX_NOTED_LISTS, true],
    [MAX_NOTED_LISTS + 1, false],
  ])('notes what it is for with %i lists chosen: %s', async (count, kept) => {
    const lists = Array.from({ length: count }, (_, index) =>
      listSummary({
        path: `Takeout/Saved/List ${index}.csv`,
        name: `List ${index}`,
        rowCount: 1,
        size: 10,
      }),
    );
    const paying: AppState = {
      ...(STATES.paying as Extract<AppState, { status: 'paying' }>),
      lists,
      selected: lists.map((list) => list.path),
    };
    const notes = memoryNotes();
    const { effects } = setup({}, notes, null, paying);
    await effects.authorize(async () => {
      throw networkError();
    });
    const note = recallPayment(notes, 'pi_123', NOW);
    expect(note?.places).toBe(count);
    // Past the limit the note is kept without them: that hold is never offered to a later run.
    expect(note?.lists?.length).toBe(kept ? count : undefined);
    expect(note?.archive).toEqual(kept ? PAID_FOR.archive : undefined);
  });

  it('asks a capture that got no answer again after a pause, or at once when back online', async () => {
    const notes = memoryNotes();
    const pauses = fakePauses();
    const online = new EventTarget();
    const answers = [
      () => Promise.reject(networkError()),
      () => Promise.reject(networkError()),
      async () => CAPTURE_OUTCOME,
    ];
    const claims: unknown[] = [];
    const { store, effects } = setup(
      {
        capturePayment: (request) => {
          claims.push(request);
          return answers[claims.length - 1]!();
        },
      },
      notes,
      null,
      STATES.paying,
      { wait: pauses.wait, connectivity: online },
    );
    const run = effects.authorize(async () => ({ ok: true }));

    await pauses.paused;
    expect(store.getState().state).toMatchObject({
      status: 'complete',
      capture: { kind: 'failed', retrying: true, message: expect.stringContaining('pi_123') },
    });
    pauses.release();
    await pauses.paused;
    online.dispatchEvent(new Event('online'));
    await run;

    expect(pauses.asked).toEqual(CAPTURE_RETRY_DELAYS_MS.slice(0, 2));
    // The same claim each time: the server settles it once (its idempotency key is the intent's).
    expect(claims).toEqual([claims[0], claims[0], claims[0]]);
    expect(store.getState().state).toMatchObject({
      capture: { kind: 'settled', ...CAPTURE_OUTCOME },
    });
    expect(notes.items.has(RUN_KEY)).toBe(false);
    expect(store.getState().toasts.map((toast) => toast.title)).not.toContain(
      'Payment Capture Failed',
    );
  });

  /** A paying run whose captures answer `answers` in turn, its pauses before asking again held. */
  function captureAnswering(answers: Array<() => Promise<typeof CAPTURE_OUTCOME>>) {
    const notes = memoryNotes();
    const pauses = fakePauses();
    let tries = 0;
    const context = setup(
      { capturePayment: () => answers[tries++]!() },
      notes,
      null,
      STATES.paying,
      { wait: pauses.wait },
    );
    return { ...context, notes, pauses, tries: () => tries };
  }

  it("says the server answered with an error, not that it gave no answer, when a capture gets a 500 that is not the API's", async () => {
    const { store, effects, pauses } = captureAnswering([
      () => Promise.reject(new ApiRequestError(500, '500: boom', null)),
      async () => CAPTURE_OUTCOME,
    ]);
    const run = effects.authorize(async () => ({ ok: true }));
    await pauses.paused;
    const shown = store.getState().state;
    if (!('capture' in shown) || shown.capture.kind !== 'failed') throw new Error('not retrying');
    expect(shown.capture.message).toContain('answered with an error (HTTP 500)');
    expect(shown.capture.message).not.toContain('got no answer');
    expect(shown.capture.message).toContain('pi_123');
    pauses.release();
    await run;
    expect(store.getState().state).toMatchObject({
      capture: { kind: 'settled', ...CAPTURE_OUTCOME },
    });
  });

  it("never takes a capture asked again for the next run's after the person moved on, and keeps its note for the next visit", async () => {
    const { store, effects, pauses, notes, tries } = captureAnswering([
      () => Promise.reject(networkError()),
      async () => CAPTURE_OUTCOME,
    ]);
    const run = effects.authorize(async () => ({ ok: true }));
    await pauses.paused;
    const { send } = store.getState();
    send({ type: 'convertMoreConfirmed' });
    send({ type: 'allListsSelected' });
    send({ type: 'paymentRequested', requestId: 99 });
    send({
      type: 'intentCreated',
      requestId: 99,
      clientSecret: 'pi_next_secret',
      paymentIntentId: 'pi_next',
    });
    send({ type: 'authorizationSubmitted' });
    send({ type: 'paymentAuthorized' });
    send({
      type: 'conversionFinished',
      results: [],
      totals: { total: 0, converted: 0, skipped: 0 },
    });
    expect(store.getState().state).toMatchObject({
      status: 'complete',
      authorization: { paymentIntentId: 'pi_next' },
      capture: { kind: 'pending' },
    });
    pauses.release();
    await run;
    expect(tries()).toBe(2);
    expect(store.getState().state).toMatchObject({ capture: { kind: 'pending' } });
    // The receipt was not shown here: the note stays, dated, so the next visit shows it.
    expect(recallPayment(notes, 'pi_123', NOW)).toMatchObject({ converted: 0, settledAt: NOW });
    const next = setup(
      { paymentStatus: async () => ({ ...CAPTURED, reference: 'pi_123' }) },
      notes,
      null,
      undefined,
      { now: () => NOW + 60_000 },
    );
    await next.effects.recallLastPayment();
    expect(next.store.getState().lastVisit).toMatchObject({
      payment: { reference: 'pi_123', status: 'captured' },
      converted: 0,
      settledAt: NOW,
    });
  });

  it('stops after the last pause and says the capture failed, keeping the note', async () => {
    const notes = memoryNotes();
    const asked: number[] = [];
    let tries = 0;
    const { store, effects } = setup(
      {
        capturePayment: () => {
          tries += 1;
          return Promise.reject(networkError());
        },
      },
      notes,
      null,
      STATES.paying,
      { wait: async (ms) => void asked.push(ms) },
    );
    await effects.authorize(async () => ({ ok: true }));
    expect(asked).toEqual(CAPTURE_RETRY_DELAYS_MS);
    expect(tries).toBe(CAPTURE_RETRY_DELAYS_MS.length + 1);
    expect(store.getState().state).toMatchObject({
      capture: { kind: 'failed', message: captureFailedMessage('pi_123') },
    });
    const state = store.getState().state;
    expect('capture' in state && state.capture.kind === 'failed' && state.capture.retrying).toBe(
      undefined,
    );
    expect(notes.items.has(RUN_KEY)).toBe(true);
  });

  it('does not ask again after a refusal: asking again would be refused the same way', async () => {
    let tries = 0;
    const asked: number[] = [];
    const { effects } = setup(
      {
        capturePayment: () => {
          tries += 1;
          return Promise.reject(refusedBy(503, 'payment_provider_unavailable'));
        },
      },
      memoryNotes(),
      null,
      STATES.paying,
      { wait: async (ms) => void asked.push(ms) },
    );
    await effects.authorize(async () => ({ ok: true }));
    expect(tries).toBe(1);
    expect(asked).toEqual([]);
  });
});

describe('one note per payment', () => {
  const OTHER = { paymentIntentId: 'pi_other', places: 12, authorizedAt: NOW - 30_000 };

  it('keeps a note for each payment, and forgets only the one settled', () => {
    const notes = memoryNotes();
    rememberPayment(notes, NOTED);
    rememberPayment(notes, OTHER);
    expect(recallPayments(notes, NOW)).toEqual([NOTED, OTHER]);
    forgetPayment(notes, 'pi_left');
    expect(recallPayments(notes, NOW)).toEqual([OTHER]);
  });

  it('moves the one note of an earlier version of the page to its own key', () => {
    const notes = memoryNotes({
      [LEGACY_PAYMENT_KEY]: JSON.stringify(NOTED),
      [paymentNoteKey('pi_other')]: JSON.stringify(OTHER),
    });
    expect(recallPayments(notes, NOW)).toEqual([NOTED, OTHER]);
    expect(notes.items.has(LEGACY_PAYMENT_KEY)).toBe(false);
    expect(JSON.parse(notes.items.get(LEFT_KEY)!)).toEqual(NOTED);
  });

  it('still shows every other note when the note of an earlier version cannot be moved (storage full)', () => {
    const notes = memoryNotes({
      [LEGACY_PAYMENT_KEY]: JSON.stringify(NOTED),
      [paymentNoteKey('pi_other')]: JSON.stringify(OTHER),
    });
    const full: PaymentNotes = {
      ...notes,
      key: notes.key,
      get length() {
        return notes.length;
      },
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    };
    expect(recallPayments(full, NOW)).toEqual([OTHER]);
    // Left where it was, to be moved by a visit whose storage takes it.
    expect(notes.items.has(LEGACY_PAYMENT_KEY)).toBe(true);
    expect(recallPayments(notes, NOW)).toEqual([NOTED, OTHER]);
  });

  it("drops a note kept under another payment's key", () => {
    const notes = memoryNotes({ [paymentNoteKey('pi_other')]: JSON.stringify(NOTED) });
    expect(recallPayments(notes, NOW)).toEqual([]);
    expect(notes.items.size).toBe(0);
  });

  it("a second run in another tab leaves the first payment's note: its reload shows it", async () => {
    const notes = notedNotes();
    // Another tab authorizes and settles its own payment meanwhile.
    const other = setup(
      { capturePayment: async () => CAPTURE_OUTCOME },
      notes,
      null,
      STATES.paying,
    );
    await other.effects.authorize(async () => ({ ok: true }));
    expect(notes.items.has(RUN_KEY)).toBe(false);
    const { store, effects } = setup({ paymentStatus: async () => OPEN }, notes);
    await effects.recallLastPayment();
    expect(store.getState().lastVisit?.payment.reference).toBe('pi_left');
  });

  it('shows each open payment in turn, oldest first: the next once the first is closed', async () => {
    const notes = memoryNotes();
    rememberPayment(notes, OTHER);
    rememberPayment(notes, NOTED);
    const { store, effects } = setup(
      { paymentStatus: async (id) => ({ ...OPEN, reference: id }) },
      notes,
    );
    await effects.recallLastPayment();
    expect(store.getState().lastVisit?.payment.reference).toBe('pi_left');
    effects.dismissLastPayment();
    await effects.recallLastPayment();
    expect(store.getState().lastVisit?.payment.reference).toBe('pi_other');
    effects.dismissLastPayment();
    await effects.recallLastPayment();
    expect(store.getState().lastVisit).toBeNull();
    // "Not now": both are shown again next visit.
    expect(recallPayments(notes, NOW)).toEqual([NOTED, OTHER]);
  });

  it('skips a payment another tab is using and shows the next', async () => {
    const notes = memoryNotes();
    rememberPayment(notes, NOTED);
    rememberPayment(notes, OTHER);
    const asked: string[] = [];
    const { store, effects } = setup(
      {
        paymentStatus: async (id) => {
          asked.push(id);
          return { ...OPEN, reference: id };
        },
      },
      notes,
      fakeLocks([paymentLockName('pi_left')]),
    );
    await effects.recallLastPayment();
    expect(asked).toEqual(['pi_other']);
    expect(store.getState().lastVisit?.payment.reference).toBe('pi_other');
  });
});

describe('an authorization whose answer was lost', () => {
  const unexpectedState = () => Promise.reject(refusedBy(409, 'payment_unexpected_state'));

  it('goes on when the API says the payment is held, after the demo refuses to authorize it again', async () => {
    const { store, effects } = setup(
      {
        demoAuthorize: unexpectedState,
        paymentStatus: async () => ({ ...OPEN, reference: 'pi_123' }),
        capturePayment: async () => CAPTURE_OUTCOME,
      },
      memoryNotes(),
      null,
      STATES.paying,
    );
    await effects.authorizeDemo();
    expect(store.getState().state.status).toBe('complete');
    expect(store.getState().toasts[0]).toMatchObject({ title: 'Payment Authorized' });
  });

  it.each([
    ['the connection dropped', networkError],
    ['no answer before its deadline', () => new NoAnswerError()],
  ])(
    'goes on when the authorize call got no answer (%s) and the API says the payment is held',
    async (_why, lost) => {
      const asked: string[] = [];
      const { store, effects } = setup(
        {
          demoAuthorize: () => Promise.reject(lost()),
          paymentStatus: async (id) => {
            asked.push(id);
            return { ...OPEN, reference: id };
          },
          capturePayment: async () => CAPTURE_OUTCOME,
        },
        memoryNotes(),
        null,
        STATES.paying,
      );
      await effects.authorizeDemo();
      expect(asked).toEqual(['pi_123']);
      expect(store.getState().state.status).toBe('complete');
      expect(store.getState().toasts.map((toast) => toast.title)).toEqual(['Payment Authorized']);
    },
  );

  it('says the error when the authorize call got no answer and the payment is not held', async () => {
    for (const paymentStatus of [
      async () => ({ ...OPEN, status: 'not_authorized' as const }),
      () => Promise.reject(networkError()),
    ]) {
      const { store, effects } = setup(
        { demoAuthorize: () => Promise.reject(networkError()), paymentStatus },
        memoryNotes(),
        null,
        STATES.paying,
      );
      await effects.authorizeDemo();
      expect(store.getState().state.status).toBe('paying');
      expect(store.getState().toasts).toMatchObject([
        { title: 'Payment Error', description: 'Failed to fetch' },
      ]);
    }
  });

  it('asks the API nothing more after a refusal that says the payment was not authorized', async () => {
    const status = countedStatus();
    const { store, effects } = setup(
      {
        demoAuthorize: () => Promise.reject(refusedBy(402, 'payment_declined')),
        paymentStatus: status.paymentStatus,
      },
      memoryNotes(),
      null,
      STATES.paying,
    );
    await effects.authorizeDemo();
    expect(status.asked).toBe(0);
    expect(store.getState().state.status).toBe('paying');
  });

  it('says the refusal when the API says the payment is not held', async () => {
    const { store, effects } = setup(
      {
        demoAuthorize: unexpectedState,
        paymentStatus: async () => ({ ...OPEN, status: 'captured' as const }),
      },
      memoryNotes(),
      null,
      STATES.paying,
    );
    await effects.authorizeDemo();
    expect(store.getState().state.status).toBe('paying');
    expect(store.getState().toasts[0]).toMatchObject({
      title: 'Payment Failed',
      description: expect.stringContaining('already used or cancelled'),
    });
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
      converted: null,
      settling: false,
      settledAt: null,
      error: null,
      // A note of an earlier version: the archive it was for is not known.
      archiveName: null,
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
    expect(notes.items.has(LEFT_KEY)).toBe(true);
    effects.dismissLastPayment();
    expect(store.getState().lastVisit).toBeNull();
    expect(notes.items.has(LEFT_KEY)).toBe(false);
  });

  it('keeps the date of "Settle it now" in its note: after a reload the receipt still has it', async () => {
    const notes = notedNotes();
    const { effects } = setup(
      {
        paymentStatus: async () => OPEN,
        capturePayment: async () => OPEN_PAYMENT_CAPTURED,
      },
      notes,
    );
    await effects.recallLastPayment();
    await effects.settleLastPayment();
    expect(recallPayment(notes, 'pi_left', NOW)).toEqual({ ...NOTED, settledAt: NOW });
    // The reload, a minute later: the API says the payment is captured; the date is the settle's.
    const reloaded = setup({ paymentStatus: async () => CAPTURED }, notes, null, undefined, {
      now: () => NOW + 60_000,
    });
    await reloaded.effects.recallLastPayment();
    expect(reloaded.store.getState().lastVisit).toMatchObject({
      payment: { status: 'captured', amountCapturedCents: 120 },
      settledAt: NOW,
    });
  });

  it('reads a note of an earlier version, which has no date: its receipt shows none', async () => {
    const notes = notedNotes();
    expect(notes.items.get(LEFT_KEY)).not.toContain('settledAt');
    const { store, effects } = setup({ paymentStatus: async () => CAPTURED }, notes);
    await effects.recallLastPayment();
    expect(store.getState().lastVisit).toMatchObject({
      payment: { reference: 'pi_left', status: 'captured' },
      settledAt: null,
    });
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

  it('a settle refused because the payment was settled meanwhile shows how it stands, not "still held" beside it', async () => {
    let reads = 0;
    const { store, effects } = setup(
      {
        // Open when the card was made; captured by the tab that ran it before "Settle it now".
        paymentStatus: async () => {
          reads += 1;
          return reads === 1
            ? OPEN
            : {
                ...OPEN,
                status: 'captured',
                amountCapturedCents: 190,
                amountReleasedCents: 210,
                settlesAt: null,
              };
        },
        capturePayment: () =>
          Promise.reject(
            new ApiRequestError(409, '409', {
              status: 409,
              code: 'already_captured',
              message: 'Already captured.',
              retryAfterSeconds: null,
              amountCaptured: 1.9,
            }),
          ),
      },
      notedNotes(),
    );
    await effects.recallLastPayment();
    await effects.settleLastPayment();
    expect(store.getState().lastVisit).toMatchObject({
      payment: { status: 'captured', amountCapturedCents: 190 },
      settling: false,
      settledAt: NOW,
      error: null,
    });
  });

  it('"Settle it now" holds the payment\'s lock while it settles', async () => {
    const locks = fakeLocks();
    let lockedDuringCapture: boolean | undefined;
    const { store, effects } = setup(
      {
        paymentStatus: async () => OPEN,
        capturePayment: async () => {
          lockedDuringCapture = await locks.held(paymentLockName('pi_left'));
          return OPEN_PAYMENT_CAPTURED;
        },
      },
      notedNotes(),
      locks,
    );
    await effects.recallLastPayment();
    await effects.settleLastPayment();
    expect(lockedDuringCapture).toBe(true);
    expect(store.getState().lastVisit?.payment.status).toBe('captured');
    expect(await locks.held(paymentLockName('pi_left'))).toBe(false);
  });

  it('"Settle it now" leaves a payment another tab took up since the card was shown, and says so', async () => {
    const locks = fakeLocks();
    let captures = 0;
    const { store, effects } = setup(
      {
        paymentStatus: async () => OPEN,
        capturePayment: async () => {
          captures += 1;
          return OPEN_PAYMENT_CAPTURED;
        },
      },
      notedNotes(),
      locks,
    );
    await effects.recallLastPayment();
    expect(store.getState().lastVisit?.payment.reference).toBe('pi_left');
    // The page that authorized it is still running (its answer was lost, then it went on).
    locks.take(paymentLockName('pi_left'));
    await effects.settleLastPayment();
    expect(captures).toBe(0);
    expect(store.getState().lastVisit).toMatchObject({
      payment: { status: 'open' },
      settling: false,
      error: PAYMENT_IN_USE_TEXT,
    });
  });

  it('shown again (the tab back in view), says how it stands now: settled meanwhile elsewhere, its receipt', async () => {
    const notes = notedNotes();
    let standing = OPEN;
    const status = countedStatus(() => standing);
    const { store, effects } = setup({ paymentStatus: status.paymentStatus }, notes);
    await effects.recallLastPayment();
    expect(store.getState().lastVisit?.payment.status).toBe('open');
    // Another tab's "Settle it now" noted when it saw the receipt.
    rememberPayment(notes, { ...NOTED, settledAt: NOW - 5_000 });
    standing = CAPTURED;
    await effects.refreshLastPayment();
    expect(store.getState().lastVisit).toMatchObject({
      payment: CAPTURED,
      settledAt: NOW - 5_000,
      settling: false,
    });
    // A receipt is not asked about again.
    await effects.refreshLastPayment();
    expect(status.asked).toBe(2);
  });

  it('shown again while it is still held, or while it is being settled here: nothing changes', async () => {
    const status = countedStatus();
    const { store, effects } = setup(
      {
        paymentStatus: status.paymentStatus,
      },
      notedNotes(),
    );
    await effects.refreshLastPayment();
    expect(status.asked).toBe(0);
    await effects.recallLastPayment();
    const shown = store.getState().lastVisit!;
    await effects.refreshLastPayment();
    expect(store.getState().lastVisit).toEqual(shown);
    store.getState().lastVisitChanged({ ...shown, settling: true });
    await effects.refreshLastPayment();
    expect(status.asked).toBe(2);
  });

  it('"Not now" hides an open payment but keeps its note for the next visit', async () => {
    const notes = notedNotes();
    const { store, effects } = setup({ paymentStatus: async () => OPEN }, notes);
    await effects.recallLastPayment();
    effects.dismissLastPayment();
    expect(store.getState().lastVisit).toBeNull();
    expect(recallPayment(notes, 'pi_left', NOW)?.paymentIntentId).toBe('pi_left');
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
      expect(notes.items.has(LEFT_KEY)).toBe(false);
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
    expect(notes.items.has(LEFT_KEY)).toBe(true);
  });

  it('is not touched while another tab runs its conversion (that tab holds its lock)', async () => {
    const status = countedStatus();
    const { store, effects } = setup(
      {
        paymentStatus: status.paymentStatus,
      },
      notedNotes(),
      fakeLocks([paymentLockName('pi_left')]),
    );
    await effects.recallLastPayment();
    expect(status.asked).toBe(0);
    expect(store.getState().lastVisit).toBeNull();
  });
});

describe('a hold an earlier visit left, used again for the same lists of the same archive', () => {
  /** The earlier visit's note of `pi_left`, for the fixtures' archive and two of its lists. */
  const HELD_NOTE = {
    ...NOTED,
    places: 68,
    archive: { name: ARCHIVE.file.name, size: ARCHIVE.file.size },
    lists: [LISTS[0]!.path, LISTS[1]!.path].map((path) => notedListToken('pi_left', path)),
  };
  /** Where `pi_left` stands: open, 68 places held, 25 of them found in the earlier visit. */
  const HELD_OPEN: PaymentStatus = {
    ...OPEN,
    amountAuthorizedCents: 680,
    placesAuthorized: 68,
    placesResolved: 25,
  };
  const NEW_INTENT = { clientSecret: 'pi_new_secret_x', paymentIntentId: 'pi_new' };

  /** The fixtures' selection (one list, 40 places), about to proceed to payment. */
  function heldSetup(
    api: Partial<Api>,
    note: object | null = HELD_NOTE,
    locks: PaymentLocks | null = null,
    more: Partial<EffectsDeps> = {},
  ) {
    const notes = memoryNotes(note === null ? {} : { [LEFT_KEY]: JSON.stringify(note) });
    const intents: number[] = [];
    const services = setup(
      {
        getConfig: async () => DEFAULT_CONFIG,
        createPaymentIntent: async (cents) => {
          intents.push(cents);
          return NEW_INTENT;
        },
        ...api,
      },
      notes,
      locks,
      STATES.selecting,
      more,
    );
    return { ...services, notes, intents };
  }

  it('is offered in place of a new intent, and the run uses it: its allowance, its lock, one capture against its own count', async () => {
    const captures: unknown[] = [];
    const converted: string[] = [];
    const locks = fakeLocks();
    /** The earlier run's end, as the note says when this run starts. */
    let notedAtStart: number | undefined = -1;
    const converter = fakeConverter({
      convert: async (options) => {
        converted.push(JSON.stringify(options.resolve));
        notedAtStart = recallPayment(notes, 'pi_left', NOW)?.converted;
        return {
          ok: true,
          value: { lists: [], totals: { total: 40, converted: 37, skipped: 3 } },
        };
      },
    });
    const { store, effects, notes, intents } = heldSetup(
      {
        paymentStatus: async (id) => ({ ...HELD_OPEN, reference: id }),
        capturePayment: async (request) => {
          captures.push(request);
          return { ...OPEN_PAYMENT_CAPTURED, amountAuthorizedCents: 680 };
        },
      },
      { ...HELD_NOTE, converted: 30 },
      locks,
      { converter },
    );
    // The earlier visit's card of it is shown meanwhile.
    await effects.recallLastPayment();
    expect(store.getState().lastVisit).toMatchObject({
      payment: { reference: 'pi_left' },
      archiveName: ARCHIVE.file.name,
    });

    await effects.proceedToPayment();
    const offer = store.getState().state;
    expect(offer).toMatchObject({ status: 'paying', authorization: HELD });
    expect(intents).toEqual([]);

    await effects.convertWithHeld();
    expect(store.getState().state.status).toBe('complete');
    // The note no longer says the earlier run finished: a reload now shows this run unfinished.
    expect(notedAtStart).toBeUndefined();
    expect(converted).toEqual([
      JSON.stringify({ apiBase: 'http://127.0.0.1:1', paymentIntentId: 'pi_left' }),
    ]);
    // The claim is this run's, against the places the hold authorized (the API checks them).
    expect(captures).toEqual([
      { paymentIntentId: 'pi_left', convertedCount: 37, totalCount: 68, actualAmountCents: 370 },
    ]);
    expect(locks.during).toEqual([[paymentLockName('pi_left')]]);
    // This run shows its outcome: the card of it went, and its note once the receipt was shown.
    expect(store.getState().lastVisit).toBeNull();
    expect(notes.items.has(LEFT_KEY)).toBe(false);
  });

  it.each([
    ['another archive', { ...HELD_NOTE, archive: { name: 'other.zip', size: ARCHIVE.file.size } }],
    ['the same name, another size', { ...HELD_NOTE, archive: { ...HELD_NOTE.archive, size: 1 } }],
    [
      'other lists',
      {
        ...HELD_NOTE,
        lists: [LISTS[1]!.path, LISTS[2]!.path].map((p) => notedListToken('pi_left', p)),
      },
    ],
    [
      "its lists' tokens for another payment",
      {
        ...HELD_NOTE,
        lists: [LISTS[0]!.path, LISTS[1]!.path].map((p) => notedListToken('pi_x', p)),
      },
    ],
    ['fewer places than chosen', { ...HELD_NOTE, places: 39 }],
    ['a note of an earlier version (no archive)', NOTED],
  ])('is not offered for %s: a new intent is made', async (_, note) => {
    const status = countedStatus(() => HELD_OPEN);
    const { store, effects, intents } = heldSetup(
      {
        paymentStatus: status.paymentStatus,
      },
      note,
    );
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({
      status: 'paying',
      authorization: { kind: 'card', paymentIntentId: 'pi_new' },
    });
    expect(intents).toEqual([4_000 / 10]);
    expect(status.asked).toBe(0);
  });

  it.each([
    ['settled already', async () => CAPTURED],
    ['holding fewer places than chosen', async () => ({ ...HELD_OPEN, placesAuthorized: 39 })],
    ['unknown to the API now', () => Promise.reject(notFound())],
    ['not asked: the API cannot be reached', () => Promise.reject(networkError())],
  ])('is not offered when the API says it is %s', async (_, paymentStatus) => {
    const { store, effects, intents } = heldSetup({ paymentStatus });
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({ authorization: { kind: 'card' } });
    expect(intents).toHaveLength(1);
  });

  it('found settled when the selection proceeds, is shown settled on the last-visit card too', async () => {
    let status: PaymentStatus = { ...HELD_OPEN, reference: 'pi_left' };
    const { store, effects } = heldSetup({ paymentStatus: async () => status });
    await effects.recallLastPayment();
    expect(store.getState().lastVisit?.payment.status).toBe('open');
    status = { ...CAPTURED, reference: 'pi_left' };
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({ authorization: { kind: 'card' } });
    expect(store.getState().lastVisit?.payment).toEqual(status);
  });

  it('is not offered while another tab uses it (its lock is held), nor asked about', async () => {
    const status = countedStatus(() => HELD_OPEN);
    const { store, effects, intents } = heldSetup(
      {
        paymentStatus: status.paymentStatus,
      },
      HELD_NOTE,
      fakeLocks([paymentLockName('pi_left')]),
    );
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({ authorization: { kind: 'card' } });
    expect(intents).toHaveLength(1);
    expect(status.asked).toBe(0);
    // That tab is converting these lists with its payment: the new one is said to pay again.
    expect(store.getState().state).toMatchObject({ authorization: { anotherTab: true } });
  });

  it('another tab converting only some of the chosen lists is said too; one converting other lists, or another archive, is not', async () => {
    const busy = () => fakeLocks([paymentLockName('pi_left')]);
    const anotherTabOf = (store: ReturnType<typeof heldSetup>['store']) => {
      const state = store.getState().state;
      return state.status === 'paying' && state.authorization.kind === 'card'
        ? (state.authorization.anotherTab ?? false)
        : 'no card';
    };
    // The fixture selects LISTS[0]; the other tab's note holds it beside another list, or not.
    const some = heldSetup({}, { ...HELD_NOTE, lists: [LISTS[0]!.path] }, busy());
    await some.effects.proceedToPayment();
    expect(anotherTabOf(some.store)).toBe(true);

    const other = heldSetup({}, { ...HELD_NOTE, lists: [LISTS[1]!.path] }, busy());
    await other.effects.proceedToPayment();
    expect(anotherTabOf(other.store)).toBe(false);

    const archive = { ...HELD_NOTE, archive: { name: 'other.zip', size: ARCHIVE.file.size } };
    const elsewhere = heldSetup({}, archive, busy());
    await elsewhere.effects.proceedToPayment();
    expect(anotherTabOf(elsewhere.store)).toBe(false);

    // Its lock free, the payment is no other tab's: it is offered as a held payment instead.
    const free = heldSetup({ paymentStatus: async () => HELD_OPEN }, HELD_NOTE, fakeLocks());
    await free.effects.proceedToPayment();
    expect(free.store.getState().state).toMatchObject({ authorization: { kind: 'held' } });

    // Locks that cannot be asked about say nothing of another tab.
    const broken = fakeLocks();
    broken.held = () => Promise.reject(new Error('SecurityError'));
    const unknown = heldSetup({}, HELD_NOTE, broken);
    await unknown.effects.proceedToPayment();
    expect(anotherTabOf(unknown.store)).toBe(false);
  });

  it('settled between the offer and the click: set aside for a new intent, and the toast says why', async () => {
    let status: PaymentStatus = HELD_OPEN;
    const { store, effects, intents } = heldSetup({ paymentStatus: async () => status });
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({ authorization: HELD });
    status = CAPTURED;
    await effects.convertWithHeld();
    expect(store.getState().state).toMatchObject({
      status: 'paying',
      authorization: { kind: 'card', paymentIntentId: 'pi_new' },
    });
    expect(intents).toHaveLength(1);
    expect(store.getState().toasts[0]).toMatchObject({
      title: 'Held Payment Not Used',
      description: HELD_PAYMENT_SETTLED_TEXT,
    });
    // Not offered again in this page.
    store.getState().send({ type: 'selectionResumed' });
    status = HELD_OPEN;
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({ authorization: { kind: 'card' } });
  });

  it('taken up by another tab between the offer and the click: set aside, and the toast says so', async () => {
    const locks = fakeLocks();
    const { store, effects } = heldSetup(
      { paymentStatus: async () => HELD_OPEN },
      HELD_NOTE,
      locks,
    );
    await effects.proceedToPayment();
    locks.take(paymentLockName('pi_left'));
    await effects.convertWithHeld();
    expect(store.getState().state).toMatchObject({ authorization: { kind: 'card' } });
    expect(store.getState().toasts[0]?.description).toBe(HELD_PAYMENT_IN_USE_TEXT);
  });

  it('when the check gets no answer, the offer stays and the toast says to try again', async () => {
    let answer: () => Promise<PaymentStatus> = async () => HELD_OPEN;
    const { store, effects, intents } = heldSetup({ paymentStatus: () => answer() });
    await effects.proceedToPayment();
    answer = () => Promise.reject(networkError());
    await effects.convertWithHeld();
    expect(store.getState().state).toMatchObject({ status: 'paying', authorization: HELD });
    expect(store.getState().toasts[0]?.description).toBe(HELD_PAYMENT_UNCHECKED_TEXT);
    expect(intents).toEqual([]);
  });

  it('"Use a New Card Instead" leaves it as it is and makes a new intent; it is not offered again here', async () => {
    const status = countedStatus(() => HELD_OPEN);
    const { store, effects, intents, notes } = heldSetup({
      paymentStatus: status.paymentStatus,
    });
    await effects.proceedToPayment();
    await effects.useNewCard();
    expect(store.getState().state).toMatchObject({
      status: 'paying',
      authorization: { kind: 'card', paymentIntentId: 'pi_new' },
    });
    expect(intents).toHaveLength(1);
    expect(notes.items.has(LEFT_KEY)).toBe(true);
    store.getState().send({ type: 'selectionResumed' });
    await effects.proceedToPayment();
    expect(status.asked).toBe(1);
    expect(intents).toHaveLength(2);
  });

  it('a run of its own in this page is never offered its payment again', async () => {
    const notes = memoryNotes();
    const { store, effects } = setup(
      {
        getConfig: async () => DEFAULT_CONFIG,
        createPaymentIntent: async () => NEW_INTENT,
        capturePayment: () => Promise.reject(refusedBy(503, 'payment_provider_unavailable')),
        paymentStatus: async (id) => ({ ...OPEN, reference: id }),
      },
      notes,
      null,
      STATES.paying,
    );
    await effects.authorize(async () => ({ ok: true }));
    // Its capture failed: the note stays, open, for these lists of this archive.
    expect(recallPayment(notes, 'pi_123', NOW)).toMatchObject(PAID_FOR);
    // The same list chosen again: its note fits it, yet it is this page's own payment.
    effects.convertMore(true);
    store.getState().send({ type: 'allListsDeselected' });
    store.getState().send({ type: 'listToggled', path: LISTS[0]!.path });
    expect(store.getState().state).toMatchObject({
      status: 'selecting',
      selected: ARCHIVE.selected,
    });
    await effects.proceedToPayment();
    expect(store.getState().state).toMatchObject({
      status: 'paying',
      authorization: { kind: 'card', paymentIntentId: 'pi_new' },
    });
  });
});

describe('notedForList', () => {
  it("knows a list by its token for the note's payment, or by the path an earlier page kept", () => {
    const path = 'Takeout/Saved/Clinics.csv';
    const token = notedListToken('pi_left', path);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(notedListToken('pi_left', path)).toBe(token);
    expect(notedListToken('pi_other', path)).not.toBe(token);
    expect(notedForList({ ...NOTED, lists: [token] }, path)).toBe(true);
    expect(notedForList({ ...NOTED, lists: [path] }, path)).toBe(true);
    expect(notedForList({ ...NOTED, lists: [token] }, 'Takeout/Saved/Other.csv')).toBe(false);
    expect(notedForList({ ...NOTED, lists: [notedListToken('pi_x', path)] }, path)).toBe(false);
    expect(notedForList(NOTED, path)).toBe(false);
  });
});
