/**
 * The web app's state and events (architecture.md, "The web app's state machine").
 * States are a discriminated union on `status`; events are nouns of what happened, never setters.
 */
import type { CaptureOutcome, PaymentStatus } from '../api/client';
import type { Refusal } from '../api/http';
import type {
  ConversionProgress,
  ConversionStage,
  ConversionSummary,
  ListOutcome,
  ListSummary,
  MapOutputFile,
  OutputFormat,
  UnplacedReason,
} from '../worker/types';

/** What the page shows of the chosen archive before it is read. */
export type FileInfo = Pick<File, 'name' | 'size'>;

/** An archive whose lists are known, with the paths (list identities) the visitor has chosen. */
export interface Archive {
  file: FileInfo;
  lists: readonly ListSummary[];
  /** Chosen list paths, always in the archive's list order. */
  selected: readonly string[];
  /**
   * Paths of the lists converted in this session (at least one place placed), in the order their
   * runs finished: the selection marks them, and "Convert more lists" leaves them unchosen.
   */
  converted: readonly string[];
}

/**
 * Leave to convert: free (under the minimum charge), a card authorization held by an intent, or
 * the hold an earlier visit left open for the same lists of the same archive ({@link HeldPayment}).
 */
export type Authorization =
  | { kind: 'free' }
  | {
      kind: 'card';
      clientSecret: string;
      paymentIntentId: string;
      /**
       * Another tab of this browser is converting lists of this archive chosen here, with a
       * payment of its own (its note, under its Web Lock): places converted in both are charged
       * in both, and the payment view says so.
       */
      anotherTab?: boolean;
    }
  | ({ kind: 'held' } & HeldPayment);

/**
 * A payment an earlier visit authorized for lists of this archive and left open (a reload, a
 * closed tab): a run of the same lists, or some of them, can use it instead of a new hold. Its
 * allowance counts distinct links, so the places it already found cost nothing again, and the
 * capture charges for every place found with it once (product.md "Money").
 */
export interface HeldPayment {
  paymentIntentId: string;
  amountAuthorizedCents: number;
  /** The places it authorized: the capture's `totalCount`, whatever this run's selection. */
  placesAuthorized: number;
  /** The server's count of places it found so far (both visits' capture charges at least these). */
  placesResolved: number;
}

/** The processing statuses of the seed between idle and complete: the worker's stages. */
export type ProcessingStage = ConversionStage;

/** What the processing card shows: the worker's last report, and the lookups' time left. */
export interface Progress extends Pick<
  ConversionProgress,
  'percent' | 'fileIndex' | 'fileCount' | 'fileName'
> {
  /** The place being looked at, shown under "Extracting coordinates from URLs". */
  currentItem: string | null;
  /** While places are looked up: answered so far of the run's distinct lookups. */
  lookups: NonNullable<ConversionProgress['lookups']> | null;
  /** The lookups' time left, once there is a fair estimate. */
  secondsLeft: number | null;
}

/**
 * One map file ready to download (a list, or one part of a split list), in the chosen format: the
 * worker's file with its bytes turned into a Blob URL.
 */
export interface MapDownload extends Omit<MapOutputFile, 'bytes' | 'mimeType'> {
  /**
   * The file whatever its format (`<list path>#<part>/<parts>`): a file downloaded as KML counts as
   * downloaded when the format changes.
   */
  key: string;
  /** A Blob URL, revoked on Remove, on a change of format, or when the page goes away. */
  url: string;
}

/** The CSV of places without coordinates, for retry; its key is `<list path>#failed`. */
export interface FailedDownload extends Pick<MapDownload, 'key' | 'fileName' | 'url'> {
  count: number;
}

/** "Download all": one ZIP of every file of the run in the chosen format, made on request. */
export type ZipDownload =
  | { kind: 'idle' }
  | { kind: 'building'; format: OutputFormat }
  | { kind: 'ready'; format: OutputFormat; url: string; fileName: string }
  | { kind: 'failed'; message: string };

/** Place counts of one list or of the whole run. */
export type Counts = ConversionSummary['totals'];

/**
 * One chosen list after conversion, as the results card shows it: the worker's outcome for the list
 * (its identity: path, output name, file name) with its downloads as Blob URLs.
 */
