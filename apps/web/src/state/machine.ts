/**
 * The page's state machine: a pure `transition(state, event)`. Remove and the capture's answer are
 * taken alike in every status; other events are switched on the status first, then on the event.
 * An event that does not apply in a status returns the very same state object, so the store skips
 * a render and tests can prove the event was ignored.
 */
import { chargeCents, isUnderMinimum } from '@placeport/contract';
import { takeoutPartOf } from '@placeport/converter/internal';
import { MESSAGES } from './messages';
import type {
  AppEvent,
  AppState,
  Archive,
  FileInfo,
  FileResult,
  MapDownload,
  ProcessingStage,
  Progress,
  StateIn,
} from './types';
import type { ListSummary } from '../worker/types';

/** The state of a fresh page: no file, no error. */
export const INITIAL_STATE: AppState = { status: 'empty', error: null, refusedFileName: null };

/** The seed accepts `.zip` files only; the extension decides, whatever its case. */
export function isZipFileName(name: string): boolean {
  return /\.zip$/i.test(name);
}

/** `count` summed over the chosen lists that can be converted. */
function sumChosen(archive: Archive, count: (list: ListSummary) => number): number {
  const chosen = new Set(archive.selected);
  return archive.lists.reduce(
    (sum, list) => sum + (chosen.has(list.path) && isConvertible(list) ? count(list) : 0),
    0,
  );
}

/** Places (rows) in the chosen lists that can be converted, usable links or not. */
export function selectedRows(archive: Archive): number {
  return sumChosen(archive, (list) => list.rowCount);
}

/** A list's places that may be converted and so charged: those with a usable link. */
function chargeablePlaces(list: ListSummary): number {
  return Math.min(list.rowCount, list.withCoordinates + list.needsLookup);
}

/**
 * Places in the chosen lists that can be placed: what the maximum charge is computed from. A place
 * without a usable link (none, or one the resolver would refuse: `not_allowed`) can never be
 * converted, so it is neither held nor charged (product.md, "Needs a lookup").
 */
export function selectedPlaces(archive: Archive): number {
  return sumChosen(archive, chargeablePlaces);
}

/** The chosen list with the most chargeable places (as {@link selectedPlaces} counts them). */
export function largestChosenList(archive: Archive): { name: string; places: number } | null {
  const chosen = new Set(archive.selected);
  let largest: { name: string; places: number } | null = null;
  for (const list of archive.lists) {
    if (!chosen.has(list.path) || !isConvertible(list)) continue;
    const places = chargeablePlaces(list);
    if (largest === null || places > largest.places) largest = { name: list.name, places };
  }
  return largest;
}

/**
 * Places in the chosen lists that Takeout gives no location for (a search for 0,0): never looked
 * up nor charged, like those without a usable link, but named apart.
 */
export function selectedWithoutLocation(archive: Archive): number {
  return sumChosen(archive, (list) => list.withoutLocation);
}

/**
 * A list that can be converted: one the worker found no problem with (a list that cannot be read
 * is shown with its reason, never selected and never counted in the price).
 */
export function isConvertible(list: ListSummary): boolean {
  return list.problem === undefined;
}

/**
 * How many lists the archive itself holds: "Retry failed places" adds lists of its own (`origin`),
 * which are no list of the ZIP the upload card describes.
 */
export function archiveListCount(lists: readonly ListSummary[]): number {
  return lists.filter((list) => list.origin === undefined).length;
}

/** The paths of the lists that can be chosen, in archive order. */
function convertiblePaths(lists: readonly ListSummary[]): string[] {
  return lists.filter(isConvertible).map((list) => list.path);
}

/**
 * The lists chosen when the selection opens: those that can be chosen and hold a place (an empty
 * list, such as Takeout's "Test" or "Work", would only add an "Empty list" panel to the results;
 * Select All still takes it).
 */
function preselectedPaths(lists: readonly ListSummary[]): string[] {
  return lists.filter((list) => isConvertible(list) && list.rowCount > 0).map((list) => list.path);
}

function archiveOf({ file, lists, selected, converted }: Archive): Archive {
  return { file, lists, selected, converted };
}

