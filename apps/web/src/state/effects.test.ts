// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../api/client';
import { DEFAULT_CONFIG } from '../api/config';
import { type FakeApi, startFakeApi } from '../test/fake-api';
import { fakeConverter, LISTS } from '../test/fixtures';
import { type Converter, WORKER_CRASHED, WORKER_TERMINATED } from '../worker/converter';
import type {
  ConversionProgress,
  ConversionSummary,
  ListOutcome,
  OutputFormat,
} from '../worker/types';
import { createEffects, type EffectsDeps, type ObjectUrls } from './effects';
import { MESSAGES, releaseFailedMessage } from './messages';
import { createAppStore } from './store';
import type { AppState, Status } from './types';

const ZIP = new File([new Uint8Array([80, 75, 5, 6])], 'takeout.zip', { type: 'application/zip' });
const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

function outcome(path: string, converted: number, total: number): ListOutcome {
  const fileName = path.slice(path.lastIndexOf('/') + 1);
  const listName = fileName.replace(/\.csv$/i, '');
  return {
    path,
    fileName,
    name: listName,
    outputName: listName,
    stats: {
      totalPlaces: total,
      converted,
      skipped: total - converted,
      unplaced: total > converted ? { not_found: total - converted } : {},
    },
    files:
      converted > 0
        ? [
            {
              fileName: `${listName}.kml`,
              mimeType: 'application/vnd.google-earth.kml+xml',
              format: 'kml',
              bytes: bytes('<kml/>'),
              placemarks: converted,
              part: 1,
              parts: 1,
            },
          ]
        : [],
    ...(total > converted
      ? {
          failedCsv: {
            fileName: `${listName} - failed places.csv`,
            mimeType: 'text/csv;charset=utf-8',
            bytes: bytes('Title,Note,URL,Comment\n'),
            count: total - converted,
          },
        }
      : {}),
    resolvedCount: 0,
  };
}

function summary(...lists: ListOutcome[]): ConversionSummary {
  const totals = lists.reduce(
    (sum, list) => ({
      total: sum.total + list.stats.totalPlaces,
      converted: sum.converted + list.stats.converted,
      skipped: sum.skipped + list.stats.skipped,
    }),
    { total: 0, converted: 0, skipped: 0 },
  );
  return { lists, totals };
}

/**
 * The API answers the capture of the first list's $4.00 hold with this charge, whatever the page
 * claimed (nothing charged: the authorization cancelled); the page must show what it answered.
 */
function captureAnswers(capturedCents: number): void {
  api.options.capture = {
    cancelled: capturedCents === 0,
    amountAuthorized: 4,
    amountCaptured: capturedCents / 100,
    amountReleased: (400 - capturedCents) / 100,
  };
}

/** The receipt the page keeps for {@link captureAnswers}' answer. */
function receiptOf(capturedCents: number, reference: string) {
  return {
    kind: 'settled',
    cancelled: capturedCents === 0,
    amountAuthorizedCents: 400,
    amountCapturedCents: capturedCents,
    amountReleasedCents: 400 - capturedCents,
    reference,
    settledAt: NOW,
  };
}

let api: FakeApi;
/** The clock the effects read when a capture answers: the receipt's date. */
const NOW = Date.UTC(2026, 0, 15, 13, 5);
/** Waiting for what the page does next: bounded only to end a hang, never a measure of speed. */
const WAIT = { timeout: 60_000, interval: 5 };

beforeAll(async () => {
  api = await startFakeApi();
});

afterAll(async () => {
  await api.close();
});

beforeEach(() => {
  api.options = {};
  api.requests.length = 0;
});

/** `blobsBeforeFailure`: how many Blob URLs can be made before making one throws (no limit). */
function setup(
  converter: Converter = fakeConverter(),
  blobsBeforeFailure = Infinity,
  deps: Pick<EffectsDeps, 'now' | 'etaStaleMs' | 'connectivity'> = {},
) {
  const store = createAppStore();
  const created: string[] = [];
  const revoked: string[] = [];
  const urls: ObjectUrls = {
    create: () => {
      if (created.length >= blobsBeforeFailure) throw new Error('Out of memory');
      const url = `blob:test/${created.length + 1}`;
      created.push(url);
      return url;
    },
    revoke: (url) => revoked.push(url),
  };
  const statuses: Status[] = [];
  store.subscribe((next, previous) => {
    if (next.state.status !== previous.state.status) statuses.push(next.state.status);
  });
  const effects = createEffects({
    store,
    converter,
    api: createApi(api.url),
    apiBase: api.url,
    urls,
    now: () => NOW,
    ...deps,
  });
  const state = () => store.getState().state;
  return { store, effects, state, created, revoked, statuses };
}

