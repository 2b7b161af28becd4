import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { StoreUnavailableError, type StateStore } from '../state/index.js';
import { PRODUCT_TAG, type IntentView } from './provider.js';
import type { PaymentService } from './service.js';

/**
 * How often the sweep looks for authorizations to settle (it also runs once at start-up): every 5
 * minutes, or every half settle-after time when that is shorter (at least every second).
 */
export const SETTLE_SWEEP_INTERVAL_MS = 5 * 60_000;

/** The sweep interval for a settle-after time. */
export function sweepIntervalFor(settleAfterMs: number): number {
  return Math.max(1_000, Math.min(SETTLE_SWEEP_INTERVAL_MS, Math.floor(settleAfterMs / 2)));
}
/**
 * The sweep holds this lease while it runs, so one instance sweeps at a time. A sweep renews it
 * every third of it ({@link LEASE_RENEWALS}), so a sweep of any length keeps it, and stops before
 * its next authorization when it cannot; it expires by itself if an instance dies mid-sweep.
 */
export const SETTLE_LEASE_MS = 4 * 60_000;
/** Renewals per lease time: a renewal that fails (the store away a moment) has two more tries. */
const LEASE_RENEWALS = 3;
const LEASE = 'settlement';

/** What one sweep did. */
export interface SweepReport {
  /**
   * False when this one did nothing: another instance held the lease, the shared state could not
   * be reached to take it, or the sweeper was stopped.
   */
  ran: boolean;
  examined: number;
  captured: number;
  cancelled: number;
  /** Still in use (used within the settle-after time), left for later. */
  waiting: number;
  failed: number;
  /**
   * True when the sweep ended before the last authorization: the shared state went away (the
   * rest waits for the next round) or the sweeper was stopped (the app closing).
   */
  stopped: boolean;
}

/** The report of a sweep that did nothing. */
const NOTHING_DONE: SweepReport = {
  ran: false,
  examined: 0,
  captured: 0,
  cancelled: 0,
  waiting: 0,
  failed: 0,
  stopped: false,
};

/** What the sweep needs. */
export interface SettlementDeps {
  /** Its provider and settle-after time (`SETTLE_AFTER_MINUTES`) are the sweep's. */
  payments: PaymentService;
  state: StateStore;
  now: () => number;
  log: FastifyBaseLogger;
  /** The sweep's lease ({@link SETTLE_LEASE_MS} unless a test shortens it). */
  leaseMs?: number;
}

/**
 * Settles every PlacePort authorization left behind (product.md: "No hold is left behind"): an
 * intent in `requires_capture` unused for the settle-after time is captured for the places the
 * server resolved for it when that reaches $0.50, and cancelled otherwise. It reads Stripe (so it
 * survives restarts), re-reads each intent before acting (search lags writes), acts through the
 * same idempotency keys as the browser's capture (so the two can never both act), and holds a
 * lease in the shared state so several instances do not sweep at once. The last use and the
 * resolved count are the store's or the intent's, whichever is later or larger (the intent hears
 * of them only now and then); an authorization still in use gets the store's usage written to it
 * when the intent is behind, so an instance that loses its memory store still knows it.
 */
