import { createHash } from 'node:crypto';
import { FREE_TIER_MAX_URLS, MAX_URLS_PER_CALL } from '@placeport/contract';
import type { Requester as QueueTurn } from '@placeport/resolver';
import { PaymentError, type Log } from '../payments/errors.js';
import type { PaymentService } from '../payments/service.js';
import type { StateStore } from '../state/index.js';

/** Who asks for lookups: a payment (its payer proven by the HTTP edge), or a free-tier client. */
export type Requester = { kind: 'payment'; id: string } | { kind: 'client'; key: string };

/** A short, fixed-size key for one distinct link (links are never stored as they are). */
function linkKey(link: string): string {
  return createHash('sha256').update(link).digest('base64url').slice(0, 22);
}

/** The resolver's queue turn of a requester: payments before free clients, each its own turn. */
export function queueTurn(requester: Requester): QueueTurn {
  return requester.kind === 'payment'
    ? { client: `pay:${requester.id}`, priority: 'paid' }
    : { client: `ip:${requester.key}`, priority: 'free' };
}

/**
 * Who may have how many links looked up now (product.md, Money; README "Free lookups"), counted
 * in the state store so every instance spends from the same allowance. Only links that need a
 * lookup count; the caller sorts them out. A client gets {@link FREE_TIER_MAX_URLS} links a
 * request and its free budget of the day; an authorized payment its place count in distinct
 * links over all its batches (a retry is free), at most {@link MAX_URLS_PER_CALL} at once.
 */
export class Allowance {
  constructor(
    private readonly payments: PaymentService,
    private readonly state: StateStore,
    private readonly freeLinksPerDay: number,
    private readonly now: () => number,
  ) {}

  /**
   * Spends what a batch costs its requester, or refuses it whole with a {@link PaymentError}
   * (nothing spent). `sent` is the list as sent, `lookups` its distinct links needing a lookup.
   */
  async spend(
    requester: Requester,
    sent: readonly string[],
    lookups: readonly string[],
    log: Log,
  ): Promise<void> {
    if (requester.kind === 'client') {
      if (sent.length > FREE_TIER_MAX_URLS) {
        throw new PaymentError(
          'payment_required',
          `Without a payment, at most ${FREE_TIER_MAX_URLS} links can be looked up per request.`,
        );
      }
      const needed = new Set(lookups);
      const counted = sent.filter((link) => needed.has(link)).length;
      const perDay = this.freeLinksPerDay;
      const budget = await this.state.takeFreeLinks(requester.key, counted, perDay, this.now());
      if (!budget.ok) {
        throw new PaymentError(
          'free_budget_used',
          `The ${perDay} free lookups of today are used (${budget.remaining} left). A payment covers more.`,
          { limit: perDay },
        );
      }
      return;
    }
    const places = await this.payments.authorizedPlaces(requester.id, log);
    const perCall = Math.min(places, MAX_URLS_PER_CALL);
    if (lookups.length > perCall) {
      throw new PaymentError(
        'too_many_urls',
        `This request holds ${lookups.length} links to look up; at most ${perCall} are allowed per request for this payment.`,
      );
    }
    const reserved = await this.state.reserveLinks(requester.id, lookups.map(linkKey), places);
    if (!reserved.ok) {
      throw new PaymentError(
        'link_allowance_used',
        `This payment covers ${places} places; ${reserved.remaining} more links can be looked up.`,
        { limit: places },
      );
    }
  }

  /** Records the links resolved for a payment as its server's count; nothing for the free tier. */
  async resolved(requester: Requester, links: readonly string[], log: Log): Promise<void> {
    if (requester.kind === 'payment' && links.length > 0) {
      await this.payments.usage.record(requester.id, links.map(linkKey), log);
    }
  }
}