function calls(path: string) {
  return api.requests.filter((request) => request.path === path);
}

/** A file chosen and read, with only the first list (40 places, $4.00) chosen. */
async function selectFirstList(context: ReturnType<typeof setup>) {
  await context.effects.chooseFile(ZIP);
  context.store.getState().send({ type: 'allListsDeselected' });
  context.store.getState().send({ type: 'listToggled', path: LISTS[0]!.path });
}

/** A file chosen and read, its 3-place list (free) alone chosen and converted. */
async function convertFreeList(context: ReturnType<typeof setup>) {
  await context.effects.chooseFile(ZIP);
  context.store.getState().send({ type: 'allListsDeselected' });
  context.store.getState().send({ type: 'listToggled', path: LISTS[2]!.path });
  await context.effects.proceedToPayment();
  await context.effects.convertFree();
}

describe('choosing a file', () => {
  it('never hands a file that is not a .zip to the worker', async () => {
    const converter = fakeConverter();
    const { effects, state } = setup(converter);
    await effects.chooseFile(new File(['x'], 'places.csv'));
    expect(converter.calls).toEqual([]);
    expect(state()).toEqual({
      status: 'empty',
      error: MESSAGES.notAZip,
      refusedFileName: 'places.csv',
    });
  });

  it('hands the file to the worker and opens the selection with its lists', async () => {
    const converter = fakeConverter();
    const { effects, state } = setup(converter);
    await effects.chooseFile(ZIP);
    expect(converter.calls).toEqual(['inspect:takeout.zip']);
    expect(state()).toMatchObject({ status: 'selecting', file: { name: 'takeout.zip', size: 4 } });
  });

  it("shows the worker's message when the archive is refused, or the seed's default", async () => {
    const refusing = setup(
      fakeConverter({
        inspect: async () => ({ ok: false, error: { code: 'no-csv', message: MESSAGES.noCsv } }),
      }),
    );
    await refusing.effects.chooseFile(ZIP);
    expect(refusing.state()).toMatchObject({ status: 'empty', error: MESSAGES.noCsv });

    const crashing = setup(fakeConverter({ inspect: () => Promise.reject(new Error()) }));
    await crashing.effects.chooseFile(ZIP);
    expect(crashing.state()).toMatchObject({ status: 'empty', error: MESSAGES.extractFailed });
  });
});

describe('proceeding to payment', () => {
  it('loads the config if needed, then creates an intent for the maximum charge', async () => {
    const context = setup();
    await selectFirstList(context);
    await context.effects.proceedToPayment();
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/config',
      'POST /api/create-payment-intent',
    ]);
    expect(calls('/api/create-payment-intent')[0]!.body).toEqual({ amount: 4 });
    expect(context.state()).toMatchObject({
      status: 'paying',
      authorization: { kind: 'card', paymentIntentId: 'pi_fake_1' },
    });
  });

  it('returns to the selection with the seed message and a Payment Error toast on failure', async () => {
    api.options.failIntent = true;
    const context = setup();
    await selectFirstList(context);
    await context.effects.proceedToPayment();
    expect(context.state()).toMatchObject({ status: 'selecting', error: MESSAGES.intentFailed });
    expect(context.store.getState().toasts).toMatchObject([
      { title: 'Payment Error', description: MESSAGES.intentFailed, variant: 'destructive' },
    ]);
  });

  it('names the cause of a refusal the API explained, without "try again" when it cannot work', async () => {
    api.options.refuse = {
      '/api/create-payment-intent': {
        status: 400,
        code: 'demo_limit',
        message: 'Demo payments on this server cover at most 1,000 places; choose fewer lists.',
        limit: 1000,
      },
    };
    const context = setup();
    await selectFirstList(context);
    await context.effects.proceedToPayment();
    const sentence =
      'Demo payments on this server cover at most 1,000 places, and this selection has 40 places. Choose fewer lists, then Proceed to Payment (you can convert the others in another run).';
    expect(context.state()).toMatchObject({ status: 'selecting', error: sentence });
    expect(context.store.getState().toasts).toMatchObject([
      { title: 'Payment Error', description: sentence, variant: 'destructive' },
    ]);
  });

  it('asks the API nothing for a free selection (under $0.50)', async () => {
    const context = setup();
    await context.effects.chooseFile(ZIP);
    context.store.getState().send({ type: 'allListsDeselected' });
    context.store.getState().send({ type: 'listToggled', path: LISTS[2]!.path });
    await context.effects.proceedToPayment();
    expect(api.requests).toEqual([]);
    expect(context.state()).toMatchObject({ status: 'paying', authorization: { kind: 'free' } });
  });
});

