import { PAYMENT_STATE_TTL_MS, type PaymentVerdict, type StateStore } from '../state/index.js';
import { notAuthorized, type Log } from './errors.js';
import {
  PaymentFailure,
  type IntentView,
  type PaymentProvider,
  type UsageRecord,
} from './provider.js';

/**
 * While lookups go on, a payment's usage (resolved count, time of last use) is written to the
 * intent at most this often; capture and the settlement sweep write it when the intent is behind.
 */
export const USAGE_REPORT_INTERVAL_MS = 60_000;

/**
 * What the server knows of each payment's use: the distinct places it resolved (the floor of what
 * capture charges) and when a lookup last used it (what the settlement sweep waits on). Both live
 * in the state store, so they are shared by every instance and, with Redis, survive a restart;
 * the intent's metadata (`resolved`, `last_used`) hears of them only now and then, so a run makes
 * a handful of provider calls, not two a batch. The larger (or later) of the store's record and
 * the intent's is the truth: either may be the only one left after a restart.
 */
export class PaymentUsage {
  /**
   * Payments whose counted places this process has not yet written to their intent: what a
   * shutdown writes ({@link flush}) when the store goes with the process (the memory store). Kept
   * only then: with Redis the counts outlive the process, and a payment settled by another
   * instance would never leave this set (one id for every payment this process served).
   */
  private readonly unreported = new Set<string>();

  constructor(
    private readonly provider: PaymentProvider,
    private readonly state: StateStore,
    private readonly now: () => number,
  ) {}

  /**
   * Counts places the server resolved for a payment (distinct keys) in the store, in one step
   * with the check that the payment is not settling or settled; when it is, nothing is counted
   * and the batch is refused (`not_authorized`). Counted places are charged, so their batch
   * answers with them: what follows is bookkeeping, done best effort (a failure is logged, never
   * thrown): the time of use and, at most once a {@link USAGE_REPORT_INTERVAL_MS} of the app's
   * clock counted from the first lookup, the usage written to the intent. Returns the verdict
   * kept when the places were counted: `requires_capture`, or undefined when the store had none.
   */
  async record(id: string, placeKeys: string[], log: Log): Promise<PaymentVerdict | undefined> {
    const added = await this.state.addResolved(id, placeKeys);
    if (!added.added) throw notAuthorized();
    try {
      const at = Math.floor(this.now());
      const { reportDue } = await this.state.recordUse(id, at, USAGE_REPORT_INTERVAL_MS);
      if (this.state.kind === 'memory') this.unreported.add(id);
      if (reportDue) {
        await this.write(id, { resolved: added.count, lastUsed: Math.floor(at / 1000) }, log);
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      log(`the use of a counted batch was not recorded (its places were): ${why}`);
    }
    return added.verdict;
  }

  /**
   * Writes the store's usage of a payment to its intent when the intent's own record is behind
   * (capture and the settlement sweep call it); nothing when it is not. The last use may be the
   * authorization's sighting: written to the intent, it outlives the store.
   */
  async reportIfBehind(intent: IntentView, log: Log): Promise<void> {
    const [resolved, lastUse] = await Promise.all([
      this.state.resolvedCount(intent.id),
      this.state.lastUseOf(intent.id),
    ]);
    const lastUsed = lastUse === undefined ? 0 : Math.floor(lastUse / 1000);
    if (resolved <= intent.resolved && lastUsed <= (intent.lastUsed ?? 0)) return;
    await this.write(
      intent.id,
      {
        resolved: Math.max(resolved, intent.resolved),
        lastUsed: Math.max(lastUsed, intent.lastUsed ?? intent.created),
      },
      log,
    );
  }

  /**
   * Writes every payment's usage this process counted and has not written to its intent, at
   * once and within `withinMs`: a shutdown with the memory store calls it, whose counts go with
   * the process (a run shorter than the report interval was in it alone, and the settlement sweep
   * of the next process then cancelled a hold the server had looked places up for). Failures are
   * logged; a write still going at `withinMs` is left.
   */
  async flush(log: Log, withinMs: number): Promise<void> {
    const ids = [...this.unreported];
    if (ids.length === 0) return;
    const writes = Promise.allSettled(
      ids.map(async (id) => {
        const [resolved, lastUse] = await Promise.all([
          this.state.resolvedCount(id),
          this.state.lastUseOf(id),
        ]);
        const lastUsed = Math.floor((lastUse ?? this.now()) / 1000);
        await this.write(id, { resolved, lastUsed }, log);
      }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), withinMs);
    });
    const outcome = await Promise.race([writes, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      log(`usage of ${ids.length} payments not all written to their intents within ${withinMs} ms`);
      return;
    }
    outcome.forEach((result, index) => {
      if (result.status === 'rejected') {
        const why = result.reason instanceof Error ? result.reason.message : String(result.reason);
        log(`usage of ${ids[index]} not written to its intent: ${why}`);
      }
    });
  }

  /** The server's count for a payment: the store's, or what the intent recorded, the larger. */
  async resolvedByServer(intent: IntentView): Promise<number> {
    return Math.max(await this.state.resolvedCount(intent.id), intent.resolved);
  }

  /**
   * When the (authorized) payment was last used (ms), what the settlement sweep measures idle time
   * from: its last lookup or, before any, its authorization; the store's record or the intent's,
   * whichever is later. Never its creation: the page creates the intent when the payment form
   * opens, and a person may keep the form open longer than the idle limit before authorizing.
   * When nothing says when it was authorized (the page closed right after authorizing with
   * Stripe, or the store lost its record), the first time this server sees it authorized counts,
   * recorded now.
   */
  async lastUseMs(intent: IntentView): Promise<number> {
    const kept = await this.state.lastUseOf(intent.id);
    const written = intent.lastUsed === undefined ? undefined : intent.lastUsed * 1000;
    if (kept === undefined && written === undefined) {
      return this.state.recordAuthorization(intent.id, Math.floor(this.now()));
    }
    return Math.max(kept ?? 0, written ?? 0);
  }

  /** Records that the payment is authorized, as of now unless an earlier sighting is kept. */
  async authorized(id: string): Promise<void> {
    await this.state.recordAuthorization(id, Math.floor(this.now()));
  }

  /**
   * One usage write. The provider answers the intent as it is now, so a status changed elsewhere
   * (Stripe's 7-day expiry, the Dashboard) replaces the kept verdict at no extra call.
   */
  private async write(id: string, usage: UsageRecord, log: Log): Promise<void> {
    let intent: IntentView;
    try {
      intent = await this.provider.recordUsage(id, usage);
      // Written: unless more places are counted meanwhile, a shutdown has nothing of it to write.
      if ((await this.state.resolvedCount(id)) <= usage.resolved) this.unreported.delete(id);
    } catch (error) {
      if (!(error instanceof PaymentFailure)) throw error;
      log(`usage not written to the intent (the store keeps it): ${error.kind}: ${error.message}`);
      // The intent is gone or settled elsewhere: the next check asks the provider.
      if (error.kind === 'not_found' || error.kind === 'unexpected_state') {
        await this.state.forgetVerdict(id);
      }
      return;
    }
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      const verdict = { status: intent.status, places: intent.places ?? 0 };
      await this.state.replaceVerdict(id, verdict, PAYMENT_STATE_TTL_MS);
    }
  }
}
