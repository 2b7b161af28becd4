/** Who is asking, and whether their lookups are paid for. */
export interface Requester {
  /** A stable key for one client (an address, or a payment). */
  client: string;
  priority: 'paid' | 'free';
}

/** Thrown when the queue is full: the caller should answer 503 with `Retry-After`. */
export class OverloadedError extends Error {
  readonly code = 'overloaded';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many lookups are waiting; try again shortly.');
  }
}

interface Waiter {
  start: () => void;
  cancel: () => void;
}

/** Bounds of a {@link FairQueue}. */
export interface FairQueueTuning {
  /** Upstream lookups in flight at once, across every client. */
  concurrency: number;
  /** Lookups that may wait, across every client; past it new batches are refused. */
  maxQueued: number;
  /** Free lookups that may wait, across every client (a smaller share). */
  maxQueuedFree: number;
  /**
   * Upstream slots free lookups may hold at once: the rest are kept for paid ones, so a paying
   * batch always has slots however many free lookups hang.
   */
  maxActiveFree: number;
}

/**
 * Upstream slots shared fairly: at most `concurrency` lookups run, of which at most
 * `maxActiveFree` free ones (the other slots are reserved for paid lookups, so free lookups that
 * hang cannot hold up a paying batch); waiting lookups of paid batches always start before free
 * ones; within a priority, clients take turns (one lookup each, round robin), so a client with a
 * huge batch or a flood of calls cannot starve the others. The queue is bounded: a batch that would
 * overfill it is refused as a whole with {@link OverloadedError}.
 */
export class FairQueue {
  private active = 0;
  private activeFree = 0;
  private queued = { paid: 0, free: 0 };
  private readonly lanes = {
    paid: new Map<string, Waiter[]>(),
    free: new Map<string, Waiter[]>(),
  };

  constructor(private readonly tuning: FairQueueTuning) {}

  /** Lookups waiting now, per priority. */
  get waiting(): { paid: number; free: number } {
    return { ...this.queued };
  }

  /** Lookups running now, per priority. */
  get running(): { paid: number; free: number } {
    return { paid: this.active - this.activeFree, free: this.activeFree };
  }

  /** Whether a lookup of `priority` may take a slot now (queues aside). */
  private hasRoom(priority: Requester['priority']): boolean {
    if (this.active >= this.tuning.concurrency) return false;
    return priority === 'paid' || this.activeFree < this.tuning.maxActiveFree;
  }

  /** Refuses, before anything is queued, a batch of `count` lookups the queue cannot take. */
  admit(requester: Requester, count: number): void {
    const room = this.tuning.concurrency - this.active;
    const slots = Math.max(
      0,
      requester.priority === 'paid'
        ? room
        : Math.min(room, this.tuning.maxActiveFree - this.activeFree),
    );
    const wouldWait = Math.max(0, count - slots);
    const total = this.queued.paid + this.queued.free + wouldWait;
    const overFree =
      requester.priority === 'free' && this.queued.free + wouldWait > this.tuning.maxQueuedFree;
    if (total > this.tuning.maxQueued || overFree) {
      throw new OverloadedError(Math.max(1, Math.ceil(total / this.tuning.concurrency)));
    }
  }

  /** Runs `task` when a slot is free and it is this requester's turn; `signal` leaves the queue. */
  async run<T>(requester: Requester, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(requester, signal);
    try {
      return await task();
    } finally {
      this.active -= 1;
      if (requester.priority === 'free') this.activeFree -= 1;
      this.next();
    }
  }

  private acquire(requester: Requester, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    const { priority } = requester;
    const ahead = priority === 'paid' ? this.queued.paid : this.queued.paid + this.queued.free;
    if (ahead === 0 && this.hasRoom(priority)) {
      this.take(priority);
      return Promise.resolve();
    }
    const lane = this.lanes[requester.priority];
    return new Promise((resolve, reject) => {
      const onAbort = () => waiter.cancel();
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        cancel: () => {
          const list = lane.get(requester.client);
          const index = list?.indexOf(waiter) ?? -1;
          if (list && index >= 0) {
            list.splice(index, 1);
            this.queued[requester.priority] -= 1;
            if (list.length === 0) lane.delete(requester.client);
          }
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const list = lane.get(requester.client);
      if (list) list.push(waiter);
      else lane.set(requester.client, [waiter]);
      this.queued[requester.priority] += 1;
    });
  }

  private take(priority: Requester['priority']): void {
    this.active += 1;
    if (priority === 'free') this.activeFree += 1;
  }

  /**
   * Starts the next waiters while slots are free: paid before free, free only within their share;
   * within a lane, the client whose turn it is.
   */
  private next(): void {
    for (;;) {
      const priority =
        this.queued.paid > 0 && this.hasRoom('paid')
          ? 'paid'
          : this.queued.free > 0 && this.hasRoom('free')
            ? 'free'
            : undefined;
      if (!priority) return;
      const lane = this.lanes[priority];
      const [client, list] = lane.entries().next().value as [string, Waiter[]];
      const waiter = list.shift()!;
      // The client goes to the back of the round.
      lane.delete(client);
      if (list.length > 0) lane.set(client, list);
      this.queued[priority] -= 1;
      this.take(priority);
      waiter.start();
    }
  }
}