/** The session's converted lists with the lists of a finished run that placed at least one place. */
function withConverted(converted: readonly string[], results: readonly FileResult[]): string[] {
  const placed = results
    .filter((result) => result.counts.converted > 0 && !converted.includes(result.path))
    .map((result) => result.path);
  return [...converted, ...placed];
}

function startProgress(archive: Archive): Progress {
  const first = archive.lists.find((list) => archive.selected.includes(list.path));
  return {
    percent: 0,
    fileIndex: 0,
    fileCount: archive.selected.length,
    // The list's file name: the last segment of its path inside the archive.
    fileName: first ? first.path.slice(first.path.lastIndexOf('/') + 1) : '',
    currentItem: null,
    lookups: null,
    secondsLeft: null,
  };
}

/**
 * The bar stops here until the results are ready: the worker's last report (100%) comes before
 * the files are handed over and turned into downloads (product.md "Pace").
 */
export const MAX_PROCESSING_PERCENT = 99;

/** Leave to convert was given: the conversion starts at validating, 0%. */
function startConversion(state: StateIn<'paying' | 'authorizing'>): AppState {
  return {
    status: 'validating',
    ...archiveOf(state),
    authorization: state.authorization,
    progress: startProgress(state),
    cancelling: false,
  };
}

function clampPercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(MAX_PROCESSING_PERCENT, Math.max(0, percent));
}

function select(state: StateIn<'selecting'>, paths: readonly string[]): AppState {
  const chosen = new Set(paths);
  const selected = state.lists.map((list) => list.path).filter((path) => chosen.has(path));
  const unchanged =
    selected.length === state.selected.length && selected.every((p, i) => p === state.selected[i]);
  return unchanged ? state : { ...state, selected, error: null };
}

function fromEmpty(state: StateIn<'empty'>, event: AppEvent): AppState {
  if (event.type !== 'fileChosen') return state;
  if (!isZipFileName(event.file.name)) {
    return { status: 'empty', error: MESSAGES.notAZip, refusedFileName: event.file.name };
  }
  return { status: 'inspecting', fileId: event.fileId, file: event.file };
}

/**
 * Back to the drop zone after reading `file`, with `error`; when the archive held no list and its
 * name says it is one part of an export in several, which part it is (the panel says the lists are
 * in another).
 */
function emptyAfterReading(file: FileInfo, error: string): AppState {
  const noList = error === MESSAGES.noCsv || error === MESSAGES.noPlaceLists;
  const part = noList ? takeoutPartOf(file.name) : undefined;
  return { status: 'empty', error, refusedFileName: null, ...(part !== undefined ? { part } : {}) };
}

function fromInspecting(state: StateIn<'inspecting'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'archiveInspected':
      if (event.fileId !== state.fileId) return state;
      if (event.lists.length === 0) return emptyAfterReading(state.file, MESSAGES.noCsv);
      return {
        status: 'selecting',
        file: state.file,
        lists: event.lists,
        selected: preselectedPaths(event.lists),
        converted: [],
        error: null,
      };
    case 'archiveRejected':
      if (event.fileId !== state.fileId) return state;
      return emptyAfterReading(state.file, event.message || MESSAGES.extractFailed);
    default:
      return state;
  }
}

function fromSelecting(state: StateIn<'selecting'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'listToggled': {
      if (!state.lists.some((list) => list.path === event.path && isConvertible(list))) {
        return state;
      }
      const others = state.selected.filter((path) => path !== event.path);
      return select(
        state,
        others.length < state.selected.length ? others : [...others, event.path],
      );
    }
    case 'allListsSelected':
      return select(state, convertiblePaths(state.lists));
    case 'allListsDeselected':
      return select(state, []);
    case 'dialogDismissed':
      return { status: 'loaded', ...archiveOf(state), error: state.error };
    case 'paymentRequested':
      if (state.selected.length === 0) return { ...state, error: MESSAGES.noListsChosen };
      if (isUnderMinimum(chargeCents(selectedPlaces(state)))) {
        return { status: 'paying', ...archiveOf(state), authorization: { kind: 'free' } };
      }
      return { status: 'awaitingIntent', ...archiveOf(state), requestId: event.requestId };
    default:
      return state;
  }
}

