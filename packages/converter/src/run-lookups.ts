/**
 * The lookups of one conversion run: every distinct place that needs one, across all its lists,
 * sent in requests of a run-wide size with a few in flight (lists never wait for each other), then
 * a few retry rounds at the end, with growing pauses, for what came back `throttled` or
 * `unavailable`. It stops sending when the service says the upstream cannot be reached, when it
 * refuses a request for what it may cost (402, 403, 413: the rest are `limit` unsent), or when the
 * caller stops the run.
 */
import { isLookupFailure, RETRYABLE_FAILURES, type UnplacedReason } from './core/reasons.js';
import type { LookupFailure } from './core/reasons.js';
import { extractCoordinates } from './core/coordinates.js';
import {
  deadlinePassed,
  ResolveRequestError,
  type Logger,
  type ResolveUrls,
} from './core/seams.js';
import type { ParsedPlace } from './core/types.js';

/** The seed's batch resolution timeout. */
export const RESOLVE_TIMEOUT_MS = 120_000;
/** Requests to the API in flight at once, across all the lists of a run. */
export const RESOLVE_CONCURRENCY = 2;
/**
 * Pause before the run's first retry of the links that came back `throttled` or `unavailable`: they
 * are sent again together at the end of the run (not list by list), in at most
 * {@link RESOLVE_RETRY_BACKOFF}`.length` rounds whose pauses grow by its factors (5 s, 10 s, 20 s,
 * 40 s), all within one request deadline ({@link RESOLVE_TIMEOUT_MS}, product.md "Outputs"): a
 * server or network out for a minute (a laptop changing Wi-Fi, the API restarting) costs the run
 * nothing. Three rounds (35 s) gave up on a server back after 40 s.
 */
export const RESOLVE_RETRY_DELAY_MS = 5_000;
/** Each retry round's pause, as a multiple of the first ({@link RESOLVE_RETRY_DELAY_MS}). */
export const RESOLVE_RETRY_BACKOFF: readonly number[] = [1, 2, 4, 8];

/** What a link got: a URL carrying coordinates, or why it has none. */
export type LinkAnswer = { url: string } | { reason: UnplacedReason };

/** A place to look up: its lookup key (one per distinct place) and the link sent for it. */
export type LookupEntry = readonly [key: string, url: string];

/** What hears the device come back online (a page's `window`, a worker's `self`). */
export type Connectivity = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

/** How a run looks links up; the pipeline fills it from its options. */
export interface LookupSettings {
  resolveUrls: ResolveUrls;
  /** Links per request. */
  chunkSize: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Deadline of one request; the retry round as a whole also ends within it. */
  timeoutMs: number;
  /** Pause before the retry round, or null for none. */
  retryDelayMs: number | null;
  /**
   * How long a request whose signal aborted may still take to settle (with what it found so far,
   * as the CLI's resolver answers a stop) before it is abandoned unanswered.
   */
  abandonAfterMs: number;
  now: () => number;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Stops the run: nothing more is sent, requests in flight are abandoned. */
  signal: AbortSignal | undefined;
  /** Ends a retry round's pause when the device comes back online. */
  connectivity: Connectivity | undefined;
  logger: Logger;
  /**
   * `count` more places have their final answer; `url` is a link among them. `unsent`: they were
   * given their reason without being sent (the run stopped sending: stopped, the upstream out of
   * reach, refused for what it costs).
   */
  onSettled: (count: number, url: string, unsent: boolean) => void;
  /**
   * The run pauses before a retry round: `places` are to be sent again at `at` (on `now`'s clock),
   * so a person is told why nothing moves; told with 0 places when the round starts.
   */
  onRetrying?: (places: number, at: number) => void;
}

/**
 * The statuses of a request refused for what it may cost, answered `limit` (not retried: the same
 * request would be refused again): 402 (payment required, the day's free lookups used), 403 (the
 * payment's links used) and 413, a PlacePort API refusing a request with more links than a free one
 * may hold (`payload_too_large`, before its body is read).
 */
const LIMIT_STATUSES = new Set([402, 403, 413]);

