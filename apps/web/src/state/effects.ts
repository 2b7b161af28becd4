/**
 * Everything the machine must not do itself: worker calls, API calls, payment confirmation,
 * Blob URLs and the seed's pauses. Each effect reports what happened as events; it checks the
 * state after sending its own event, so an effect whose event was ignored does nothing more.
 */
import { chargeCents } from '@placeport/contract';
import type { Api, PaymentStatus } from '../api/client';
import { ApiRequestError, refusalOf, type Refusal } from '../api/http';
import { createLookupEta, createStallWatch, ETA_STALE_MS } from '../lib/eta';
import type { Converter } from '../worker/converter';
import type {
  ConversionProgress,
  ConversionSummary,
  MapOutputFile,
  OutputFormat,
} from '../worker/types';
import {
  forgetPayment,
  MAX_NOTED_LISTS,
  notedForList,
  notedListToken,
  paymentLockName,
  recallPayment,
  recallPayments,
  rememberPayment,
  type PaymentLocks,
  type PaymentNotes,
  type RememberedPayment,
} from './lastPayment';
import { largestChosenList, selectedPlaces } from './machine';
import { MESSAGES } from './messages';
import {
  authorizeRefusalText,
  captureRefusalText,
  captureRetryText,
  distinctLookupRefusals,
  HELD_PAYMENT_IN_USE_TEXT,
  HELD_PAYMENT_SETTLED_TEXT,
  HELD_PAYMENT_UNCHECKED_TEXT,
  intentRefusalText,
  PAYMENT_IN_USE_TEXT,
  releaseRefusalText,
} from './refusals';
import { StagePacer } from './pacer';
import type { AppStoreApi } from './store';
import type {
  AppEvent,
  Archive,
  Authorization,
  Counts,
  DiscardAction,
  FileResult,
  HeldPayment,
  LastVisit,
  MapDownload,
  StateIn,
} from './types';

/**
 * What a payment provider's confirmation came to: authorized, or not with its message.
 * `maybeAuthorized` marks a failure that leaves open whether the payment is authorized (a refusal
 * to authorize it again after an earlier try's answer was lost, or no answer from the provider):
 * the page then asks the API where the payment stands, and goes on when it is held. A
 * confirmation that throws without the API's refusal (no answer) is taken the same way.
 */
export type AuthorizationOutcome =
  { ok: true } | { ok: false; message: string; maybeAuthorized?: boolean };

/** Makes and revokes Blob URLs; the page uses `URL`, tests may count calls. */
export interface ObjectUrls {
  create(blob: Blob): string;
  revoke(url: string): void;
}

export interface EffectsDeps {
  store: AppStoreApi;
  converter: Converter;
  api: Api;
  /** Base URL the worker sends link resolution to: the page's origin. */
  apiBase: string;
  urls?: ObjectUrls;
  /** The clock that dates a receipt (ms since the epoch); `Date.now` unless a test sets one. */
  now?: () => number;
  /** Starts the download of a Blob URL (a click on a temporary link); tests record the calls. */
  download?: (url: string, fileName: string) => void;
  /** Where an authorized payment is noted until it is settled (`localStorage`); none by default. */
  notes?: PaymentNotes | null;
  /** Web Locks, so no other tab settles a payment this tab's run is using; none by default. */
  locks?: PaymentLocks | null;
  /** Where the browser says it is back online (the `online` event): `window` where there is one. */
  connectivity?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  /**
   * Waits `ms`, or less once `signal` aborts: the pause before a capture is asked again. A timer
   * unless a test drives it.
   */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long without a new answer before the lookups' estimate goes ({@link ETA_STALE_MS}). */
  etaStaleMs?: number;
}

/** What a button does beyond reporting an event (see {@link createEffects}). */
export type Effects = ReturnType<typeof createEffects>;

/** Refusals of a settle that mean the payment was settled before it (captured or cancelled). */
const SETTLED_ALREADY = new Set(['already_captured', 'payment_cancelled']);

/** Main-thread time the Blob work may take before the page gets the thread back (long task: 50 ms). */
export const BLOB_WORK_BUDGET_MS = 20;

/**
 * The pauses before a capture that got no answer (the connection dropped) is asked again, one per
 * retry; the browser coming back online cuts a pause short. After the last one the page stops:
 * the server settles a hold left open by itself (product.md "Money", 30 minutes after its last
 * use), and the capture is idempotent, so a retry never charges twice.
 */
export const CAPTURE_RETRY_DELAYS_MS: readonly number[] = [5_000, 15_000, 45_000, 120_000, 300_000];

/** A timer's pause, cut short when `signal` aborts. */
function timerWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    if (signal.aborted) done();
  });
}

function clickDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The value of a worker answer, or its failure thrown as an error. */
function valueOf<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const browserUrls: ObjectUrls = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : '';
}