/** Back to Selection and closing the dialog, alike while the intent is awaited or shown. */
function leavePaymentView(state: StateIn<'awaitingIntent' | 'paying'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'selectionResumed':
      return { status: 'selecting', ...archiveOf(state), error: null };
    case 'dialogDismissed':
      return { status: 'loaded', ...archiveOf(state), error: null };
    default:
      return state;
  }
}

function fromAwaitingIntent(state: StateIn<'awaitingIntent'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'intentCreated': {
      if (event.requestId !== state.requestId) return state;
      const { clientSecret, paymentIntentId } = event;
      const authorization = {
        kind: 'card' as const,
        clientSecret,
        paymentIntentId,
        ...(event.anotherTab ? { anotherTab: true } : {}),
      };
      return { status: 'paying', ...archiveOf(state), authorization };
    }
    case 'heldPaymentFound': {
      if (event.requestId !== state.requestId) return state;
      const { paymentIntentId, amountAuthorizedCents, placesAuthorized, placesResolved } = event;
      const authorization = {
        kind: 'held' as const,
        paymentIntentId,
        amountAuthorizedCents,
        placesAuthorized,
        placesResolved,
      };
      return { status: 'paying', ...archiveOf(state), authorization };
    }
    case 'intentFailed':
      if (event.requestId !== state.requestId) return state;
      return {
        status: 'selecting',
        ...archiveOf(state),
        error: event.message || MESSAGES.intentFailed,
      };
    default:
      return leavePaymentView(state, event);
  }
}

/** A held payment is set aside for a new intent: "Use a New Card Instead", or it was lost. */
function newPayment(state: StateIn<'paying' | 'authorizing'>, requestId: number): AppState {
  if (state.authorization.kind !== 'held') return state;
  return { status: 'awaitingIntent', ...archiveOf(state), requestId };
}

function fromPaying(state: StateIn<'paying'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'authorizationSubmitted':
      // A card's confirmation, or the check that a held payment is still open and free.
      if (state.authorization.kind === 'free') return state;
      return { status: 'authorizing', ...archiveOf(state), authorization: state.authorization };
    case 'paymentAuthorized':
      if (state.authorization.kind !== 'free') return state;
      return startConversion(state);
    case 'newPaymentRequested':
      return newPayment(state, event.requestId);
    default:
      return leavePaymentView(state, event);
  }
}

function fromAuthorizing(state: StateIn<'authorizing'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'authorizationFailed':
      return {
        ...state,
        status: 'paying',
        ...(event.message === undefined ? {} : { error: event.message }),
      };
    case 'paymentAuthorized':
      return startConversion(state);
    case 'newPaymentRequested':
      return newPayment(state, event.requestId);
    default:
      return state;
  }
}

function fromProcessing(state: StateIn<ProcessingStage>, event: AppEvent): AppState {
  switch (event.type) {
    case 'progressReported': {
      const { stage, percent, fileIndex, fileCount, fileName, currentItem, lookups } =
        event.progress;
      return {
        ...state,
        status: stage,
        progress: {
          // The bar never goes back (product.md "Pace"): a report that crossed a later one on the
          // worker's port does not move it.
          percent: Math.max(state.progress.percent, clampPercent(percent)),
          fileIndex,
          fileCount,
          fileName,
          currentItem: currentItem ?? null,
          // Lookups are counted for the whole run; a later report without a count keeps the last.
          // A pause before a retry round (`retry`) is told as it comes, and over when a report
          // comes without it.
          lookups: lookups
            ? { ...lookups, done: Math.max(lookups.done, state.progress.lookups?.done ?? 0) }
            : state.progress.lookups,
          secondsLeft: lookups ? (event.secondsLeft ?? null) : null,
        },
      };
    }
    case 'cancelRequested':
      // Once the files are being handed over there is nothing left to stop.
      if (state.cancelling || state.status === 'preparing') return state;
      return { ...state, cancelling: true };
    case 'conversionFinished':
      return {
        status: 'complete',
        ...archiveOf(state),
        converted: withConverted(state.converted, event.results),
        authorization: state.authorization,
        results: event.results,
        totals: event.totals,
        refusals: event.refusals ?? [],
        capture: state.authorization.kind === 'free' ? { kind: 'notNeeded' } : { kind: 'pending' },
        downloaded: [],
        format: event.results.flatMap((result) => result.files)[0]?.format ?? 'kml',
        formatPending: null,
        zip: { kind: 'idle' },
        confirming: null,
        stopped: state.cancelling,
      };
    case 'conversionFailed':
      return {
        status: 'failed',
        ...archiveOf(state),
        error: state.cancelling ? MESSAGES.cancelled : event.message || MESSAGES.conversionFailed,
        cancelled: state.cancelling,
        authorization: state.authorization,
        capture: state.authorization.kind === 'free' ? { kind: 'notNeeded' } : { kind: 'pending' },
      };
    default:
      return state;
  }
}

