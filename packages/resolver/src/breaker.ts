import type { Clock } from './clock.js';

/** How a breaker backs off; every bound is a named constant in limits.ts. */
export interface BackoffTuning {
  /** First pause after Google refuses us. */
  backoffBaseMs: number;
  /** Longest pause, however often Google refuses. */
  backoffMaxMs: number;
}

/**
 * A circuit breaker for one upstream path (place pages, or the Places API). Closed, it lets
 * requests through. When Google refuses us (consent wall, `/sorry/`, 429, 503, quota) it opens:
 * nothing more is sent on that path for a pause of `base × 2^(refusals−1)` (capped), with ±50%
 * jitter so several instances do not come back in step. After the pause one probe goes through;
 * its success closes the breaker, another refusal reopens it for twice as long.
 */
export class Breaker {
  private refusals = 0;
  private openUntil = 0;
  private probing = false;

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

  /** Whether the breaker is open or probing (Google refused us recently). */
  get refusing(): boolean {
    return this.refusals > 0;
  }

  succeeded(): void {
    this.refusals = 0;
    this.probing = false;
  }

  /** A request ended without an answer either way (timeout, network): a probe may be tried again. */
  inconclusive(): void {
    this.probing = false;
  }

  refused(): void {
    this.refusals += 1;
    this.probing = false;
    const pause = Math.min(
      this.tuning.backoffMaxMs,
      this.tuning.backoffBaseMs * 2 ** Math.min(this.refusals - 1, 20),
    );
    this.openUntil = this.clock.now() + Math.round(pause * (0.5 + this.clock.random()));
  }
}
