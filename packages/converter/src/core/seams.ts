/**
 * The converter's seams: what a caller plugs in (a link resolver, a logger) and what it hears back
 * (progress). Types and one error class only, so the core, the pipeline, the library and the worker
 * share them without importing each other.
 */
import type { LookupFailure } from './reasons.js';

/**
 * What a resolution service answers: original URL → URL carrying coordinates, and for links it
 * could not resolve, why (product.md's reasons). A link in neither is counted `not_found`.
 */
export interface ResolveAnswer {
  results: Record<string, string>;
  failures?: Record<string, LookupFailure>;
  /**
   * The service cannot reach the upstream at all (no route, DNS, refused connections: PlacePort's
   * resolver says so when its breaker opened for that reason). The run sends nothing more and does
   * not retry: every link not yet answered is `unavailable`.
   */
  unreachable?: boolean;
  /**
   * The service's failures in this answer are its last word for the run (it refused for good, as
   * a client past a 429's patience does): none is retried, so no retry round waits on it.
   */
  final?: boolean;
}

/**
 * Sends links to be resolved (the API's `POST /api/resolve-urls-batch`, or a local resolver).
 * `signal` aborts when the run is stopped, or when the batch's deadline passes: then its `reason`
 * is a `TimeoutError` ({@link isDeadline}), so a client can tell a service that never answered
 * from a run that stopped asking.
 */
export type ResolveUrls = (
  urls: string[],
  options: { signal: AbortSignal },
) => Promise<ResolveAnswer>;

/** The abort reason of a batch whose deadline passed (see {@link ResolveUrls}). */
export function deadlinePassed(): DOMException {
  return new DOMException('The batch got no answer before its deadline', 'TimeoutError');
}

/** True when `signal` was aborted because its batch's deadline passed, not because the run stopped. */
export function isDeadline(signal: AbortSignal): boolean {
  return (
    signal.aborted && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
  );
}

/**
 * A resolution request the service refused as a whole: `status` is its HTTP status (402/403: the
 * allowance is used; 429/503: busy, worth retrying). The message is the seed's "status: text".
 * `retryAfterMs` is how long the service asked to wait before asking again (its `Retry-After`),
 * when it said; `body` the refusal's body as read (its status text when it has none); `notAnApi`
 * what an OK answer that is not the service's was ("not JSON, text/html").
 */
export class ResolveRequestError extends Error {
  readonly retryAfterMs: number | undefined;
  readonly body: string | undefined;
  readonly notAnApi: string | undefined;

  constructor(
    readonly status: number,
    message: string,
    options: { retryAfterMs?: number | undefined; body?: string; notAnApi?: string } = {},
  ) {
    super(message);
    this.name = 'ResolveRequestError';
    this.retryAfterMs = options.retryAfterMs;
    this.body = options.body;
    this.notAnApi = options.notAnApi;
  }
}

/** Where the converter reports what it skipped or could not do (console by default in the worker). */
export interface Logger {
  warn(message: string, details?: unknown): void;
}

/** The stage a conversion is in; the web app's processing statuses follow it. */
export type ConversionStage = 'validating' | 'extracting' | 'converting' | 'preparing';

/** Progress of a conversion, at most about every 50 ms (product.md "Pace"). */
export interface ConversionProgress {
  stage: ConversionStage;
  /** 0-based index of the list being worked on, and how many lists were chosen. */
  fileIndex: number;
  fileCount: number;
  /** The list's file name, e.g. `Want to go.csv`. */
  fileName: string;
  /** Overall progress 0..100: per file a share of 100 with 25/50/75 marks per stage, 100 at preparing. */
  percent: number;
  /** What is being looked at now (a place URL or title), shown under "Extracting coordinates from URLs". */
  currentItem?: string;
  /**
   * While links are looked up: how many distinct places of the whole run have been answered, of
   * how many need a lookup (each place once, even when saved in several lists). `unsent`, once
   * the run has stopped sending (stopped, the upstream out of reach, refused for what it costs):
   * how many of the `done` were given their reason without being sent, so a rate or an estimate
   * can leave them out. `retry`, while the run pauses before a retry round: how many places are
   * to be sent again, and when (`at`, milliseconds since the epoch on the run's clock).
   */
  lookups?: {
    done: number;
    total: number;
    unsent?: number;
    retry?: { places: number; at: number };
  };
}