/** True while the capture's (or release's) answer is awaited: first asked, or asked again. */
function awaitingCapture(state: AppState): state is StateIn<'complete' | 'failed'> {
  if (!('capture' in state)) return false;
  const { capture } = state;
  return capture.kind === 'pending' || (capture.kind === 'failed' && capture.retrying === true);
}

/**
 * The capture's (or release's) answer, on the results or a failed run, taken while it is awaited:
 * the receipt the server returned, or the failure's message; a failure the page asks again after
 * keeps the answer awaited.
 */
function settled(
  state: AppState,
  event: Extract<AppEvent, { type: 'captureSettled' | 'captureFailed' }>,
): AppState {
  if (!awaitingCapture(state)) return state;
  if (event.type === 'captureFailed') {
    const { message, retrying } = event;
    return { ...state, capture: { kind: 'failed', message, ...(retrying ? { retrying } : {}) } };
  }
  const { type: _, ...receipt } = event;
  return { ...state, capture: { kind: 'settled', ...receipt } };
}

/**
 * A failed run keeps its error and the hold's outcome in view. While the release is awaited the
 * page neither moves on nor forgets the archive, so its receipt cannot be missed; then the lists
 * can be opened again, or the archive removed.
 */
function fromFailed(state: StateIn<'failed'>, event: AppEvent): AppState {
  if (event.type !== 'selectionOpened' || state.capture.kind === 'pending') return state;
  return { status: 'selecting', ...archiveOf(state), error: null };
}

/** Every file the results offer: each map file (or part) and each failed-places CSV. */
function downloads(state: { results: readonly FileResult[] }): Array<{ key: string; url: string }> {
  return state.results.flatMap((result) => [
    ...result.files,
    ...(result.failed ? [result.failed] : []),
  ]);
}

/** The keys of every file the results offer (see {@link MapDownload.key}). */
export function downloadKeys(state: { results: readonly FileResult[] }): string[] {
  return downloads(state).map((file) => file.key);
}

function withDownloaded(state: StateIn<'complete'>, keys: readonly string[]): AppState {
  const fresh = keys.filter((key) => !state.downloaded.includes(key));
  return fresh.length === 0 ? state : { ...state, downloaded: [...state.downloaded, ...fresh] };
}

