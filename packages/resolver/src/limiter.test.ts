import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';

describe('Limiter', () => {
  it('never runs more than max tasks at once, and runs them all', async () => {
    const limiter = new Limiter(3);
    let active = 0;
    let peak = 0;
    const task = async (value: number) => {
      active += 1;
      peak = Math.max(peak, active);
      await sleep(5);
      active -= 1;
      return value;
    };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => limiter.run(() => task(i))),
    );
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(peak).toBe(3);
  });

  it('drops waiting tasks whose signal aborts, without running them', async () => {
    const limiter = new Limiter(1);
    const controller = new AbortController();
    let ran = false;
    const blocker = limiter.run(() => sleep(30));
    const waiting = limiter.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    await blocker;
    expect(ran).toBe(false);
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });

  it('releases its place when a task fails', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(async () => 'ok')).resolves.toBe('ok');
  });
});