export interface FileResult extends Pick<ListOutcome, 'path' | 'name' | 'outputName' | 'fileName'> {
  counts: Counts;
  /** Places left without coordinates, by reason (product.md "Resolution"). */
  unplaced: Partial<Record<UnplacedReason, number>>;
  /** Set when the list failed validation; then there are no downloads. */
  skippedReason: string | null;
  /** The list was read and holds no place: nothing to convert, and not a failure. */
  empty: boolean;
  /** Its map files in the chosen format (none when no place got coordinates). */
  files: readonly MapDownload[];
  failed: FailedDownload | null;
}

/**
 * The receipt of a settled payment (product.md "Money": held, charged, released, reference, date):
 * the API's capture answer in cents, and when the page got it.
 */
export interface Receipt extends CaptureOutcome {
  /** When the page got the answer, in ms since the epoch (the visitor's clock). */
  settledAt: number;
}

/**
 * A payment from an earlier visit whose run never settled it (a reload, a closed tab): where it
 * stands now, as the API said (see `lastPayment.ts`), and what the page is doing about it.
 */
export interface LastVisit {
  payment: PaymentStatus;
  /**
   * The places that run converted, when its conversion finished (its files were made) and only
   * the payment was left unsettled; null when the run never finished.
   */
  converted: number | null;
  /** "Settle it now" is under way. */
  settling: boolean;
  /**
   * When a page of this browser saw it settled (the receipt's date, kept in the payment's note, so
   * it outlives a reload); null when it is open or was settled while no page of it looked.
   */
  settledAt: number | null;
  /** "Settle it now" failed: what to say. */
  error: string | null;
  /**
   * The name of the archive the payment was for, when its note says (notes of earlier versions of
   * the page do not): while it is held, a run of the same lists of that archive may use it.
   */
  archiveName: string | null;
}

/**
 * Where the payment stands after the run: after a finished conversion, the capture of what
 * converted; after a failed one, the release of the hold (a claim of nothing converted, which the
 * server answers by charging the places it looked up, or by cancelling).
 */
export type Capture =
  | { kind: 'notNeeded' }
  | { kind: 'pending' }
  | ({ kind: 'settled' } & Receipt)
  /**
   * The call failed; `message` says why. `retrying`: it got no answer (the connection dropped),
   * the page asks again, and what was charged is not known yet.
   */
  | { kind: 'failed'; message: string; retrying?: boolean };

/** What leaves the results behind: Remove, "Convert more lists", "Retry failed places". */
export type DiscardAction = 'remove' | 'convertMore' | 'retry';

export type AppState =
  | {
      status: 'empty';
      error: string | null;
      refusedFileName: string | null;
      /**
       * The archive read held no list and its name says it is this part of an export in several
       * (`takeout-…-002.zip`): the lists are in another part.
       */
      part?: number;
    }
  | { status: 'inspecting'; fileId: number; file: FileInfo }
  | ({ status: 'loaded'; error: string | null } & Archive)
  | ({ status: 'selecting'; error: string | null } & Archive)
  | ({ status: 'awaitingIntent'; requestId: number } & Archive)
  | ({
      status: 'paying';
      authorization: Authorization;
      /**
       * Why the last authorization failed (a declined card), kept in the payment view until the
       * next attempt: the toast that says it goes after a few seconds.
       */
      error?: string;
    } & Archive)
  | ({ status: 'authorizing'; authorization: Authorization } & Archive)
  | ({
      status: ProcessingStage;
      authorization: Authorization;
      progress: Progress;
      /** Cancel was pressed: the run is stopping (its lookups end, the lists done are kept). */
      cancelling: boolean;
    } & Archive)
  | ({
      status: 'complete';
      authorization: Authorization;
      results: readonly FileResult[];
      totals: Counts;
      /** The API's refusals of the run's lookups, named in the results with what to do. */
      refusals: readonly Refusal[];
      capture: Capture;
      /** Keys of the files the visitor has downloaded (clicked, or in a downloaded ZIP), in order. */
      downloaded: readonly string[];
      /** The format of the files offered (KML first). */
      format: OutputFormat;
      /** A format asked for whose files the worker is writing. */
      formatPending: OutputFormat | null;
      zip: ZipDownload;
      /** A step that would discard files not yet downloaded, waiting for the person to confirm. */
      confirming: DiscardAction | null;
      /** The person stopped the run (Cancel): the lists hold what was placed before it stopped. */
      stopped: boolean;
    } & Archive)
  | ({
      /** The conversion failed: nothing to download; the hold is settled and its receipt kept. */
      status: 'failed';
      /** What went wrong, in the worker's words or the seed's default. */
      error: string;
      /** The person cancelled the run and the worker was ended: nothing was kept. */
      cancelled: boolean;
      authorization: Authorization;
      capture: Capture;
    } & Archive);