function fromComplete(state: StateIn<'complete'>, event: AppEvent): AppState {
  switch (event.type) {
    case 'fileDownloaded': {
      // The ZIP of "Download all" holds every file of the run.
      if (state.zip.kind === 'ready' && state.zip.url === event.url) {
        return withDownloaded(state, downloadKeys(state));
      }
      const file = downloads(state).find((download) => download.url === event.url);
      return file ? withDownloaded(state, [file.key]) : state;
    }
    case 'formatChosen':
      if (event.format === (state.formatPending ?? state.format)) return state;
      // Back to the format of the files offered while another is written: nothing to write.
      if (event.format === state.format) return { ...state, formatPending: null };
      return { ...state, formatPending: event.format };
    case 'formatFilesReady':
      if (event.format !== state.formatPending) return state;
      return {
        ...state,
        format: event.format,
        formatPending: null,
        results: state.results.map((result) => ({
          ...result,
          files: event.files[result.path] ?? [],
        })),
        zip:
          state.zip.kind === 'ready' && state.zip.format === event.format
            ? state.zip
            : { kind: 'idle' },
      };
    case 'formatFailed':
      if (event.format !== state.formatPending) return state;
      return { ...state, formatPending: null };
    case 'zipRequested':
      if (state.zip.kind === 'building' || state.formatPending !== null) return state;
      if (state.zip.kind === 'ready' && state.zip.format === state.format) return state;
      return { ...state, zip: { kind: 'building', format: state.format } };
    case 'zipReady':
      if (state.zip.kind !== 'building' || state.zip.format !== event.format) return state;
      return {
        ...state,
        zip: { kind: 'ready', format: event.format, url: event.url, fileName: event.fileName },
      };
    case 'zipFailed':
      if (state.zip.kind !== 'building') return state;
      return { ...state, zip: { kind: 'failed', message: event.message } };
    case 'discardRequested':
      // No map file to lose (a failed-places CSV alone is no loss): the effect goes ahead.
      if (state.confirming === event.action || undownloadedMaps(state).length === 0) return state;
      return { ...state, confirming: event.action };
    case 'discardCancelled':
      return state.confirming === null ? state : { ...state, confirming: null };
    case 'convertMoreConfirmed': {
      // Back to the selection, the lists neither in this run nor converted earlier chosen.
      const done = new Set([...state.converted, ...state.results.map((result) => result.path)]);
      const rest = preselectedPaths(state.lists).filter((path) => !done.has(path));
      return { status: 'selecting', ...archiveOf(state), selected: rest, error: null };
    }
    case 'retryPrepared': {
      if (event.lists.length === 0) return state;
      const retries = new Set(event.lists.map((list) => list.path));
      const archive = state.lists.filter(
        (list) => list.origin?.kind !== 'retry' && !retries.has(list.path),
      );
      return {
        status: 'selecting',
        ...archiveOf(state),
        lists: [...archive, ...event.lists],
        selected: event.lists.map((list) => list.path),
        error: null,
      };
    }
    default:
      return state;
  }
}

/** True while some file of the results has not been downloaded (in some format, or in the ZIP). */
export function hasUndownloaded(state: StateIn<'complete'>): boolean {
  return downloadKeys(state).some((key) => !state.downloaded.includes(key));
}

/**
 * The map files (lists' files, or parts of them) not downloaded in any format nor in the ZIP:
 * what Remove, "Convert more lists" and "Retry failed places" would lose, so they ask first. A
 * failed-places CSV is not among them: its places are still in the archive, and a retry lists
 * them again.
 */
export function undownloadedMaps(state: StateIn<'complete'>): readonly MapDownload[] {
  return state.results.flatMap((result) =>
    result.files.filter((file) => !state.downloaded.includes(file.key)),
  );
}

/**
 * Remove resets everything, except while a payment or a conversion is in flight, or while the
 * hold of a failed run is being released (its receipt is on its way).
 */
export function canRemove(state: AppState): boolean {
  if (state.status === 'failed') return state.capture.kind !== 'pending';
  return state.status !== 'authorizing' && !('progress' in state);
}

/**
 * Computes the next state. Pure: no clocks, no I/O, no randomness; ids that must be unique
 * (file, intent request) arrive inside the events.
 */
export function transition(state: AppState, event: AppEvent): AppState {
  if (event.type === 'captureSettled' || event.type === 'captureFailed')
    return settled(state, event);
  if (event.type === 'removed') {
    const clean =
      state.status === 'empty' && state.error === null && state.refusedFileName === null;
    return canRemove(state) && !clean ? INITIAL_STATE : state;
  }
  switch (state.status) {
    case 'empty':
      return fromEmpty(state, event);
    case 'inspecting':
      return fromInspecting(state, event);
    case 'loaded':
      if (event.type !== 'selectionOpened') return state;
      return { status: 'selecting', ...archiveOf(state), error: null };
    case 'selecting':
      return fromSelecting(state, event);
    case 'awaitingIntent':
      return fromAwaitingIntent(state, event);
    case 'paying':
      return fromPaying(state, event);
    case 'authorizing':
      return fromAuthorizing(state, event);
    case 'validating':
    case 'extracting':
    case 'converting':
    case 'preparing':
      return fromProcessing(state, event);
    case 'complete':
      return fromComplete(state, event);
    case 'failed':
      return fromFailed(state, event);
  }
}