/** The reason a whole failed request gives each of its links. */
function batchFailure(error: unknown, timedOut: boolean): LookupFailure {
  if (timedOut || !(error instanceof ResolveRequestError)) return 'unavailable';
  if (LIMIT_STATUSES.has(error.status)) return 'limit';
  // Any other refusal of the whole request (a 400 such as too_many_urls, a 5xx) says nothing about
  // the links themselves: they were checked against the resolver's allowlist before they were
  // sent, so they stay retryable rather than being called "not a Google Maps link".
  return 'unavailable';
}

/**
 * Sends one request within `timeoutMs` (the signal aborts after it, or when the run is stopped),
 * and reads every link's answer; a request that fails as a whole gives all its links one reason.
 */
async function ask(
  settings: LookupSettings,
  urls: string[],
  timeoutMs: number,
): Promise<{
  answers: Map<string, LinkAnswer>;
  unreachable: boolean;
  refused: boolean;
  final: boolean;
}> {
  const { resolveUrls, logger, signal: stop } = settings;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(deadlinePassed());
  }, timeoutMs);
  const onStop = () => controller.abort();
  stop?.addEventListener('abort', onStop);
  // A resolver that never settles (a hung socket, a signal it does not heed) is abandoned a while
  // after the batch's signal aborts, as if it had heeded it: the deadline and a stop hold whatever it
  // does. The while lets one that heeds it answer with what it found before the abort.
  let abandon: ReturnType<typeof setTimeout> | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    controller.signal.addEventListener(
      'abort',
      () => {
        abandon = setTimeout(() => reject(controller.signal.reason), settings.abandonAfterMs);
      },
      { once: true },
    );
  });
  try {
    const answer = await Promise.race([
      resolveUrls(urls, { signal: controller.signal }),
      abandoned,
    ]);
    const answers = new Map<string, LinkAnswer>();
    for (const url of urls) {
      const resolved = answer.results[url];
      const failure = answer.failures?.[url];
      answers.set(
        url,
        typeof resolved === 'string'
          ? { url: resolved }
          : { reason: isLookupFailure(failure) ? failure : 'not_found' },
      );
    }
    return {
      answers,
      unreachable: answer.unreachable === true,
      refused: false,
      final: answer.final === true,
    };
  } catch (error) {
    if (stop?.aborted) {
      // Stopped on purpose: nothing to warn about.
    } else if (timedOut) logger.warn('Batch URL resolution timeout');
    else {
      logger.warn(
        'Batch URL resolution failed; continuing without resolved URLs',
        error instanceof Error ? error.message : error,
      );
    }
    const reason = batchFailure(error, timedOut);
    return {
      answers: new Map(urls.map((url) => [url, { reason }])),
      unreachable: false,
      refused: reason === 'limit',
      final: false,
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(abandon);
    stop?.removeEventListener('abort', onStop);
  }
}

const isRetryable = (answer: LinkAnswer | undefined) =>
  answer !== undefined && 'reason' in answer && RETRYABLE_FAILURES.has(answer.reason);

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * The run's lookups. Created with every distinct place of the run in list order, it starts sending
 * at once. {@link RunLookups.firstAnswers} waits for some places' first answers (a list's), and
 * {@link RunLookups.finish} runs the retry rounds and settles everything. Each place counts once
 * towards progress, when its answer is final: a place waiting for the retry is not done yet, so the
 * total never grows and the estimate stays honest.
 */
export class RunLookups {
  private readonly answers = new Map<string, LinkAnswer>();
  private readonly final = new Set<string>();
  private readonly chunkDone = new Map<string, Promise<void>>();
  private readonly firstPass: Promise<void>;
  /** The service said the upstream cannot be reached: nothing more is sent. */
  private halted = false;
  /**
   * The service refused a request as a whole for what it may cost (402, 403, 413: the allowance is
   * used, or a free request may not be that large): every later request would be refused the same
   * way, so nothing more is sent and every place not yet asked about is `limit` unsent. Without
   * this, a library run past the day's free lookups sent its thousands of remaining requests, each
   * refused at once.
   */
  private refused = false;
  /** A retry request got no answer but refusals: the rest of this retry round is not sent. */
  private retryRefused = false;
  /** The service said its failures are final (`ResolveAnswer.final`): no retry round. */
  private noRetry = false;
  /** Retry rounds that may still follow the one under way. */
  private roundsLeft = RESOLVE_RETRY_BACKOFF.length;

