import { setMaxListeners } from 'node:events';

/**
 * Time as the resolver sees it: the wall clock, timers and the randomness of jitter, injected so
 * tests can drive deadlines and back-off without waiting, and so every timer is one the resolver
 * holds a strong reference to (see {@link timeoutSignal}).
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** A number in [0, 1), for jitter. */
  random(): number;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  random: () => Math.random(),
};

/** A signal that aborts after `ms` or when `parent` aborts, and the way to release its timer. */
export interface TimedSignal {
  signal: AbortSignal;
  /** True once the timer (not the parent) aborted it. */
  readonly timedOut: boolean;
  dispose(): void;
}

/**
 * An abort signal with a timeout, built from an `AbortController` and the clock's own timer rather
 * than `AbortSignal.any([AbortSignal.timeout(ms), …])`, whose timer Node 20 can lose to garbage
 * collection (nodejs/node#57736) so that a request waits forever. The timer's callback holds the
 * controller, and the timer is held by the event loop until it fires or is disposed.
 */
export function timeoutSignal(clock: Clock, ms: number, parent?: AbortSignal): TimedSignal {
  const controller = new AbortController();
  // Every queued lookup and request of a batch listens to its signal: expected, not a leak.
  // Infinity, not 0: on Node 20 `getMaxListeners` throws for a signal set to 0, and undici's
  // fetch calls it on every request's signal, so every lookup failed before it was sent.
  setMaxListeners(Infinity, controller.signal);
  let timedOut = false;
  const onParentAbort = () => controller.abort(parent?.reason);
  const timer = clock.setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose: () => {
      clock.clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/** Resolves after `ms` on the clock, or rejects when `signal` aborts first. */
export function delay(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