export async function sweepOnce(
  deps: SettlementDeps,
  holder: string,
  stopping: () => boolean = () => false,
): Promise<SweepReport> {
  const report: SweepReport = { ...NOTHING_DONE };
  if (stopping()) return report;
  const leaseMs = deps.leaseMs ?? SETTLE_LEASE_MS;
  try {
    if (!(await deps.state.tryLease(LEASE, holder, leaseMs))) return report;
  } catch (error) {
    deps.log.error({ err: error }, 'settlement: cannot take the lease; trying again next round');
    return report;
  }
  report.ran = true;
  const lease = renewWhileSweeping(deps, holder, leaseMs);
  const log = (detail: string) =>
    deps.log.warn({ provider: detail }, 'settlement: provider refused');
  const unused = async (intent: IntentView) =>
    deps.now() >= (await deps.payments.settlesAt(intent));
  try {
    for await (const listed of deps.payments.provider.openAuthorizations()) {
      if (stopping() || lease.lost()) {
        report.stopped = true;
        break;
      }
      report.examined += 1;
      try {
        if (!(await unused(listed))) {
          await deps.payments.usage.reportIfBehind(listed, log);
          report.waiting += 1;
          continue;
        }
        const outcome = await deps.payments.serialized(listed.id, async () => {
          const intent = await deps.payments.retrieve(listed.id, log);
          if (intent.status !== 'requires_capture' || intent.product !== PRODUCT_TAG) return 'gone';
          if (!(await unused(intent))) return 'waiting';
          const { receipt, resolved } = await deps.payments.captureOrCancel(
            intent,
            (server) => Math.min(intent.places ?? 0, server),
            log,
          );
          deps.log.info(
            { payment: intent.id, resolved, captured: receipt.amountCaptured },
            receipt.cancelled ? 'settlement: authorization cancelled' : 'settlement: captured',
          );
          return receipt.cancelled ? 'cancelled' : 'captured';
        });
        if (outcome !== 'gone') report[outcome] += 1;
      } catch (error) {
        report.failed += 1;
        if (error instanceof StoreUnavailableError) {
          // Without the store nothing can be settled safely: the rest waits for the next round.
          deps.log.error(
            { err: error, payment: listed.id },
            'settlement: shared state unavailable; the rest waits for the next round',
          );
          report.stopped = true;
          break;
        }
        deps.log.error({ err: error, payment: listed.id }, 'settlement: could not settle');
      }
    }
  } catch (error) {
    deps.log.error({ err: error }, 'settlement: could not list open authorizations');
  } finally {
    await lease.stop();
    // A lease the store cannot drop now expires by itself (or this holder takes it again).
    await deps.state.releaseLease(LEASE, holder).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'settlement: could not release the lease');
    });
  }
  return report;
}

/**
 * Renews the sweep's lease every third of its time while the sweep runs; `lost()` turns true once
 * a renewal finds another holder, or none has succeeded for a whole lease time (the store away),
 * after which another instance may hold it. Renewal failures are caught and logged here.
 */
function renewWhileSweeping(
  deps: SettlementDeps,
  holder: string,
  leaseMs: number,
): { lost(): boolean; stop(): Promise<void> } {
  let lost = false;
  let renewing: Promise<void> | undefined;
  let renewedAt = performance.now();
  const renew = () => {
    if (lost || renewing) return;
    renewing = deps.state.tryLease(LEASE, holder, leaseMs).then(
      (held) => {
        renewing = undefined;
        if (held) {
          renewedAt = performance.now();
          return;
        }
        lost = true;
        deps.log.error('settlement: another instance holds the lease; this sweep stops');
      },
      (error: unknown) => {
        renewing = undefined;
        deps.log.warn({ err: error }, 'settlement: could not renew the lease');
        if (performance.now() - renewedAt >= leaseMs) {
          lost = true;
          deps.log.error('settlement: the lease could not be renewed in time; this sweep stops');
        }
      },
    );
  };
  const timer = setInterval(renew, Math.max(1, Math.floor(leaseMs / LEASE_RENEWALS)));
  timer.unref();
  return {
    lost: () => lost,
    // A renewal under way finishes first, so it cannot take the lease back after its release.
    stop: async () => {
      clearInterval(timer);
      await renewing;
    },
  };
}

/** A running sweep: `sweep()` runs one now; `stop()` ends the timer and any sweep under way. */
export interface Settlement {
  /** Runs one sweep (or joins the one under way); never rejects: failures are logged. */
  sweep(): Promise<SweepReport>;
  /**
   * Ends the timer; a sweep under way stops before its next authorization. Resolves once it has.
   * Later `sweep()` calls do nothing.
   */
  stop(): Promise<void>;
}

/**
 * The sweep on a timer: once at start and every `intervalMs`, never two at once in this process.
 * `auto: false` (tests) only exposes `sweep()`. Every failure is caught and logged, and the next
 * round tries again: a timer never leaves a rejection unhandled.
 */
export function createSettlement(
  deps: SettlementDeps,
  options: { auto: boolean; intervalMs?: number },
): Settlement {
  const holder = randomBytes(9).toString('base64url');
  let stopped = false;
  let running: Promise<SweepReport> | undefined;
  const sweep = () => {
    running ??= sweepOnce(deps, holder, () => stopped)
      .catch((error: unknown): SweepReport => {
        deps.log.error({ err: error }, 'settlement: sweep failed; trying again next round');
        return { ...NOTHING_DONE };
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  if (options.auto) {
    void sweep();
    timer = setInterval(
      () => void sweep(),
      options.intervalMs ?? sweepIntervalFor(deps.payments.settleAfterMs),
    );
    timer.unref();
  }
  return {
    sweep,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