export type Status = AppState['status'];

/** The state while its status is one of `S`. */
export type StateIn<S extends Status> = Extract<AppState, { status: S }>;

export type AppEvent =
  | { type: 'fileChosen'; fileId: number; file: FileInfo }
  | { type: 'archiveInspected'; fileId: number; lists: readonly ListSummary[] }
  | { type: 'archiveRejected'; fileId: number; message: string }
  | { type: 'listToggled'; path: string }
  | { type: 'allListsSelected' }
  | { type: 'allListsDeselected' }
  | { type: 'selectionOpened' }
  | { type: 'dialogDismissed' }
  | { type: 'paymentRequested'; requestId: number }
  | {
      type: 'intentCreated';
      requestId: number;
      clientSecret: string;
      paymentIntentId: string;
      /** Another tab is converting lists of this selection with its own payment. */
      anotherTab?: boolean;
    }
  /** The intent was refused or could not be made: `message` says why and what to do. */
  | { type: 'intentFailed'; requestId: number; message: string }
  /** Instead of a new intent: the hold an earlier visit left for these lists is still open. */
  | ({ type: 'heldPaymentFound'; requestId: number } & HeldPayment)
  /**
   * "Use a New Card Instead", or the held payment could not be used after all (settled meanwhile,
   * in use in another tab): a new intent is asked for.
   */
  | { type: 'newPaymentRequested'; requestId: number }
  | { type: 'selectionResumed' }
  | { type: 'authorizationSubmitted' }
  | { type: 'authorizationFailed'; message?: string }
  | { type: 'paymentAuthorized' }
  | { type: 'progressReported'; progress: ConversionProgress; secondsLeft?: number | null }
  /** Cancel during processing: stop the run, keep what is done, settle the payment for it. */
  | { type: 'cancelRequested' }
  | {
      type: 'conversionFinished';
      results: readonly FileResult[];
      totals: Counts;
      /** What the API said when it refused lookups during the run (one per code). */
      refusals?: readonly Refusal[];
    }
  | { type: 'conversionFailed'; message: string }
  /** The API answered the capture (after the results) or the release (after a failure). */
  | ({ type: 'captureSettled' } & Receipt)
  /**
   * The capture or release call failed; `message` quotes the payment's reference. `retrying`: it
   * got no answer, and the page asks again (its answer is taken then).
   */
  | { type: 'captureFailed'; message: string; retrying?: boolean }
  | { type: 'fileDownloaded'; url: string }
  | { type: 'formatChosen'; format: OutputFormat }
  | {
      type: 'formatFilesReady';
      format: OutputFormat;
      /** Map files per list path (lists without map files left out). */
      files: Readonly<Record<string, readonly MapDownload[]>>;
    }
  | { type: 'formatFailed'; format: OutputFormat }
  | { type: 'zipRequested' }
  | { type: 'zipReady'; format: OutputFormat; url: string; fileName: string }
  | { type: 'zipFailed'; message: string }
  /** Remove or "Convert more lists" while files are not downloaded: ask first. */
  | { type: 'discardRequested'; action: DiscardAction }
  | { type: 'discardCancelled' }
  /** "Convert more lists": back to the selection with the same archive. */
  | { type: 'convertMoreConfirmed' }
  /** "Retry failed places": the worker made lists of them; they are chosen in the selection. */
  | { type: 'retryPrepared'; lists: readonly ListSummary[] }
  | { type: 'removed' };

export type EventType = AppEvent['type'];
