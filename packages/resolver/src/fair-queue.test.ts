import { describe, expect, it } from 'vitest';
import { FairQueue, OverloadedError, type Requester } from './fair-queue.js';

const paid = (client: string): Requester => ({ client, priority: 'paid' });
const free = (client: string): Requester => ({ client, priority: 'free' });

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: async () => (log.push(name), done), release: () => release() };
}

describe('FairQueue', () => {
  it('never runs more than its concurrency, and runs every task', async () => {
    const queue = new FairQueue({
      concurrency: 3,
      maxQueued: 100,
      maxQueuedFree: 100,
      maxActiveFree: 100,
    });
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        queue.run(free(`c${i % 2}`), async () => {
          active += 1;
          peak = Math.max(peak, active);
          await Promise.resolve();
          active -= 1;
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(peak).toBe(3);
  });

  it('starts every waiting paid lookup before any waiting free one, whatever arrived first', async () => {
    const queue = new FairQueue({
      concurrency: 1,
      maxQueued: 100,
      maxQueuedFree: 100,
      maxActiveFree: 100,
    });
    const log: string[] = [];
    const blocker = gate(log, 'blocker');
    const running = queue.run(free('x'), blocker.task);
    const waiting = [
      ...['f1', 'f2', 'f3'].map((name) =>
        queue.run(free('flood'), gate(log, name).task.bind(null)),
      ),
    ];
    const gates = ['p1', 'p2'].map((name) => gate(log, name));
    const paidRuns = gates.map((g) => queue.run(paid('payer'), g.task));
    blocker.release();
    await running;
    await Promise.resolve();
    expect(log.slice(0, 2)).toEqual(['blocker', 'p1']);
    gates[0]!.release();
    await paidRuns[0];
    await Promise.resolve();
    expect(log).toEqual(['blocker', 'p1', 'p2']);
    expect(queue.waiting).toEqual({ paid: 0, free: 3 });
    void waiting;
  });

  it('lets clients take turns: a flood from one client does not starve another', async () => {
    const queue = new FairQueue({
      concurrency: 1,
      maxQueued: 100,
      maxQueuedFree: 100,
      maxActiveFree: 100,
    });
    const order: string[] = [];
    const blocker = gate(order, 'blocker');
    const first = queue.run(free('a'), blocker.task);
    const all = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) =>
        queue.run(free('flooder'), async () => void order.push(name)),
      ),
      ...['b1', 'b2'].map((name) => queue.run(free('other'), async () => void order.push(name))),
    ];
    blocker.release();
    await Promise.all([first, ...all]);
    expect(order).toEqual(['blocker', 'a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('refuses a batch that would overfill the queue, and free batches past their smaller share', () => {
    const queue = new FairQueue({
      concurrency: 2,
      maxQueued: 10,
      maxQueuedFree: 4,
      maxActiveFree: 100,
    });
    expect(() => queue.admit(paid('p'), 12)).not.toThrow();
    expect(() => queue.admit(paid('p'), 13)).toThrow(OverloadedError);
    expect(() => queue.admit(free('f'), 6)).not.toThrow();
    expect(() => queue.admit(free('f'), 7)).toThrow(OverloadedError);
    try {
      queue.admit(free('f'), 7);
    } catch (error) {
      expect((error as OverloadedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
  });

  it('drops a waiting task whose signal aborts, without running it', async () => {
    const queue = new FairQueue({
      concurrency: 1,
      maxQueued: 10,
      maxQueuedFree: 10,
      maxActiveFree: 100,
    });
    const log: string[] = [];
    const blocker = gate(log, 'blocker');
    const running = queue.run(free('a'), blocker.task);
    const controller = new AbortController();
    let ran = false;
    const waiting = queue.run(free('b'), async () => void (ran = true), controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(queue.waiting).toEqual({ paid: 0, free: 0 });
    blocker.release();
    await running;
    expect(ran).toBe(false);
    await expect(queue.run(free('c'), async () => 'next')).resolves.toBe('next');
  });

  it('releases its slot when a task fails', async () => {
    const queue = new FairQueue({
      concurrency: 1,
      maxQueued: 10,
      maxQueuedFree: 10,
      maxActiveFree: 100,
    });
    await expect(queue.run(free('a'), () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(queue.run(free('a'), async () => 'ok')).resolves.toBe('ok');
  });

  describe('slots reserved for paid lookups', () => {
    const tuning = { concurrency: 8, maxQueued: 1000, maxQueuedFree: 1000, maxActiveFree: 2 };

    it('free lookups never hold more than their share, however many hang', async () => {
      const queue = new FairQueue(tuning);
      const log: string[] = [];
      const hanging = Array.from({ length: 20 }, (_, i) => gate(log, `f${i}`));
      const runs = hanging.map((g, i) => queue.run(free(`addr${i}`), g.task));
      await Promise.resolve();
      expect(queue.running).toEqual({ paid: 0, free: 2 });
      expect(queue.waiting.free).toBe(18);
      // A paying batch takes every other slot at once, without waiting for any free lookup.
      const payer = Array.from({ length: 6 }, (_, i) => gate(log, `p${i}`));
      const paidRuns = payer.map((g) => queue.run(paid('payer'), g.task));
      await Promise.resolve();
      expect(queue.running).toEqual({ paid: 6, free: 2 });
      expect(log.filter((name) => name.startsWith('p'))).toHaveLength(6);
      for (const g of payer) g.release();
      await Promise.all(paidRuns);
      expect(queue.running).toEqual({ paid: 0, free: 2 });
      for (const g of hanging) g.release();
      await Promise.all(runs);
      expect(queue.running).toEqual({ paid: 0, free: 0 });
      expect(log.filter((name) => name.startsWith('f'))).toHaveLength(20);
    });

    it('paid lookups may use every slot', async () => {
      const queue = new FairQueue(tuning);
      const log: string[] = [];
      const payer = Array.from({ length: 10 }, (_, i) => gate(log, `p${i}`));
      const runs = payer.map((g) => queue.run(paid('payer'), g.task));
      await Promise.resolve();
      expect(queue.running).toEqual({ paid: 8, free: 0 });
      expect(queue.waiting.paid).toBe(2);
      for (const g of payer) g.release();
      await Promise.all(runs);
    });

    it('admits a free batch by its share of the slots, not by every free slot', () => {
      const queue = new FairQueue({ ...tuning, maxQueuedFree: 3 });
      expect(() => queue.admit(free('a'), 5)).not.toThrow();
      expect(() => queue.admit(free('a'), 6)).toThrow(OverloadedError);
      expect(() => queue.admit(paid('p'), 11)).not.toThrow();
    });
  });
});
