// @vitest-environment node
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import {
  createWorkerConverter,
  WORKER_CRASHED,
  WORKER_TERMINATED,
  type WorkerLike,
} from './converter';
import type { PageWorkerApi } from './pageWorker';
import { listSummary } from '../test/fixtures';

/** A worker stand-in over a real MessageChannel, with the worker's error event and terminate. */
class ChannelWorker extends EventTarget {
  terminated = false;
  constructor(private readonly port: MessagePort) {
    super();
  }
  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.port.addEventListener(type, listener);
    else super.addEventListener(type, listener);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.port.removeEventListener(type, listener);
    else super.removeEventListener(type, listener);
  }
  start(): void {
    this.port.start();
  }
  terminate(): void {
    this.terminated = true;
    this.port.close();
  }
  crash(message: string): void {
    this.dispatchEvent(Object.assign(new Event('error', { cancelable: true }), { message }));
  }
}

function workerWith(api: Partial<PageWorkerApi>): ChannelWorker {
  const channel = new MessageChannel();
  Comlink.expose(api, channel.port2);
  return new ChannelWorker(channel.port1);
}

const LISTS = [listSummary({ path: 'Takeout/Saved/A.csv', name: 'A', rowCount: 2, size: 30 })];
const ZIP = new File([new Uint8Array([1, 2, 3])], 'takeout.zip');

/** A converter over workers whose conversions never end; each worker started is recorded. */
function neverConverting() {
  const workers: ChannelWorker[] = [];
  const converter = createWorkerConverter(() => {
    const worker = workerWith({
      convert: () => new Promise(() => undefined),
      inspect: async () => ({ ok: true, value: { lists: LISTS } }),
    });
    workers.push(worker);
    return worker as unknown as WorkerLike;
  });
  return { workers, converter };
}

describe('createWorkerConverter', () => {
  it('starts the worker on first use and hands it the file and its name', async () => {
    const seen: string[] = [];
    const workers: ChannelWorker[] = [];
    const converter = createWorkerConverter(() => {
      const worker = workerWith({
        inspect: async (input, fileName) => {
          seen.push(`${fileName}:${(input as Blob).size}`);
          return { ok: true, value: { lists: LISTS } };
        },
      });
      workers.push(worker);
      return worker as unknown as WorkerLike;
    });
    expect(workers).toHaveLength(0);
    expect(await converter.inspect(ZIP)).toEqual({ ok: true, value: { lists: LISTS } });
    expect(seen).toEqual(['takeout.zip:3']);
    converter.terminate();
    expect(workers[0]!.terminated).toBe(true);
  });

  it('relays progress through a Comlink proxy', async () => {
    const converter = createWorkerConverter(
      () =>
        workerWith({
          convert: async (_options, onProgress) => {
            await onProgress?.({
              stage: 'converting',
              fileIndex: 0,
              fileCount: 1,
              fileName: 'A.csv',
              percent: 75,
            });
            return {
              ok: true,
              value: { lists: [], totals: { total: 0, converted: 0, skipped: 0 } },
            };
          },
        }) as unknown as WorkerLike,
    );
    const reports: number[] = [];
    await converter.convert({ paths: ['Takeout/Saved/A.csv'] }, (p) => reports.push(p.percent));
    expect(reports).toEqual([75]);
    converter.terminate();
  });

  it('fails the call in flight when the worker dies, and starts a fresh one next time', async () => {
    const { workers, converter } = neverConverting();
    const pending = converter.convert({ paths: [] }, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    workers[0]!.crash('Out of memory');
    await expect(pending).rejects.toThrow(`${WORKER_CRASHED} (Out of memory)`);
    expect(workers[0]!.terminated).toBe(true);
    expect(await converter.inspect(ZIP)).toMatchObject({ ok: true });
    expect(workers).toHaveLength(2);
    converter.terminate();
  });

  it('fails the call in flight when the page ends the worker (Cancel), and starts afresh', async () => {
    const { workers, converter } = neverConverting();
    const pending = converter.convert({ paths: [] }, () => undefined);
    converter.terminate();
    await expect(pending).rejects.toThrow(WORKER_TERMINATED);
    expect(workers[0]!.terminated).toBe(true);
    expect(await converter.inspect(ZIP)).toMatchObject({ ok: true });
    expect(workers).toHaveLength(2);
    converter.terminate();
  });

  it('asks the running conversion to cancel; without a worker there is nothing to cancel', async () => {
    let cancelled = 0;
    const starts: number[] = [];
    const converter = createWorkerConverter(() => {
      starts.push(1);
      return workerWith({
        inspect: async () => ({ ok: true, value: { lists: LISTS } }),
        cancel: async () => {
          cancelled += 1;
        },
      }) as unknown as WorkerLike;
    });
    await converter.cancel();
    expect(starts).toHaveLength(0);
    await converter.inspect(ZIP);
    await converter.cancel();
    expect(cancelled).toBe(1);
    converter.terminate();
  });
});