describe('authorizing and converting', () => {
  async function paying(converter: Converter) {
    const context = setup(converter);
    context.store.getState().configLoaded(DEFAULT_CONFIG);
    await selectFirstList(context);
    await context.effects.proceedToPayment();
    const state = context.state();
    if (state.status !== 'paying' || state.authorization.kind !== 'card')
      throw new Error(state.status);
    return { ...context, intentId: state.authorization.paymentIntentId };
  }

  /** Pays for the chosen list with the demo card, then lets the run go to its end. */
  async function paidRun(converter: Converter) {
    const context = await paying(converter);
    await context.effects.authorizeDemo();
    return context;
  }

  /** The body of the page's one capture request: what it claims was converted. */
  const captureClaim = () => calls('/api/capture-payment')[0]!.body;

  it('runs the whole paid flow: authorize, convert with resolution, capture the real amount', async () => {
    let options: unknown;
    const converter = fakeConverter({
      convert: async (opts, onProgress) => {
        options = opts;
        onProgress({
          stage: 'extracting',
          fileIndex: 0,
          fileCount: 1,
          fileName: 'Want to go.csv',
          percent: 25,
        });
        onProgress({
          stage: 'converting',
          fileIndex: 0,
          fileCount: 1,
          fileName: 'Want to go.csv',
          percent: 75,
        });
        return { ok: true, value: summary(outcome(LISTS[0]!.path, 37, 40)) };
      },
    });
    // The server found 39 of the places itself: its charge, not the page's claim, is the receipt.
    captureAnswers(390);
    const context = await paidRun(converter);

    expect(options).toEqual({
      paths: [LISTS[0]!.path],
      resolve: { apiBase: api.url, paymentIntentId: context.intentId },
    });
    expect(context.statuses).toEqual([
      'inspecting',
      'selecting',
      'awaitingIntent',
      'paying',
      'authorizing',
      'validating',
      'extracting',
      'converting',
      'preparing',
      'complete',
    ]);
    expect(calls('/api/demo/authorize')[0]!.body).toEqual({ paymentIntentId: context.intentId });
    expect(captureClaim()).toEqual({
      paymentIntentId: context.intentId,
      actualAmount: 3.7,
      convertedCount: 37,
      totalCount: 40,
    });
    const done = context.state() as Extract<AppState, { status: 'complete' }>;
    expect(done.capture).toEqual(receiptOf(390, context.intentId));
    expect(done.results[0]).toMatchObject({
      outputName: 'Want to go',
      counts: { total: 40, converted: 37, skipped: 3 },
      files: [{ fileName: 'Want to go.kml', url: 'blob:test/1', format: 'kml', part: 1, parts: 1 }],
      failed: { fileName: 'Want to go - failed places.csv', url: 'blob:test/2', count: 3 },
    });
    expect(context.store.getState().toasts[0]).toMatchObject({
      title: 'Payment Authorized',
      description: MESSAGES.authorized,
    });
  });

  it('gives the page the thread back while it turns many files into Blob URLs', async () => {
    let tick = 0;
    // Each clock reading is 8 ms later: the Blob work soon outlasts its budget.
    vi.spyOn(performance, 'now').mockImplementation(() => (tick += 8));
    let createdWhenPageRan = -1;
    const converter = fakeConverter({
      convert: async () => {
        setTimeout(() => {
          createdWhenPageRan = context.created.length;
        }, 0);
        return {
          ok: true,
          value: summary(...LISTS.map((list) => outcome(list.path, 10, 12))),
        };
      },
    });
    // Two steps: the converter above reads `context` while the run is still going.
    const context = await paying(converter);
    await context.effects.authorizeDemo();

    expect(context.created).toHaveLength(LISTS.length * 2);
    expect(createdWhenPageRan).toBeGreaterThan(0);
    expect(createdWhenPageRan).toBeLessThan(context.created.length);
    expect(context.state()).toMatchObject({ status: 'complete' });
  });

  it('claims nothing when nothing converted, and keeps the release the API answered', async () => {
    captureAnswers(0);
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(LISTS[0]!.path, 0, 40)) }),
    });
    const context = await paidRun(converter);
    expect(captureClaim()).toMatchObject({
      actualAmount: 0,
      convertedCount: 0,
    });
    expect(context.state()).toMatchObject({
      status: 'complete',
      capture: receiptOf(0, context.intentId),
    });
  });

  it('keeps the downloads and warns, quoting the reference, when the capture fails', async () => {
    api.options.failCapture = true;
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(LISTS[0]!.path, 40, 40)) }),
    });
    const context = await paidRun(converter);
    const message = `${MESSAGES.captureFailed} Reference: ${context.intentId}`;
    expect(context.state()).toMatchObject({
      status: 'complete',
      capture: { kind: 'failed', message },
      results: [{ files: [{ url: 'blob:test/1' }] }],
    });
    expect(context.store.getState().toasts[0]).toMatchObject({
      title: 'Payment Capture Failed',
      description: message,
      variant: 'destructive',
    });
  });

  it('says what became of the hold when Stripe could not be reached for the capture', async () => {
    api.options.refuse = {
      '/api/capture-payment': {
        status: 503,
        code: 'payment_provider_unavailable',
        message: 'The payment provider could not be reached. Please try again in a moment.',
        retryAfter: 10,
      },
    };
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(LISTS[0]!.path, 40, 40)) }),
    });
    const context = await paidRun(converter);
    const message = `Stripe could not be reached to settle your payment, so your card still holds the authorization. The server settles it by itself within 30 minutes, charging only for the places it looked up; nothing more is needed from you. Reference: ${context.intentId}`;
    expect(context.state()).toMatchObject({ capture: { kind: 'failed', message } });
    expect(context.store.getState().toasts[0]).toMatchObject({ description: message });
  });

  it('says why the demo authorization was refused, and converts nothing', async () => {
    const converter = fakeConverter();
    const context = await paying(converter);
    api.options.refuse = {
      '/api/demo/authorize': {
        status: 404,
        code: 'payment_not_found',
        message: 'No payment with this id was found.',
      },
    };
    await context.effects.authorizeDemo();
    expect(context.state().status).toBe('paying');
    expect(context.store.getState().toasts[0]).toMatchObject({
      title: 'Payment Failed',
      description:
        'The server no longer knows this payment (it may have restarted), so it cannot be authorized; nothing was charged. Go Back to Selection and choose Proceed to Payment again.',
    });
    expect(converter.calls.filter((call) => call.startsWith('convert'))).toEqual([]);
  });

  it("keeps the API's refusals of the run's lookups for the results", async () => {
    const refusal = {
      status: 402,
      code: 'free_budget_used',
      message: 'The 20 free lookups of today are used (0 left). A payment covers more.',
      retryAfterSeconds: null,
    };
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(LISTS[0]!.path, 37, 40)) }),
      lookupRefusals: async () => [refusal],
    });
    const context = await paidRun(converter);
    expect(context.state()).toMatchObject({ status: 'complete', refusals: [refusal] });
  });

  it('Cancel: the worker stops, the lists done are the results, and what converted is captured', async () => {
    captureAnswers(120);
    let stopped!: () => void;
    const stop = new Promise<void>((resolve) => (stopped = resolve));
    const converter = fakeConverter({
      convert: async () => {
        await stop;
        return { ok: true, value: summary(outcome(LISTS[0]!.path, 12, 40)) };
      },
      cancel: async () => {
        converter.calls.push('cancel');
        stopped();
      },
    });
    const context = await paying(converter);
    const run = context.effects.authorizeDemo();
    await vi.waitFor(() => expect(context.state().status).toBe('validating'));
    await context.effects.cancel();
    await run;
    expect(converter.calls).toContain('cancel');
    expect(converter.calls).not.toContain('terminate');
    expect(context.state()).toMatchObject({
      status: 'complete',
      stopped: true,
      results: [{ counts: { converted: 12, total: 40 } }],
      capture: receiptOf(120, context.intentId),
    });
    expect(captureClaim()).toMatchObject({
      convertedCount: 12,
      actualAmount: 1.2,
    });
  });

  it('Cancel: a worker that cannot be asked is ended; the run is cancelled and the hold released', async () => {
    captureAnswers(0);
    let ended!: (error: Error) => void;
    const converter = fakeConverter({
      convert: () =>
        new Promise((_, reject) => {
          ended = reject;
        }),
      cancel: () => Promise.reject(new Error('The worker is not answering')),
      terminate: () => {
        converter.calls.push('terminate');
        ended(new Error(WORKER_TERMINATED));
      },
    });
    const context = await paying(converter);
    const run = context.effects.authorizeDemo();
    await vi.waitFor(() => expect(context.state().status).toBe('validating'));
    await context.effects.cancel();
    await run;
    expect(converter.calls).toContain('terminate');
    expect(context.state()).toMatchObject({
      status: 'failed',
      cancelled: true,
      error: MESSAGES.cancelled,
      capture: receiptOf(0, context.intentId),
    });
    expect(captureClaim()).toMatchObject({ convertedCount: 0 });
    expect(context.store.getState().toasts.map((toast) => toast.title)).not.toContain(
      'Conversion Failed',
    );
  });

  it('asks the API nothing when the page goes away during a paid run', async () => {
    let ended!: (error: Error) => void;
    const converter = fakeConverter({
      convert: () =>
        new Promise((_, reject) => {
          ended = reject;
        }),
      terminate: () => ended(new Error(WORKER_TERMINATED)),
    });
    const context = await paying(converter);
    const run = context.effects.authorizeDemo();
    await vi.waitFor(() => expect(context.state().status).toBe('validating'));
    context.effects.dispose();
    await run;
    expect(context.state().status).toBe('validating');
    expect(calls('/api/capture-payment')).toEqual([]);
  });

  it('Cancel does nothing outside a conversion', async () => {
    const converter = fakeConverter();
    const context = await paying(converter);
    await context.effects.cancel();
    expect(context.state().status).toBe('paying');
    expect(converter.calls).not.toContain('cancel');
    expect(converter.calls).not.toContain('terminate');
  });

  it('fails with the message and releases the hold: nothing looked up, nothing charged', async () => {
    captureAnswers(0);
    const converter = fakeConverter({
      convert: async () => ({ ok: false, error: { code: 'boom', message: 'Out of memory' } }),
    });
    const context = await paidRun(converter);
    expect(context.store.getState().toasts[0]).toMatchObject({
      title: 'Conversion Failed',
      description: 'Out of memory',
    });
    expect(captureClaim()).toEqual({
      paymentIntentId: context.intentId,
      actualAmount: 0,
      convertedCount: 0,
      totalCount: 40,
    });
    expect(context.state()).toMatchObject({
      status: 'failed',
      error: 'Out of memory',
      capture: receiptOf(0, context.intentId),
    });
  });

  it('a run that fails after the server looked up places keeps the charge the server made', async () => {
    // The server had found 8 places for the payment before the worker died: it charges them.
    captureAnswers(80);
    const converter = fakeConverter({ convert: () => Promise.reject(new Error(WORKER_CRASHED)) });
    const context = await paidRun(converter);
    // The page claims nothing converted, and shows what the server charged.
    expect(captureClaim()).toMatchObject({
      actualAmount: 0,
      convertedCount: 0,
    });
    expect(context.state()).toMatchObject({
      status: 'failed',
      error: WORKER_CRASHED,
      capture: receiptOf(80, context.intentId),
    });
  });

  it('says the hold could not be released, quoting the reference, when the release fails', async () => {
    api.options.failCapture = true;
    const converter = fakeConverter({ convert: () => Promise.reject(new Error('Worker gone')) });
    const context = await paidRun(converter);
    expect(calls('/api/capture-payment')).toHaveLength(1);
    expect(context.state()).toMatchObject({
      status: 'failed',
      error: 'Worker gone',
      capture: { kind: 'failed', message: releaseFailedMessage(context.intentId) },
    });
    expect(releaseFailedMessage(context.intentId)).toContain(`Reference: ${context.intentId}`);
    // The failure's own toast stays; the warning is in the failed card.
    expect(context.store.getState().toasts).toMatchObject([{ title: 'Conversion Failed' }]);
  });

  it('fails the run when its files cannot be turned into downloads, revoking those made', async () => {
    captureAnswers(0);
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(LISTS[0]!.path, 30, 40)) }),
    });
    const context = setup(converter, 1);
    context.store.getState().configLoaded(DEFAULT_CONFIG);
    await selectFirstList(context);
    await context.effects.proceedToPayment();
    await context.effects.authorizeDemo();
    expect(context.revoked).toEqual(context.created);
    expect(context.created).toHaveLength(1);
    const capture = calls('/api/capture-payment')[0]!.body as { paymentIntentId: string };
    expect(capture).toMatchObject({ actualAmount: 0, convertedCount: 0 });
    expect(context.state()).toMatchObject({
      status: 'failed',
      error: 'Out of memory',
      capture: receiptOf(0, capture.paymentIntentId),
    });
  });

  it('a failed free run asks the API nothing', async () => {
    const converter = fakeConverter({ convert: () => Promise.reject(new Error('Worker gone')) });
    const context = setup(converter);
    await convertFreeList(context);
    expect(api.requests).toEqual([]);
    expect(context.state()).toMatchObject({ status: 'failed', capture: { kind: 'notNeeded' } });
  });

  it('re-enables the button with a Payment Failed toast when the card is declined', async () => {
    const converter = fakeConverter();
    const context = await paying(converter);
    await context.effects.authorize(async () => ({
      ok: false,
      message: 'Your card was declined.',
    }));
    expect(context.state().status).toBe('paying');
    expect(context.store.getState().toasts).toMatchObject([
      { title: 'Payment Failed', description: 'Your card was declined.', variant: 'destructive' },
    ]);
    expect(converter.calls.filter((call) => call.startsWith('convert'))).toEqual([]);
  });

  it("shows a Payment Error toast with the error's message, or the seed's default", async () => {
    const context = await paying(fakeConverter());
    await context.effects.authorize(() => Promise.reject(new Error('Network down')));
    expect(context.store.getState().toasts[0]).toMatchObject({
      title: 'Payment Error',
      description: 'Network down',
    });
    await context.effects.authorize(() => Promise.reject(new Error('')));
    expect(context.store.getState().toasts[0]).toMatchObject({ description: MESSAGES.unexpected });
    expect(context.state().status).toBe('paying');
  });

  it('drops the lookups estimate once answers stop coming, and a report of the same count does not bring it back', async () => {
    let clock = NOW;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const shown = (done: number, state: AppState) =>
      'progress' in state && state.progress.lookups?.done === done ? state.progress : null;
    // The run's page, once set up: the worker's fake waits for what it shows.
    const page: { state?: () => AppState } = {};
    let progressOf: (progress: ConversionProgress) => void = () => {};
    const report = (onProgress: (progress: ConversionProgress) => void, done: number) =>
      onProgress({
        stage: 'extracting',
        fileIndex: 0,
        fileCount: 1,
        fileName: 'Favourites.csv',
        percent: 50,
        lookups: { done, total: 40 },
      });
    const converter = fakeConverter({
      convert: async (_opts, onProgress) => {
        progressOf = onProgress;
        report(onProgress, 10);
        await vi.waitFor(() => expect(shown(10, page.state!())).not.toBeNull(), WAIT);
        clock += 10_000;
        // 20 answered in 10 s, 20 left: about 20 s.
        report(onProgress, 20);
        await released;
        return { ok: true, value: summary(outcome(LISTS[2]!.path, 3, 3)) };
      },
    });
    const context = setup(converter, Infinity, { now: () => clock, etaStaleMs: 50 });
    page.state = context.state;
    const run = convertFreeList(context);
    await vi.waitFor(() => expect(shown(20, context.state())?.secondsLeft).toBe(20), WAIT);
    // No answer for etaStaleMs: the estimate goes, the count stays.
    await vi.waitFor(() => expect(shown(20, context.state())?.secondsLeft).toBeNull(), WAIT);
    clock += 1_000;
    report(progressOf, 20);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shown(20, context.state())?.secondsLeft).toBeNull();
    release();
    await run;
    expect(context.state().status).toBe('complete');
  });

  it('tells the worker when the device comes back online during the lookups, and only then', async () => {
    const device = new EventTarget();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let converting = false;
    const converter = fakeConverter({
      convert: async () => {
        converting = true;
        await released;
        return { ok: true, value: summary(outcome(LISTS[2]!.path, 3, 3)) };
      },
    });
    const context = setup(converter, Infinity, { connectivity: device });
    device.dispatchEvent(new Event('online'));
    const run = convertFreeList(context);
    await vi.waitFor(() => expect(converting).toBe(true), WAIT);
    device.dispatchEvent(new Event('online'));
    release();
    await run;
    device.dispatchEvent(new Event('online'));
    // Once, while the run was looking places up: neither before it nor after it.
    expect(converter.calls.filter((call) => call === 'deviceOnline')).toHaveLength(1);
  });

  it('converts a free selection without payment calls and without capture', async () => {
    let options: unknown;
    const converter = fakeConverter({
      convert: async (opts) => {
        options = opts;
        return { ok: true, value: summary(outcome(LISTS[2]!.path, 3, 3)) };
      },
    });
    const context = setup(converter);
    await convertFreeList(context);
    expect(options).toEqual({ paths: [LISTS[2]!.path], resolve: { apiBase: api.url } });
    expect(api.requests).toEqual([]);
    expect(context.state()).toMatchObject({ status: 'complete', capture: { kind: 'notNeeded' } });
  });
});

