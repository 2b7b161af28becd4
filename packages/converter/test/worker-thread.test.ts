import { generateTakeout } from '@placeport/testkit';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ConversionProgress, ConverterWorkerApi } from '../src/worker/types.js';

// The built worker API (turbo builds the package before its tests), exposed in a real worker thread.
const script = new URL('./fixtures/node-worker.mjs', import.meta.url);

describe('the worker API through a real worker thread and Comlink', () => {
  const worker = new Worker(script);
  const api = Comlink.wrap<ConverterWorkerApi>(nodeEndpoint(worker));
  afterAll(() => worker.terminate());

  it('inspects, converts with progress through Comlink.proxy, and transfers the files', async () => {
    const takeout = generateTakeout({
      seed: 3,
      coordinatesInUrls: true,
      lists: [{ name: 'Trip', places: 50 }],
    });
    const inspected = await api.inspect(takeout.zip, 'takeout.zip');
    if (!inspected.ok) throw new Error(inspected.error.message);
    expect(inspected.value.lists.map((l) => [l.name, l.kind, l.rowCount])).toEqual([
      ['Trip', 'csv', 50],
    ]);

    const progress: ConversionProgress[] = [];
    const result = await api.convert(
      { paths: [inspected.value.lists[0]!.path] },
      Comlink.proxy((p: ConversionProgress) => progress.push(p)),
    );
    if (!result.ok) throw new Error(result.error.message);
    const [outcome] = result.value.lists;
    expect(outcome?.stats.converted).toBe(50);
    expect(outcome?.files[0]?.bytes).toBeInstanceOf(ArrayBuffer);
    expect(new TextDecoder().decode(outcome!.files[0]!.bytes)).toContain(
      '<name>My Saved Places</name>',
    );
    // Progress travels on the proxy's own port, so its last call may land after the result.
    await vi.waitFor(
      () => expect(progress.at(-1)).toMatchObject({ stage: 'preparing', percent: 100 }),
      { timeout: 30_000 },
    );
    expect(progress.map((p) => p.stage)).toContain('converting');
  });

  it('brings errors back as data across the boundary', async () => {
    expect(await api.inspect(new Uint8Array([0x50, 0x4b, 3]), 'broken.zip')).toMatchObject({
      ok: false,
      error: {
        code: 'incomplete-zip',
        message: 'This file is not a complete ZIP archive. Download it again from Google Takeout.',
      },
    });
  });
});