export function createEffects({
  store,
  converter,
  api,
  apiBase,
  urls = browserUrls,
  now = Date.now,
  etaStaleMs = ETA_STALE_MS,
  download = clickDownload,
  notes = null,
  locks = null,
  connectivity = typeof window === 'undefined' ? null : window,
  wait = timerWait,
}: EffectsDeps) {
  let nextId = 1;
  let liveUrls: string[] = [];
  /** The page went away ({@link Effects.dispose}). */
  let disposed = false;
  /** Aborted when the page goes away: pauses before a retry end at once. */
  const pageGone = new AbortController();
  /**
   * Payments this page authorized: it shows their outcome itself, never as an earlier visit's;
   * and the earlier visits' payments shown (and closed) in this page, so the next one is shown.
   */
  const passedPayments = new Set<string>();
  /**
   * Payments this page's own runs used (authorized here, or held from an earlier visit), and held
   * payments the person set aside ("Use a New Card Instead"): never offered to a later run.
   */
  const notOffered = new Set<string>();
  /** The worker is writing the run's files in a format: formats chosen meanwhile wait for it. */
  let writingFormat = false;

  /** Sends an event and tells whether the machine took it. */
  function accepted(event: AppEvent): boolean {
    const before = store.getState().state;
    store.getState().send(event);
    return store.getState().state !== before;
  }

  function toastError(title: string, description: string): void {
    store.getState().toast({ title, description, variant: 'destructive' });
  }

  /** Says what went wrong in a toast: the error's own message, or the seed's fallback. */
  function toastFailure(title: string, error: unknown): void {
    toastError(title, messageOf(error) || MESSAGES.unexpected);
  }

  function revokeAll(): void {
    for (const url of liveUrls) urls.revoke(url);
    liveUrls = [];
  }

  function track(blob: Blob): string {
    const url = urls.create(blob);
    liveUrls.push(url);
    return url;
  }

  function revoke(gone: ReadonlySet<string>): void {
    for (const url of gone) urls.revoke(url);
    liveUrls = liveUrls.filter((url) => !gone.has(url));
  }

  /** Blob URLs made in slices of {@link BLOB_WORK_BUDGET_MS}, so the page keeps its thread. */
  function blobMaker(): (bytes: ArrayBuffer, type: string) => Promise<string> {
    let sliceStart = performance.now();
    return async (bytes, type) => {
      if (performance.now() - sliceStart > BLOB_WORK_BUDGET_MS) {
        // The page handles input and paints before more work is done.
        await new Promise((resolve) => setTimeout(resolve, 0));
        sliceStart = performance.now();
      }
      return track(new Blob([bytes], { type }));
    };
  }

  /** A list's map files as the results offer them, each with its Blob URL. */
  async function mapDownloads(
    path: string,
    files: readonly MapOutputFile[],
    blobUrl: ReturnType<typeof blobMaker>,
  ): Promise<MapDownload[]> {
    const downloads: MapDownload[] = [];
    for (const { bytes, mimeType, ...file } of files) {
      const url = await blobUrl(bytes, mimeType);
      downloads.push({ key: `${path}#${file.part}/${file.parts}`, ...file, url });
    }
    return downloads;
  }

  /**
   * Turns the worker's buffers into Blob URLs. Copying a buffer into a Blob and registering its URL
   * costs about 2.5 ms per file on the main thread (a 100,000-place run has over 50 files), so the
   * page gets the thread back whenever {@link BLOB_WORK_BUDGET_MS} has been used.
   */
  async function toResults(
    summary: ConversionSummary,
  ): Promise<{ results: FileResult[]; totals: Counts }> {
    const blobUrl = blobMaker();
    const results: FileResult[] = [];
    for (const list of summary.lists) {
      const files = await mapDownloads(list.path, list.files, blobUrl);
      const { stats } = list;
      results.push({
        path: list.path,
        name: list.name,
        fileName: list.fileName,
        outputName: list.outputName,
        counts: { total: stats.totalPlaces, converted: stats.converted, skipped: stats.skipped },
        unplaced: { ...stats.unplaced },
        skippedReason: list.skippedReason ?? null,
        empty: list.empty === true,
        files,
        failed: list.failedCsv
          ? {
              key: `${list.path}#failed`,
              fileName: list.failedCsv.fileName,
              url: await blobUrl(list.failedCsv.bytes, list.failedCsv.mimeType),
              count: list.failedCsv.count,
            }
          : null,
      });
    }
    return { results, totals: { ...summary.totals } };
  }

  /**
   * Writes the run's map files in `format` and offers them in place of the files `before` offers.
   * Files no longer wanted (another format was chosen since, or another run's results are shown)
   * are dropped, and their failure is not said.
   */
  async function writeFormat(format: OutputFormat, before: StateIn<'complete'>): Promise<void> {
    const old = new Set(before.results.flatMap((result) => result.files.map((file) => file.url)));
    /** The page still shows the files written for `before` (only a run or a format swaps them). */
    const same = () => {
      const state = store.getState().state;
      return state.status === 'complete' && state.results === before.results;
    };
    try {
      const { lists } = valueOf(await converter.files(format));
      const blobUrl = blobMaker();
      const files: Record<string, MapDownload[]> = {};
      for (const [path, outputs] of Object.entries(lists)) {
        files[path] = await mapDownloads(path, outputs, blobUrl);
      }
      if (same() && accepted({ type: 'formatFilesReady', format, files })) revoke(old);
      else revoke(new Set(Object.values(files).flatMap((list) => list.map((f) => f.url))));
    } catch (error) {
      if (same() && accepted({ type: 'formatFailed', format })) {
        toastFailure('Files Not Written', error);
      }
    }
  }

  /**
   * Sends the answer about payment `paymentIntentId` while the page still shows that payment's run,
   * and tells whether it was sent: a capture asked again after the person moved on never settles
   * another run's payment.
   */
  function sendFor(paymentIntentId: string, event: AppEvent): boolean {
    const state = store.getState().state;
    const shown =
      'authorization' in state &&
      state.authorization.kind !== 'free' &&
      state.authorization.paymentIntentId === paymentIntentId;
    if (shown) store.getState().send(event);
    return shown;
  }

  /**
   * Waits `ms` before a capture is asked again, or less: the browser came back online, or the page
   * went away.
   */
  async function pauseBeforeRetry(ms: number): Promise<void> {
    const cut = new AbortController();
    const cutShort = () => cut.abort();
    connectivity?.addEventListener('online', cutShort);
    pageGone.signal.addEventListener('abort', cutShort);
    try {
      await wait(ms, cut.signal);
    } finally {
      connectivity?.removeEventListener('online', cutShort);
      pageGone.signal.removeEventListener('abort', cutShort);
    }
  }

  /**
   * Settles the hold through `POST /api/capture-payment`, claiming `converted` places, and reports
   * the receipt the server returned: the server charges at least the places it looked up for the
   * payment, so the receipt, not the claim, says what was charged. A call that gets no answer (the
   * connection dropped) is asked again after each of {@link CAPTURE_RETRY_DELAYS_MS}, or as soon as
   * the browser is back online, meanwhile shown as not confirmed; a refusal, or the last try, is
   * reported with `failedMessage`, which quotes the payment's reference; that message is returned.
   * The payment's note is forgotten only once its receipt is shown in this page. `places` is the
   * selection's count, which a new authorization held; a held payment claims against its own.
   */
  async function settleHold(
    authorization: Authorization,
    converted: number,
    places: number,
    failedMessage: (refusal: Refusal | null, reference: string) => string,
  ): Promise<string | null> {
    if (authorization.kind === 'free') return null;
    const { paymentIntentId } = authorization;
    const totalCount = authorization.kind === 'held' ? authorization.placesAuthorized : places;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const outcome = await api.capturePayment({
          paymentIntentId,
          convertedCount: converted,
          totalCount,
          actualAmountCents: chargeCents(converted),
        });
        const settledAt = now();
        const shown = sendFor(paymentIntentId, { type: 'captureSettled', ...outcome, settledAt });
        // The receipt was shown, or else the person moved on: the note stays, dated, and the next
        // visit shows the receipt.
        if (shown) forgetPayment(notes, paymentIntentId);
        else noteSettled(paymentIntentId, settledAt);
        return null;
      } catch (error) {
        const refusal = refusalOf(error);
        const pause = CAPTURE_RETRY_DELAYS_MS[attempt];
        if (refusal !== null || pause === undefined || disposed) {
          console.error('The payment could not be settled', error);
          const message = failedMessage(refusal, paymentIntentId);
          sendFor(paymentIntentId, { type: 'captureFailed', message });
          return message;
        }
        console.warn('The payment could not be settled; asking again', error);
        sendFor(paymentIntentId, {
          type: 'captureFailed',
          message: captureRetryText(
            paymentIntentId,
            error instanceof ApiRequestError ? error.status : undefined,
          ),
          retrying: true,
        });
        await pauseBeforeRetry(pause);
        // The page is going away: the note stays, and the next visit shows the hold.
        if (disposed) return null;
      }
    }
  }

  /**
   * True when the step must wait for the person: results with files not yet downloaded ask first
   * (the confirmation is showing, or is shown now).
   */
  function asksFirst(action: DiscardAction): boolean {
    const current = store.getState().state;
    if (current.status !== 'complete') return false;
    if (current.confirming !== null) return true;
    return accepted({ type: 'discardRequested', action });
  }

  /**
   * Runs `task` holding the Web Lock of payment `paymentIntentId`, so a page opened meanwhile in
   * another tab never offers to settle it; without Web Locks, or when the lock cannot be taken,
   * runs it anyway.
   */
  async function holdingPayment(paymentIntentId: string, task: () => Promise<void>): Promise<void> {
    if (!locks) return task();
    return underPaymentLock(paymentIntentId, (name, run) => locks.hold(name, run), task, undefined);
  }

  /**
   * Runs `task` under payment `paymentIntentId`'s lock as `take` asks for it, answering what
   * `take` does; when the lock cannot be asked for (not when `task` itself fails), runs `task`
   * anyway and answers `ranAnyway`.
   */
  async function underPaymentLock<T>(
    paymentIntentId: string,
    take: (name: string, task: () => Promise<void>) => Promise<T>,
    task: () => Promise<void>,
    ranAnyway: T,
  ): Promise<T> {
    let started = false;
    try {
      return await take(paymentLockName(paymentIntentId), () => {
        started = true;
        return task();
      });
    } catch (error) {
      if (started) throw error;
      console.warn('The payment lock could not be taken', error);
      await task();
      return ranAnyway;
    }
  }

  /**
   * Runs the conversion of a selection given leave to convert, then settles its payment: the
   * capture of what converted, or the release of the hold after a failure.
   */
  async function convertAndSettle(): Promise<void> {
    const state = store.getState().state;
    if (state.status !== 'validating') return;
    const { authorization } = state;
    const places = selectedPlaces(state);
    const eta = createLookupEta();
    // The estimate stands only while answers come: once they stall it goes, until the next one.
    let latest: ConversionProgress | null = null;
    const stall = createStallWatch(() => {
      if (latest)
        store.getState().send({ type: 'progressReported', progress: latest, secondsLeft: null });
    }, etaStaleMs);
    const pacer = new StagePacer((progress) => {
      latest = progress;
      const { lookups } = progress;
      const secondsLeft = lookups ? eta.update(lookups.done, lookups.total, now()) : null;
      const stalled = lookups ? stall.report(lookups.done) : false;
      store.getState().send({
        type: 'progressReported',
        progress,
        secondsLeft: stalled ? null : secondsLeft,
      });
    });
    const resolve =
      authorization.kind === 'free'
        ? { apiBase }
        : { apiBase, paymentIntentId: authorization.paymentIntentId };
    let failure: string | null = null;
    let made: { results: FileResult[]; totals: Counts } | null = null;
    let refusals: Refusal[] = [];
    // The device back online: lookups that failed while it was offline go again now, not at the
    // end of the retry round's pause (the worker is not told itself in every browser).
    const online = () => void converter.deviceOnline().catch(() => undefined);
    connectivity?.addEventListener('online', online);
    try {
      const result = await converter.convert({ paths: [...state.selected], resolve }, (progress) =>
        pacer.report(progress),
      );
      if (result.ok) {
        made = await toResults(result.value);
        refusals = await converter.lookupRefusals().catch(() => []);
      } else failure = result.error.message;
    } catch (error) {
      // The worker died, or its files could not be turned into downloads.
      failure = messageOf(error);
      revokeAll();
    } finally {
      connectivity?.removeEventListener('online', online);
    }
    stall.stop();
    if (made === null) {
      pacer.cancel();
      if (disposed) return;
      if (!accepted({ type: 'conversionFailed', message: failure || MESSAGES.conversionFailed })) {
        return;
      }
      const failed = store.getState().state;
      if (failed.status === 'failed' && !failed.cancelled)
        toastError('Conversion Failed', failed.error);
      // A failed run delivered nothing: the hold is released with a claim of nothing converted.
      // The server still charges the places it looked up for the payment (product.md "Money"),
      // and the failed status shows its receipt.
      await settleHold(authorization, 0, places, releaseRefusalText);
      return;
    }
    const { results, totals } = made;
    await pacer.finish();
    stall.stop();
    const paid = authorization.kind !== 'free';
    const causes = distinctLookupRefusals(refusals, paid);
    if (!accepted({ type: 'conversionFinished', results, totals, refusals: causes })) return;
    if (paid) notePayment(authorization.paymentIntentId, totals.converted);
    const failed = await settleHold(authorization, totals.converted, places, captureRefusalText);
    if (failed !== null) toastError('Payment Capture Failed', failed);
  }

  /** Loads `GET /api/config`; the defaults stay when the API cannot be reached. */
  async function loadConfig(): Promise<boolean> {
    try {
      store.getState().configLoaded(await api.getConfig());
      return true;
    } catch (error) {
      console.warn('Could not load the configuration', error);
      return false;
    }
  }

  /**
   * Notes the payment in use (see `lastPayment.ts`): when its authorization is submitted (or a
   * held payment is taken up, which drops the earlier run's `converted`), and again with the places
   * `converted` once the conversion finished. The note keeps the archive and the lists the payment
   * was first authorized for.
   */
  function notePayment(paymentIntentId: string, converted?: number): void {
    const state = store.getState().state;
    const archive = 'lists' in state ? state : null;
    const noted = recallPayment(notes, paymentIntentId, now());
    const note: RememberedPayment = {
      paymentIntentId,
      places: noted?.places ?? (archive ? selectedPlaces(archive) : 0),
      authorizedAt: noted?.authorizedAt ?? now(),
      ...(converted === undefined ? {} : { converted }),
      ...(noted === null
        ? paidFor(archive, paymentIntentId)
        : { archive: noted.archive, lists: noted.lists }),
    };
    if (note.places > 0) rememberPayment(notes, note);
  }

  /**
   * What a new payment is for: the archive and the chosen lists, as tokens (none past the note's
   * limit).
   */
  function paidFor(
    archive: Archive | null,
    paymentIntentId: string,
  ): Pick<RememberedPayment, 'archive' | 'lists'> {
    if (archive === null || archive.selected.length > MAX_NOTED_LISTS) return {};
    const { name, size } = archive.file;
    const lists = archive.selected.map((path) => notedListToken(paymentIntentId, path));
    return { archive: { name, size }, lists };
  }

  /**
   * The hold an earlier visit left open that this selection may use instead of a new one, if
   * any, newest first: noted for this archive (its name and size) and for every chosen list, with
   * places enough, not used or set aside in this page, not in use in another tab (its Web Lock) nor
   * being settled here, and open with places enough as the API says. Its allowance counts distinct
   * links, so the places it already found cost nothing again; a call that fails passes it by.
   * `anotherTab`: a payment noted for this archive and some chosen list is in use in another tab
   * (its lock is held, and not by this page): that tab is converting them and will charge for them.
   */
  async function heldPaymentFor(
    state: StateIn<'awaitingIntent'>,
  ): Promise<{ held: HeldPayment | null; anotherTab: boolean }> {
    const places = selectedPlaces(state);
    let anotherTab = false;
    for (const noted of recallPayments(notes, now()).reverse()) {
      const id = noted.paymentIntentId;
      const paidFor = (path: string) => notedForList(noted, path);
      const sameArchive =
        noted.archive?.name === state.file.name && noted.archive.size === state.file.size;
      if (!sameArchive || notOffered.has(id) || !state.selected.some(paidFor)) {
        continue;
      }
      const shown = store.getState().lastVisit;
      if (shown?.settling && shown.payment.reference === id) continue;
      if (locks) {
        // A lock that cannot be asked about passes the payment by, and says nothing of a tab.
        const inUse = await locks.held(paymentLockName(id)).catch(() => null);
        if (inUse === true) anotherTab = true;
        if (inUse !== false) continue;
      }
      const fits = state.selected.every(paidFor) && places <= noted.places;
      if (!fits) continue;
      const payment = await statusNow(id);
      if (payment !== null) showFresh(payment);
      if (payment?.status !== 'open' || payment.placesAuthorized < places) continue;
      const held = {
        paymentIntentId: id,
        amountAuthorizedCents: payment.amountAuthorizedCents,
        placesAuthorized: payment.placesAuthorized,
        placesResolved: payment.placesResolved,
      };
      return { held, anotherTab };
    }
    return { held: null, anotherTab };
  }

  /** Asks the API for a new intent for the selection (request `requestId`), or says why not. */
  async function requestIntent(requestId: number, anotherTab = false): Promise<void> {
    const state = store.getState().state;
    if (state.status !== 'awaitingIntent' || state.requestId !== requestId) return;
    try {
      if (!store.getState().config.loaded && !(await loadConfig())) {
        throw new Error('The configuration could not be loaded.');
      }
      const intent = await api.createPaymentIntent(chargeCents(selectedPlaces(state)));
      store.getState().send({
        type: 'intentCreated',
        requestId,
        ...intent,
        ...(anotherTab ? { anotherTab } : {}),
      });
    } catch (error) {
      console.error('Payment intent creation failed', error);
      const message = intentRefusalText(refusalOf(error), {
        places: selectedPlaces(state),
        contactEmail: store.getState().config.value.contactEmail,
        largestList: largestChosenList(state),
      });
      if (accepted({ type: 'intentFailed', requestId, message }))
        toastError('Payment Error', message);
    }
  }

  /** Sets the held payment shown aside and asks for a new intent; `why` is said when it was lost. */
  async function setHeldAside(paymentIntentId: string, why: string | null): Promise<void> {
    notOffered.add(paymentIntentId);
    const requestId = nextId++;
    if (!accepted({ type: 'newPaymentRequested', requestId })) return;
    if (why !== null) toastError('Held Payment Not Used', why);
    await requestIntent(requestId);
  }

  /**
   * "Convert with the Held Payment": under the payment's Web Lock (no other tab may be using it),
   * asks the API whether it is still open, then runs the conversion with it and settles it, the
   * lock held until then. The earlier visit's card of it goes (this run shows its outcome). A hold
   * settled meanwhile or in use elsewhere is set aside for a new intent, and the toast says why.
   */
  async function convertWithHeld(): Promise<void> {
    if (!accepted({ type: 'authorizationSubmitted' })) return;
    const submitted = store.getState().state;
    if (submitted.status !== 'authorizing' || submitted.authorization.kind !== 'held') return;
    const id = submitted.authorization.paymentIntentId;
    let lost: string | null = null;
    const free = await holdingPaymentIfFree(id, async () => {
      const payment = await statusNow(id);
      if (payment === null) {
        if (accepted({ type: 'authorizationFailed', message: HELD_PAYMENT_UNCHECKED_TEXT })) {
          toastError('Payment Error', HELD_PAYMENT_UNCHECKED_TEXT);
        }
        return;
      }
      if (payment.status !== 'open') {
        showFresh(payment);
        lost = HELD_PAYMENT_SETTLED_TEXT;
        return;
      }
      if (!accepted({ type: 'paymentAuthorized' })) return;
      notOffered.add(id);
      passedPayments.add(id);
      notePayment(id);
      if (store.getState().lastVisit?.payment.reference === id) {
        store.getState().lastVisitChanged(null);
        void recallLastPayment();
      }
      await convertAndSettle();
    });
    const why: string | null = free ? lost : HELD_PAYMENT_IN_USE_TEXT;
    if (why !== null) await setHeldAside(id, why);
  }

  /**
   * Shows `payment` as the API just said it stands on the last-visit card, when the card shows that
   * payment as open and is not settling it: another tab, or the server's sweep, may have settled it
   * since the card was shown. A receipt keeps the date a page of this browser noted, if any.
   */
  function showFresh(payment: PaymentStatus): void {
    const visit = store.getState().lastVisit;
    if (visit === null || visit.settling || visit.payment.status !== 'open') return;
    if (visit.payment.reference !== payment.reference || payment.status === 'not_authorized')
      return;
    const settledAt =
      payment.status === 'open'
        ? null
        : (recallPayment(notes, payment.reference, now())?.settledAt ?? null);
    store.getState().lastVisitChanged({ ...visit, payment, settledAt });
  }

  /**
   * The page is shown again: the last-visit card's open payment is asked about again, so a hold
   * settled meanwhile (by the server, or "Settle it now" in another tab) is not shown as held.
   */
  async function refreshLastPayment(): Promise<void> {
    const visit = store.getState().lastVisit;
    if (visit === null || visit.settling || visit.payment.status !== 'open') return;
    const payment = await statusNow(visit.payment.reference);
    if (payment !== null) showFresh(payment);
  }

  /**
   * Dates the note of payment `paymentIntentId` with when this page saw it settled (`settledAt`,
   * now by default), so the receipt a later visit shows from the note keeps its date (product.md
   * "Receipt"); returns that date.
   */
  function noteSettled(paymentIntentId: string, settledAt = now()): number {
    const noted = recallPayment(notes, paymentIntentId, now());
    if (noted !== null) rememberPayment(notes, { ...noted, settledAt });
    return settledAt;
  }

  /** How payment `paymentIntentId` stands, as the API says; null when it cannot be asked. */
  async function statusNow(paymentIntentId: string): Promise<PaymentStatus | null> {
    try {
      return await api.paymentStatus(paymentIntentId);
    } catch (error) {
      console.warn('Could not check how the payment stands', error);
      return null;
    }
  }

  /**
   * True when the API says the payment is held: a refusal to authorize it again came after an
   * earlier try whose answer was lost, or the try itself got no answer.
   */
  async function heldAlready(paymentIntentId: string): Promise<boolean> {
    return (await statusNow(paymentIntentId))?.status === 'open';
  }

  /**
   * Why the provider's confirmation did not authorize, or null when it did. A confirmation that
   * threw without the API's refusal (the connection dropped, no answer in time) may have authorized
   * the payment on the server all the same, so it is `maybeAuthorized` like a refusal of a second try.
   */
  async function confirmationFailure(
    confirm: () => Promise<AuthorizationOutcome>,
  ): Promise<{ title: string; message: string; maybeAuthorized: boolean } | null> {
    try {
      const outcome = await confirm();
      if (outcome.ok) return null;
      const { message, maybeAuthorized = false } = outcome;
      return { title: 'Payment Failed', message, maybeAuthorized };
    } catch (error) {
      return {
        title: 'Payment Error',
        message: messageOf(error) || MESSAGES.unexpected,
        maybeAuthorized: refusalOf(error) === null,
      };
    }
  }

  /**
   * Runs the provider's confirmation and reports its outcome as events; true when the payment is
   * authorized and the conversion started. When the answer may have been lost, the API says
   * whether the payment is held, and an open one goes on: trying again would be refused, and a
   * new payment would hold the card twice.
   */
  async function confirmAuthorization(
    confirm: () => Promise<AuthorizationOutcome>,
    paymentIntentId: string | null,
  ): Promise<boolean> {
    const failure = await confirmationFailure(confirm);
    const held =
      failure === null ||
      (failure.maybeAuthorized && paymentIntentId !== null && (await heldAlready(paymentIntentId)));
    if (!held) {
      store.getState().send({
        type: 'authorizationFailed',
        message: `${failure.title}: ${failure.message}`,
      });
      toastError(failure.title, failure.message);
      return false;
    }
    return accepted({ type: 'paymentAuthorized' });
  }

  /**
   * "Authorize Payment & Convert": runs the provider's confirmation, then the conversion. The
   * payment is noted as soon as its authorization is submitted (a page that goes away before the
   * answer still shows it next visit), and its Web Lock is held from then until it is settled.
   */
  async function authorize(confirm: () => Promise<AuthorizationOutcome>): Promise<void> {
    if (!accepted({ type: 'authorizationSubmitted' })) return;
    const submitted = store.getState().state;
    const paymentIntentId =
      'authorization' in submitted && submitted.authorization.kind === 'card'
        ? submitted.authorization.paymentIntentId
        : null;
    const authorizeAndConvert = async () => {
      if (!(await confirmAuthorization(confirm, paymentIntentId))) return;
      store.getState().toast({ title: 'Payment Authorized', description: MESSAGES.authorized });
      await convertAndSettle();
    };
    if (paymentIntentId === null) return authorizeAndConvert();
    passedPayments.add(paymentIntentId);
    notOffered.add(paymentIntentId);
    notePayment(paymentIntentId);
    await holdingPayment(paymentIntentId, authorizeAndConvert);
  }

  /**
   * The first payment earlier visits noted and never settled (see `lastPayment.ts`) that is worth
   * showing: asks the API where each stands, oldest first, skipping those this page uses or has
   * shown, those another tab is using, and those the API does not know (another browser's cookie,
   * long gone: forgotten). A failed call leaves the note for next time.
   */
  async function nextLastVisit(): Promise<LastVisit | null> {
    for (const noted of recallPayments(notes, now())) {
      const id = noted.paymentIntentId;
      if (passedPayments.has(id)) continue;
      if (locks && (await locks.held(paymentLockName(id)).catch(() => false))) continue;
      let payment;
      try {
        payment = await api.paymentStatus(id);
      } catch (error) {
        const refusal = refusalOf(error);
        // Unknown to the server, or not this browser's: nothing to show, ever.
        if (refusal?.status === 404 || refusal?.status === 400) forgetPayment(notes, id);
        else console.warn('Could not check the payment of an earlier visit', error);
        continue;
      }
      if (payment.status === 'not_authorized') {
        forgetPayment(notes, id);
        continue;
      }
      if (passedPayments.has(id)) continue;
      return {
        payment,
        converted: noted.converted ?? null,
        settling: false,
        settledAt: payment.status === 'open' ? null : (noted.settledAt ?? null),
        error: null,
        archiveName: noted.archive?.name ?? null,
      };
    }
    return null;
  }

  let recalling: Promise<void> | null = null;

  /**
   * Shows a payment an earlier visit left unsettled, when there is one and none is shown: one at a
   * time, the next once the shown one is closed.
   */
  function recallLastPayment(): Promise<void> {
    recalling ??= (async () => {
      try {
        if (store.getState().lastVisit !== null) return;
        const visit = await nextLastVisit();
        if (visit !== null && !passedPayments.has(visit.payment.reference)) {
          passedPayments.add(visit.payment.reference);
          store.getState().lastVisitChanged(visit);
        }
      } finally {
        recalling = null;
      }
    })();
    return recalling;
  }

  /**
   * Runs `task` holding the Web Lock of payment `paymentIntentId` when no tab holds it, and tells
   * whether it ran: false when another tab's run is using the payment. Without Web Locks, or when
   * the lock cannot be asked for, runs it anyway.
   */
  async function holdingPaymentIfFree(
    paymentIntentId: string,
    task: () => Promise<void>,
  ): Promise<boolean> {
    if (!locks) return task().then(() => true);
    return underPaymentLock(
      paymentIntentId,
      (name, run) => locks.holdIfFree(name, run),
      task,
      true,
    );
  }

  /**
   * "Settle it now": releases that payment's hold, charging what the server found for it. The
   * payment's Web Lock is held meanwhile; when another tab holds it (that tab's run uses the
   * payment, or settles it), nothing is asked and the card says so.
   */
  async function settleLastPayment(): Promise<void> {
    const visit = store.getState().lastVisit;
    if (visit === null || visit.payment.status !== 'open' || visit.settling) return;
    store.getState().lastVisitChanged({ ...visit, settling: true, error: null });
    const free = await holdingPaymentIfFree(visit.payment.reference, () =>
      releaseLastPayment(visit),
    );
    if (!free) {
      store.getState().lastVisitChanged({ ...visit, settling: false, error: PAYMENT_IN_USE_TEXT });
    }
  }

  /** Releases the hold of an earlier visit's payment and shows the receipt, or why it failed. */
  async function releaseLastPayment(visit: LastVisit): Promise<void> {
    const { payment } = visit;
    try {
      const outcome = await api.capturePayment({
        paymentIntentId: payment.reference,
        convertedCount: 0,
        totalCount: payment.placesAuthorized,
        actualAmountCents: 0,
      });
      store.getState().lastVisitChanged({
        ...visit,
        payment: {
          ...payment,
          status: outcome.cancelled ? 'cancelled' : 'captured',
          amountAuthorizedCents: outcome.amountAuthorizedCents,
          amountCapturedCents: outcome.amountCapturedCents,
          amountReleasedCents: outcome.amountReleasedCents,
          settlesAt: null,
        },
        settling: false,
        settledAt: noteSettled(payment.reference),
        error: null,
      });
    } catch (error) {
      console.error('The payment of an earlier visit could not be settled', error);
      const refusal = refusalOf(error);
      // Settled meanwhile (by the tab that ran it, or the server's sweep): the card shows how it
      // stands now, not "still held" beside "already settled".
      const read = SETTLED_ALREADY.has(refusal?.code ?? '')
        ? await statusNow(payment.reference)
        : null;
      const settled = read && read.status !== 'open' ? read : null;
      store.getState().lastVisitChanged(
        settled
          ? {
              ...visit,
              payment: settled,
              settling: false,
              settledAt: noteSettled(payment.reference),
              error: null,
            }
          : { ...visit, settling: false, error: releaseRefusalText(refusal, payment.reference) },
      );
    }
  }

  return {
    loadConfig,
    authorize,
    recallLastPayment,
    refreshLastPayment,
    settleLastPayment,

    /**
     * Closes that notice; a settled payment's note is forgotten, an open one is shown next visit.
     * Another payment left unsettled is shown next.
     */
    dismissLastPayment() {
      const visit = store.getState().lastVisit;
      if (visit === null || visit.settling) return;
      if (visit.payment.status !== 'open') forgetPayment(notes, visit.payment.reference);
      store.getState().lastVisitChanged(null);
      void recallLastPayment();
    },

    /** A file was picked or dropped. */
    async chooseFile(file: File) {
      const fileId = nextId++;
      if (!accepted({ type: 'fileChosen', fileId, file: { name: file.name, size: file.size } })) {
        return;
      }
      if (store.getState().state.status !== 'inspecting') return;
      try {
        const { lists } = valueOf(await converter.inspect(file));
        store.getState().send({ type: 'archiveInspected', fileId, lists });
      } catch (error) {
        store.getState().send({ type: 'archiveRejected', fileId, message: messageOf(error) });
      }
    },

    /**
     * "Proceed to Payment": free selections go straight to the payment view; others are offered
     * the hold an earlier visit left open for them, if there is one, else get a new intent.
     */
    async proceedToPayment() {
      const requestId = nextId++;
      if (!accepted({ type: 'paymentRequested', requestId })) return;
      const state = store.getState().state;
      if (state.status !== 'awaitingIntent') return;
      const { held, anotherTab } = await heldPaymentFor(state);
      if (held !== null && accepted({ type: 'heldPaymentFound', requestId, ...held })) return;
      await requestIntent(requestId, anotherTab);
    },

    convertWithHeld,

    /** "Use a New Card Instead": the held payment stays as it is; a new intent is asked for. */
    async useNewCard() {
      const state = store.getState().state;
      if (state.status !== 'paying' || state.authorization.kind !== 'held') return;
      await setHeldAside(state.authorization.paymentIntentId, null);
    },

    /** Demo payments: the same button authorizes through `POST /api/demo/authorize`. */
    async authorizeDemo() {
      const state = store.getState().state;
      if (state.status !== 'paying' || state.authorization.kind !== 'card') return;
      const { paymentIntentId } = state.authorization;
      await authorize(async () => {
        let status: string;
        try {
          ({ status } = await api.demoAuthorize(paymentIntentId));
        } catch (error) {
          // A refusal the API explained is said in plain words; anything else is an error.
          const refusal = refusalOf(error);
          if (refusal === null) throw error;
          return {
            ok: false,
            message: authorizeRefusalText(refusal),
            // Already authorized, perhaps by a try whose answer was lost: the API's status says.
            maybeAuthorized: refusal.code === 'payment_unexpected_state',
          };
        }
        return status === 'requires_capture'
          ? { ok: true }
          : { ok: false, message: `The demo payment was not authorized (status: ${status}).` };
      });
    },

    /** A free selection's convert button. */
    async convertFree() {
      const state = store.getState().state;
      if (state.status !== 'paying' || state.authorization.kind !== 'free') return;
      if (!accepted({ type: 'paymentAuthorized' })) return;
      await convertAndSettle();
    },

    /**
     * The results' format select: the worker writes the run's map files in that format. One write
     * at a time: formats chosen meanwhile (the arrow keys step through them) wait, and only the
     * last of them is written next, so the files offered are always all of the format last chosen.
     */
    async chooseFormat(format: OutputFormat) {
      if (!accepted({ type: 'formatChosen', format })) return;
      if (writingFormat) return;
      writingFormat = true;
      try {
        for (;;) {
          const state = store.getState().state;
          if (state.status !== 'complete' || state.formatPending === null) return;
          await writeFormat(state.formatPending, state);
        }
      } finally {
        writingFormat = false;
      }
    },

    /** "Download all": one ZIP of every file of the run in the chosen format, then its download. */
    async downloadAll() {
      if (!accepted({ type: 'zipRequested' })) return;
      const state = store.getState().state;
      if (state.status !== 'complete' || state.zip.kind !== 'building') return;
      const { format } = state.zip;
      try {
        const { chunks, fileName } = valueOf(await converter.zipAll(format));
        const url = track(new Blob(chunks, { type: 'application/zip' }));
        if (!accepted({ type: 'zipReady', format, url, fileName })) {
          revoke(new Set([url]));
          return;
        }
        download(url, fileName);
        store.getState().send({ type: 'fileDownloaded', url });
      } catch (error) {
        const message = messageOf(error) || MESSAGES.unexpected;
        // Said while the page still waits for it: not after the run was left for another.
        if (accepted({ type: 'zipFailed', message })) toastError('ZIP Not Written', message);
      }
    },

    /** The results' map: the last run's placed places per list; throws when the worker cannot. */
    async loadMapPoints() {
      return valueOf(await converter.points());
    },

    /**
     * Remove: resets everything and forgets the downloads. With results not all downloaded it first
     * asks (the results show a confirmation); `confirmed` is that confirmation's answer.
     */
    async remove(confirmed = false) {
      if (!confirmed && asksFirst('remove')) return;
      if (!accepted({ type: 'removed' })) return;
      revokeAll();
      try {
        await converter.reset();
      } catch (error) {
        console.warn('The worker could not forget the archive', error);
      }
    },

    /**
     * "Retry failed places": a new run (its own selection and authorization) for the places a later
     * lookup may place; asks first like Remove.
     */
    async retryFailed(confirmed = false) {
      if (!confirmed && asksFirst('retry')) return;
      try {
        const { lists } = valueOf(await converter.prepareRetry());
        if (accepted({ type: 'retryPrepared', lists })) revokeAll();
      } catch (error) {
        store.getState().send({ type: 'discardCancelled' });
        toastFailure('Retry Not Started', error);
      }
    },

    /**
     * Cancel during processing: the worker stops the run's lookups and converts every list with
     * what has coordinates (the results, then the capture of what was converted). A worker that
     * cannot be asked is ended instead (the last resort, docs/architecture.md "The worker"): the run then
     * ends as cancelled, and the hold is released as after a failed run.
     */
    async cancel() {
      if (!accepted({ type: 'cancelRequested' })) return;
      try {
        // The run in flight then ends with its results.
        await converter.cancel();
      } catch (error) {
        console.warn('The worker could not be asked to stop; ending it', error);
        converter.terminate();
      }
    },

    /** "Convert more lists": back to the selection with the same archive (asks first like Remove). */
    convertMore(confirmed = false) {
      if (!confirmed && asksFirst('convertMore')) return;
      if (accepted({ type: 'convertMoreConfirmed' })) revokeAll();
    },

    /** The page goes away. */
    dispose() {
      // The page is going away: a run ended with the worker asks the API nothing more (a hold
      // left open is settled by the server).
      disposed = true;
      pageGone.abort();
      revokeAll();
      converter.terminate();
    },
  };
}