describe('format choices', () => {
  const PATH = LISTS[2]!.path;

  /**
   * A free run of one list, then a worker whose `files` answers only when the test says: each
   * call as it was asked, with one file of its format, or with a failure.
   */
  async function heldFileWrites() {
    const asked: { format: OutputFormat; answer: (ok?: boolean) => void }[] = [];
    let onCall = () => undefined as void;
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(PATH, 3, 3)) }),
      files: (format) =>
        new Promise((resolve) => {
          asked.push({
            format,
            answer: (ok = true) =>
              resolve(
                ok
                  ? {
                      ok: true,
                      value: {
                        lists: {
                          [PATH]: [
                            {
                              fileName: `Starred places.${format}`,
                              mimeType: 'application/octet-stream',
                              format,
                              bytes: bytes(format),
                              placemarks: 3,
                              part: 1,
                              parts: 1,
                            },
                          ],
                        },
                      },
                    }
                  : { ok: false, error: { code: 'internal', message: 'Out of memory' } },
              ),
          });
          onCall();
        }),
    });
    const context = setup(converter);
    await convertFreeList(context);
    /** Resolves once the worker was asked for files `count` times in all. */
    const untilAsked = (count: number) =>
      new Promise<void>((resolve) => {
        onCall = () => {
          if (asked.length >= count) resolve();
        };
        onCall();
      });
    const files = () => {
      const state = context.state();
      return state.status === 'complete' ? state.results.flatMap((result) => result.files) : [];
    };
    return { ...context, asked, untilAsked, files };
  }

  it('writes one format at a time; of the formats chosen meanwhile, only the last', async () => {
    const context = await heldFileWrites();
    const [kml] = context.files();
    const choices = [
      context.effects.chooseFormat('kmz'),
      context.effects.chooseFormat('gpx'),
      context.effects.chooseFormat('geojson'),
    ];
    expect(context.asked.map((ask) => ask.format)).toEqual(['kmz']);
    expect(context.state()).toMatchObject({ format: 'kml', formatPending: 'geojson' });
    context.asked[0]!.answer();
    await context.untilAsked(2);
    // The KMZ files came too late: never offered, their URLs revoked, the KML files kept.
    expect(context.asked.map((ask) => ask.format)).toEqual(['kmz', 'geojson']);
    expect(context.files()).toEqual([kml]);
    const kmzUrl = context.created.at(-1)!;
    expect(context.revoked).toEqual([kmzUrl]);
    context.asked[1]!.answer();
    await Promise.all(choices);
    expect(context.state()).toMatchObject({ format: 'geojson', formatPending: null });
    expect(context.files().map((file) => [file.format, file.fileName])).toEqual([
      ['geojson', 'Starred places.geojson'],
    ]);
    expect(context.revoked).toEqual([kmzUrl, kml!.url]);
    expect(context.asked).toHaveLength(2);
  });

  it('never offers a run the files written for the run before it, in the format it chose too', async () => {
    const context = await heldFileWrites();
    const earlier = context.effects.chooseFormat('gpx');
    // "Convert more lists" and the same list again, while the earlier run's GPX files are written.
    context.effects.convertMore(true);
    context.store.getState().send({ type: 'allListsDeselected' });
    context.store.getState().send({ type: 'listToggled', path: PATH });
    await context.effects.proceedToPayment();
    await context.effects.convertFree();
    const [kml] = context.files();
    const later = context.effects.chooseFormat('gpx');
    context.asked[0]!.answer();
    // The earlier run's files are dropped, and the new run's asked for (or else the writes end).
    await Promise.race([context.untilAsked(2), earlier]);
    expect(context.asked).toHaveLength(2);
    expect(context.files()).toEqual([kml]);
    context.asked[1]!.answer();
    await Promise.all([earlier, later]);
    expect(context.asked.map((ask) => ask.format)).toEqual(['gpx', 'gpx']);
    expect(context.state()).toMatchObject({ format: 'gpx', formatPending: null });
    expect(context.files().map((file) => file.url)).toEqual([context.created.at(-1)]);
  });

  it('going back to the format offered writes nothing, and a dropped format fails silently', async () => {
    const context = await heldFileWrites();
    const [kml] = context.files();
    const choices = [context.effects.chooseFormat('gpx'), context.effects.chooseFormat('kml')];
    expect(context.state()).toMatchObject({ format: 'kml', formatPending: null });
    expect(context.asked.map((ask) => ask.format)).toEqual(['gpx']);
    context.asked[0]!.answer(false);
    await Promise.all(choices);
    expect(context.asked).toHaveLength(1);
    expect(context.files()).toEqual([kml]);
    expect(context.store.getState().toasts).toEqual([]);
    // The format last chosen failing is said.
    const geojson = context.effects.chooseFormat('geojson');
    context.asked[1]!.answer(false);
    await geojson;
    expect(context.state()).toMatchObject({ format: 'kml', formatPending: null });
    expect(context.store.getState().toasts).toMatchObject([
      { title: 'Files Not Written', description: 'Out of memory' },
    ]);
  });
});

