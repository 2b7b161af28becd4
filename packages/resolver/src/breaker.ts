import type { Clock } from './clock.js';
import { UNREACHABLE_AFTER_FAILURES } from './limits.js';

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
 * more is sent on that path for a pause of `base × 2^(opens−1)` (capped), with ±50% jitter so
 * several instances do not come back in step; failures of requests already in flight while it is
 * open leave the pause as it is. After the pause one probe goes through; any answer closes the
 * breaker, another refusal or unreachable probe reopens it for twice as long.
 */
export class Breaker {
  private refusals = 0;
  private openUntil = 0;
  private probing = false;
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
    this.probing = true;
    return true;
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
    this.probing = false;
    this.failuresInRow = 0;
  }

  /** A request ended with an answer that settles nothing (a 5xx): a probe may be tried again. */
  inconclusive(): void {
    this.probing = false;
  }

  /**
   * A request got no answer at all (network error or timeout). Past a handful in a row, or when it
   * was the probe of an open breaker, Google is taken to be unreachable and the breaker opens.
   */
  unreachable(): void {
    this.failuresInRow += 1;
    const probe = this.probing;
    this.probing = false;
    if (probe || this.failuresInRow >= UNREACHABLE_AFTER_FAILURES) this.open('unreachable');
  }

  refused(): void {
    this.open('refused');
  }

  private open(cause: BreakerCause): void {
    this.probing = false;
    // Requests sent before the breaker opened keep failing for a moment: they find it open and
    // leave the pause as it is. Only a failure once the pause is over (the probe) doubles it, so a
    // burst of 32 failures in flight is one step of back-off, not 15 minutes at once.
    if (this.refusals > 0 && this.clock.now() < this.openUntil) return;
    this.lastCause = cause;
    this.refusals += 1;
    const pause = Math.min(
      this.tuning.backoffMaxMs,
      this.tuning.backoffBaseMs * 2 ** Math.min(this.refusals - 1, 20),
    );
    this.openUntil = this.clock.now() + Math.round(pause * (0.5 + this.clock.random()));
  }
}