  constructor(
    private readonly entries: readonly LookupEntry[],
    private readonly settings: LookupSettings,
  ) {
    const chunks = chunksOf(entries, settings.chunkSize);
    const resolvers: Array<() => void> = [];
    for (const chunk of chunks) {
      const done = new Promise<void>((resolve) => resolvers.push(resolve));
      for (const [key] of chunk) this.chunkDone.set(key, done);
    }
    this.firstPass = this.pass(
      chunks,
      'first',
      () => settings.timeoutMs,
      (i) => resolvers[i]!(),
    );
    // Awaited by firstAnswers and finish, which pass a failure on; never left unhandled meanwhile.
    this.firstPass.catch(() => {});
  }

  private get stopped(): boolean {
    return this.settings.signal?.aborted === true;
  }

  /** Whether a link that failed now may still be tried again in this run. */
  private get retryAhead(): boolean {
    return (
      this.settings.retryDelayMs !== null &&
      this.roundsLeft > 0 &&
      !this.halted &&
      !this.refused &&
      !this.noRetry &&
      !this.stopped
    );
  }

  /** The answer a place has now (undefined before its first). */
  answer(key: string): LinkAnswer | undefined {
    return this.answers.get(key);
  }

  /** Whether a place's answer is final (no retry will change it). */
  isFinal(key: string): boolean {
    return this.final.has(key);
  }

  /** Resolves once each of these places has its first answer (or was given up on). */
  async firstAnswers(keys: Iterable<string>): Promise<void> {
    const waits = new Set<Promise<void>>();
    for (const key of keys) {
      const done = this.chunkDone.get(key);
      if (done) waits.add(done);
    }
    // A pass that failed (a progress callback that threw) ends the wait with its error.
    await Promise.race([Promise.all(waits), this.firstPass]);
  }

  /**
   * Waits for the first pass, then sends again, together, every link that came back `throttled`
   * or `unavailable`: in rounds after growing pauses ({@link RESOLVE_RETRY_BACKOFF}), all within
   * one request deadline, until none is left. A retry request whose every link is refused or fails
   * again ends its round (the upstream is still refusing or failing: the rest wait for the next
   * round); an unreachable upstream and a stopped run end them all.
   */
  async finish(): Promise<void> {
    await this.firstPass;
    const { retryDelayMs, now, sleep, signal, timeoutMs } = this.settings;
    const deadline = now() + timeoutMs;
    for (const factor of RESOLVE_RETRY_BACKOFF) {
      const again = this.entries.filter(([key]) => !this.final.has(key));
      if (again.length === 0 || !this.retryAhead || retryDelayMs === null) break;
      const pause = retryDelayMs * factor;
      // A round that could not start before the deadline is not waited for.
      if (now() + pause >= deadline) break;
      this.settings.onRetrying?.(again.length, now() + pause);
      const pauseEnds = pauseSignal(signal, this.settings.connectivity);
      try {
        await sleep(pause, pauseEnds.signal);
      } finally {
        pauseEnds.release();
        this.settings.onRetrying?.(0, now());
      }
      this.roundsLeft -= 1;
      this.retryRefused = false;
      await this.pass(chunksOf(again, this.settings.chunkSize), 'retry', () => deadline - now());
    }
    this.settle(this.entries.filter(([key]) => !this.final.has(key)));
  }

  /** Counts these places as done (their answers are final now); `unsent`: never sent. */
  private settle(entries: readonly LookupEntry[], unsent = false): void {
    let count = 0;
    for (const [key] of entries) {
      if (this.final.has(key)) continue;
      this.final.add(key);
      count += 1;
    }
    if (count > 0) this.settings.onSettled(count, entries.at(-1)![1], unsent);
  }

