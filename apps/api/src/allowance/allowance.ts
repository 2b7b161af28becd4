import { createHash } from 'node:crypto';
import { FREE_TIER_MAX_URLS, MAX_URLS_PER_CALL } from '@placeport/contract';
import type { Requester as QueueTurn } from '@placeport/resolver';
import { PaymentError, type Log } from '../payments/errors.js';
import type { PaymentService } from '../payments/service.js';
import type { StateStore } from '../state/index.js';

/** Who asks for lookups: a payment (its payer proven by the HTTP edge), or a free-tier client. */
export type Requester = { kind: 'payment'; id: string } | { kind: 'client'; key: string };

/** What {@link Allowance.spend} took from a client's free budget, and on which day (`at`). */
export interface Spent {
  freeLinks: number;
  at: number;
}

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
   * Says what it took of a client's free budget, for {@link giveBack}.
   */
  async spend(
    requester: Requester,
    sent: readonly string[],
    lookups: readonly string[],
    log: Log,
  ): Promise<Spent> {
    const at = this.now();
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
      const budget = await this.state.takeFreeLinks(requester.key, counted, perDay, at);
      if (!budget.ok) {
        throw new PaymentError(
          'free_budget_used',
          `The ${perDay} free lookups of today are used (${budget.remaining} left). A payment covers more.`,
          { limit: perDay },
        );
      }
      return { freeLinks: counted, at };
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
    return { freeLinks: 0, at };
  }

  /**
   * Gives a client back the free links a batch took when none of them was looked up (Google could
   * not be reached): a retry a minute later, as the answer advises, must not find the day's budget
   * used up by lookups that never happened. A payment needs nothing back: sending its links again
   * costs nothing. Best effort: a store that fails here only leaves the links spent.
   */
  async giveBack(requester: Requester, spent: Spent, log: Log): Promise<void> {
    if (requester.kind !== 'client' || spent.freeLinks === 0) return;
    try {
      await this.state.returnFreeLinks(requester.key, spent.freeLinks, spent.at);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      log(`The free links of a batch not looked up could not be given back: ${why}`);
    }
  }

  /**
   * Counts the links resolved for a payment as its server's count, or refuses the batch
   * (`not_authorized`, nothing counted) when the payment is settling or settled: the store adds
   * them only while no such verdict is kept, in one step, and capture and the settlement sweep
   * mark a payment `settling` before they read its count, so a batch's places are either counted
   * in time to be charged, and answered, or refused, never answered unpaid. When the store had
   * lost the verdict, the payment is checked again after counting: only a refusal refuses the
   * batch, and a store or provider failure there is logged, since its places are counted.
   * Nothing for the free tier.
   */
  async resolved(requester: Requester, links: readonly string[], log: Log): Promise<void> {
    if (requester.kind !== 'payment' || links.length === 0) return;
    const kept = await this.payments.usage.record(requester.id, links.map(linkKey), log);
    if (kept !== undefined) return;
    try {
      await this.payments.authorizedPlaces(requester.id, log);
    } catch (error) {
      if (error instanceof PaymentError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      log(`a counted batch's payment could not be checked again (its places were counted): ${why}`);
    }
  }
}