describe('Download all', () => {
  const PATH = LISTS[2]!.path;

  /** A free run of one list, then a worker whose `zipAll` fails when the test says. */
  async function heldZip() {
    let fail!: (message: string) => void;
    const converter = fakeConverter({
      convert: async () => ({ ok: true, value: summary(outcome(PATH, 3, 3)) }),
      zipAll: () =>
        new Promise((resolve) => {
          fail = (message) => resolve({ ok: false, error: { code: 'superseded', message } });
        }),
    });
    const context = setup(converter);
    await convertFreeList(context);
    return { ...context, fail: (message: string) => fail(message) };
  }

  it('says a ZIP failed while the results wait for it', async () => {
    const context = await heldZip();
    const building = context.effects.downloadAll();
    expect(context.state()).toMatchObject({ zip: { kind: 'building' } });
    context.fail('Out of memory');
    await building;
    expect(context.state()).toMatchObject({ zip: { kind: 'failed', message: 'Out of memory' } });
    expect(context.store.getState().toasts).toMatchObject([
      { title: 'ZIP Not Written', description: 'Out of memory' },
    ]);
  });

  it('says nothing of a ZIP that failed after the run was left for another', async () => {
    const context = await heldZip();
    const building = context.effects.downloadAll();
    // "Convert more lists" while the ZIP is made: the worker then answers that it was replaced.
    context.effects.convertMore(true);
    context.fail('Another conversion replaced this one meanwhile.');
    await building;
    expect(context.state().status).toBe('selecting');
    expect(context.store.getState().toasts).toEqual([]);
  });
});

