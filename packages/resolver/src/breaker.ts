import type { Clock } from './clock.js';
import { UNREACHABLE_AFTER_FAILURES, UNREACHABLE_BACKOFF_MAX_MS } from './limits.js';

/** How a breaker backs off; every bound is a named constant in limits.ts. */
export interface BackoffTuning {
  /** First pause after Google refuses us. */
  backoffBaseMs: number;
  /** Longest pause, however often Google refuses. */
  backoffMaxMs: number;
}

/** Why a breaker is open: Google refused us, or Google cannot be reached at all. */
export type BreakerCause = 'refused' | 'unreachable';

/**
 * A circuit breaker for one upstream path (place pages, or the Places API). Closed, it lets
 * requests through. It opens when Google refuses us (consent wall, `/sorry/`, 429, 503, quota), or
 * when Google cannot be reached: {@link UNREACHABLE_AFTER_FAILURES} network failures or timeouts
 * in a row with no answer between them (no route, DNS, refused connections, TLS). Open, nothing
 * more is sent on that path for a pause of `base × 2^(opens−1)` (capped: at the tuning's maximum,
 * and at {@link UNREACHABLE_BACKOFF_MAX_MS} while unreachable), with ±50% jitter so
 * several instances do not come back in step; failures of requests already in flight while it is
 * open leave the pause as it is. After the pause one probe goes through; any answer closes the
 * breaker, another refusal or unreachable probe reopens it for twice as long.
 */
export class Breaker {
  private refusals = 0;
  private openUntil = 0;
  private probing = false;
  private probeDone: (() => void) | undefined;
  private probeOutcome: Promise<void> | undefined;
  private failuresInRow = 0;
  private lastCause: BreakerCause = 'refused';

  constructor(
    private readonly clock: Clock,
    private readonly tuning: BackoffTuning,
  ) {}

  /** True when a request may be sent now; while half-open, only one caller gets true. */
  allow(): boolean {
    if (this.refusals === 0) return true;
    if (this.clock.now() < this.openUntil || this.probing) return false;
    this.startProbe();
    return true;
  }

  /**
   * While the probe of a half-open breaker is in flight, a promise that settles once it is
   * answered (whatever the answer); undefined otherwise. Lookups that find the breaker probing
   * wait for it rather than fail: when Google is back, the probe closes the breaker and they go
   * on, instead of a whole batch failing `unreachable` beside one probe that got through.
   */
  get probe(): Promise<void> | undefined {
    return this.probing ? this.probeOutcome : undefined;
  }

  private startProbe(): void {
    this.probing = true;
    this.probeOutcome = new Promise((resolve) => (this.probeDone = resolve));
  }

  /** The probe (if one was in flight) is answered: whoever waits for it goes on. */
  private endProbe(): void {
    this.probing = false;
    this.probeDone?.();
    this.probeDone = undefined;
    this.probeOutcome = undefined;
  }

  /** Milliseconds until a request may be tried again (0 when closed). */
  retryAfterMs(): number {
    return this.refusals === 0 ? 0 : Math.max(0, this.openUntil - this.clock.now());
  }

  /** Whether the breaker is open or probing (Google refused us, or could not be reached, recently). */
  get refusing(): boolean {
    return this.refusals > 0;
  }

  /** Why the breaker is open, when it is: refused, or unreachable. */
  get cause(): BreakerCause {
    return this.lastCause;
  }

  /** Google answered (whatever it said): the path works. */
  succeeded(): void {
    this.refusals = 0;
    this.endProbe();
    this.failuresInRow = 0;
  }

  /** A request ended with an answer that settles nothing (a 5xx): a probe may be tried again. */
  inconclusive(): void {
    this.endProbe();
  }

  /**
   * A request got no answer at all (network error or timeout). Past a handful in a row, or when it
   * was the probe of an open breaker, Google is taken to be unreachable and the breaker opens.
   */
  unreachable(): void {
    this.failuresInRow += 1;
    const probe = this.probing;
    this.endProbe();
    if (probe || this.failuresInRow >= UNREACHABLE_AFTER_FAILURES) this.open('unreachable');
  }

  refused(): void {
    this.open('refused');
  }

  private open(cause: BreakerCause): void {
    this.endProbe();
    // Requests sent before the breaker opened keep failing for a moment: they find it open and
    // leave the pause as it is. Only a failure once the pause is over (the probe) doubles it, so a
    // burst of 32 failures in flight is one step of back-off, not 15 minutes at once.
    if (this.refusals > 0 && this.clock.now() < this.openUntil) return;
    this.lastCause = cause;
    this.refusals += 1;
    // Out of reach is not Google asking us to go away: a probe costs one request, so it is tried
    // at least every UNREACHABLE_BACKOFF_MAX_MS (±50%), and a run resumes soon after Google is back.
    const longest =
      cause === 'unreachable'
        ? Math.min(this.tuning.backoffMaxMs, UNREACHABLE_BACKOFF_MAX_MS)
        : this.tuning.backoffMaxMs;
    const pause = Math.min(
      longest,
      this.tuning.backoffBaseMs * 2 ** Math.min(this.refusals - 1, 20),
    );
    this.openUntil = this.clock.now() + Math.round(pause * (0.5 + this.clock.random()));
  }
}
