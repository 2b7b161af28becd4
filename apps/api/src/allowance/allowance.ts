import { ApiError } from '../http/errors.js';
import { FREE_TIER_MAX_URLS, MAX_TRACKED_INTENTS, MAX_URLS_PER_CALL } from './limits.js';

/**
 * How many links a caller may have resolved. Without a payment, a batch holds at most
 * {@link FREE_TIER_MAX_URLS}; with an authorized payment, at most its place count per call and in
 * total over all calls for that payment, and never more than {@link MAX_URLS_PER_CALL} per call.
 */
export class LinkAllowance {
  private readonly used = new Map<string, number>();

  constructor(private readonly maxTracked = MAX_TRACKED_INTENTS) {}

  /** Refuses a free batch over the free-tier size. */
  checkFree(count: number): void {
    if (count > FREE_TIER_MAX_URLS) {
      throw new ApiError(
        402,
        'payment_required',
        `Without a payment, at most ${FREE_TIER_MAX_URLS} links can be looked up per request.`,
      );
    }
  }

  /** Books `count` links against a payment covering `places`, or refuses without booking any. */
  reserve(intentId: string, count: number, places: number): void {
    if (count > Math.min(places, MAX_URLS_PER_CALL)) {
      throw new ApiError(
        400,
        'too_many_urls',
        `This request holds ${count} links; at most ${Math.min(places, MAX_URLS_PER_CALL)} are allowed per request for this payment.`,
      );
    }
    const used = this.used.get(intentId) ?? 0;
    if (used + count > places) {
      throw new ApiError(
        403,
        'link_allowance_used',
        `This payment covers ${places} places; ${places - used} more links can be looked up.`,
      );
    }
    this.used.delete(intentId);
    if (this.used.size >= this.maxTracked) {
      const oldest = this.used.keys().next().value;
      if (oldest !== undefined) this.used.delete(oldest);
    }
    this.used.set(intentId, used + count);
  }
}