describe('Remove', () => {
  it('revokes every download URL and makes the worker forget the archive', async () => {
    const converter = fakeConverter({
      convert: async () => ({
        ok: true,
        value: summary(outcome(LISTS[0]!.path, 30, 40), outcome(LISTS[1]!.path, 25, 25)),
      }),
    });
    const context = setup(converter);
    context.store.getState().configLoaded(DEFAULT_CONFIG);
    await context.effects.chooseFile(ZIP);
    await context.effects.proceedToPayment();
    await context.effects.authorizeDemo();
    expect(context.created).toHaveLength(3);
    // Nothing was downloaded: Remove asks first, and keeps everything while it asks.
    await context.effects.remove();
    expect(context.state()).toMatchObject({ status: 'complete', confirming: 'remove' });
    await context.effects.remove();
    expect(context.state()).toMatchObject({ status: 'complete', confirming: 'remove' });
    expect(context.revoked).toEqual([]);
    await context.effects.remove(true);
    expect(context.revoked).toEqual(context.created);
    expect(converter.calls.at(-1)).toBe('reset');
    expect(context.state()).toEqual({ status: 'empty', error: null, refusedFileName: null });
  });

  it('does nothing while a payment is being authorized', async () => {
    const converter = fakeConverter();
    const context = setup(converter);
    context.store.getState().configLoaded(DEFAULT_CONFIG);
    await context.effects.chooseFile(ZIP);
    await context.effects.proceedToPayment();
    let release: () => void = () => undefined;
    const pending = context.effects.authorize(
      () =>
        new Promise((resolve) => {
          release = () => resolve({ ok: false, message: 'declined' });
        }),
    );
    await context.effects.remove();
    expect(context.state().status).toBe('authorizing');
    expect(converter.calls).not.toContain('reset');
    release();
    await pending;
  });
});