  /**
   * Sends one batch and records its answers, or, when the run no longer sends (stopped, the
   * upstream out of reach, the retry round refused or its deadline passed), gives its places their
   * reason unsent.
   */
  private async send(
    chunk: readonly LookupEntry[],
    round: 'first' | 'retry',
    timeout: number,
  ): Promise<void> {
    if (this.halted || this.refused || this.stopped || this.retryRefused || timeout <= 0) {
      // Never sent: the first pass says why (and no retry follows); a retry keeps the last answer,
      // for a later round or for good (`finish` settles what is left).
      if (round === 'first') {
        const reason: UnplacedReason = this.refused
          ? 'limit'
          : this.halted
            ? 'unavailable'
            : 'interrupted';
        for (const [key] of chunk) this.answers.set(key, { reason });
        this.settle(chunk, true);
      }
      return;
    }
    const { answers, unreachable, refused, final } = await ask(
      this.settings,
      chunk.map(([, url]) => url),
      timeout,
    );
    if (unreachable) this.halted = true;
    if (refused) this.refused = true;
    if (final) this.noRetry = true;
    const cutShort = this.stopped;
    let answered = 0;
    const finished: LookupEntry[] = [];
    for (const entry of chunk) {
      const [key, url] = entry;
      const answer = answers.get(url) ?? { reason: 'not_found' };
      if (isRetryable(answer)) {
        // A request cut short by the stop left its links unasked: first time, they were not
        // looked up; on the retry, the first reason stands. Otherwise the latest reason counts.
        if (round === 'first') this.answers.set(key, cutShort ? { reason: 'interrupted' } : answer);
        else if (!cutShort) this.answers.set(key, answer);
      } else {
        answered += 1;
        this.answers.set(key, answer);
      }
      if (!isRetryable(this.answers.get(key)) || !this.retryAhead) finished.push(entry);
    }
    if (round === 'retry' && answered === 0) this.retryRefused = true;
    this.settle(finished);
  }

  /** Sends `chunks`, a few at a time, until they are all answered or the run stops sending. */
  private async pass(
    chunks: readonly LookupEntry[][],
    round: 'first' | 'retry',
    timeoutFor: () => number,
    onChunk?: (index: number) => void,
  ): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const index = next++;
        try {
          await this.send(chunks[index]!, round, timeoutFor());
        } finally {
          // Whatever happened, no one waits for this batch for ever.
          onChunk?.(index);
        }
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(this.settings.concurrency, chunks.length) }, worker),
    );
  }
}

/** A place of a list waiting for its lookup, under its lookup key. */
export interface Waiting {
  place: ParsedPlace;
  key: string;
}

/**
 * Gives waiting places what their lookup found: coordinates read from the resolved URL, or the
 * reason there are none (`not_found` for a resolved URL without coordinates). Returns how many
 * were placed.
 */
export function placeWaiting(waiting: readonly Waiting[], lookups: RunLookups | undefined): number {
  let placed = 0;
  for (const { place, key } of waiting) {
    const answer = lookups?.answer(key) ?? { reason: 'not_found' };
    const found = 'url' in answer ? extractCoordinates(answer.url) : undefined;
    if (found) {
      place.coordinates = found.coordinates;
      placed += 1;
    } else {
      place.reason = 'reason' in answer ? answer.reason : 'not_found';
    }
  }
  return placed;
}

/**
 * The signal a retry round's pause ends with: the run's stop, or the device coming back online
 * (`connectivity`'s `online` event), whichever is first; `release` stops listening.
 */
function pauseSignal(
  signal: AbortSignal | undefined,
  connectivity: Connectivity | undefined,
): { signal: AbortSignal | undefined; release: () => void } {
  if (!connectivity) return { signal, release: () => {} };
  const ends = new AbortController();
  const end = () => ends.abort();
  if (signal?.aborted) end();
  signal?.addEventListener('abort', end);
  connectivity.addEventListener('online', end);
  return {
    signal: ends.signal,
    release: () => {
      signal?.removeEventListener('abort', end);
      connectivity.removeEventListener('online', end);
    },
  };
}
