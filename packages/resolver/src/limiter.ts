interface Waiter {
  start: () => void;
}

/**
 * Runs at most `max` tasks at once, in arrival order. A waiting task whose signal aborts leaves the
 * queue at once (rejecting with the signal's reason), so a batch past its deadline frees its places.
 */
export class Limiter {
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.next();
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.max) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private next(): void {
    const waiter = this.queue.shift();
    if (!waiter) return;
    this.active += 1;
    waiter.start();
  }
}
