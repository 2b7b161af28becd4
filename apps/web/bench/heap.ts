/**
 * Samples the JavaScript heap while the page works: the page's main thread through CDP
 * `Performance.getMetrics` (JSHeapUsedSize), and each dedicated worker (the converter) through
 * `Runtime.getHeapUsage` sent over the page's auto-attached worker sessions. Keeps the peaks.
 */
import type { CDPSession, Page } from 'playwright-core';

/** Peak heap use seen, in bytes. */
export interface HeapPeaks {
  mainThread: number;
  worker: number;
  samples: number;
}

interface AttachedEvent {
  sessionId: string;
  targetInfo: { type: string };
}

interface WorkerMessage {
  sessionId: string;
  message: string;
}

/** Starts sampling every `intervalMs`; `stop` resolves the peaks. */
export async function sampleHeap(
  page: Page,
  intervalMs = 100,
): Promise<{ stop: () => Promise<HeapPeaks> }> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const peaks: HeapPeaks = { mainThread: 0, worker: 0, samples: 0 };
  const workers = new Set<string>();
  let nextId = 1;

  session.on('Target.attachedToTarget', (event: AttachedEvent) => {
    if (event.targetInfo.type === 'worker') workers.add(event.sessionId);
  });
  session.on('Target.detachedFromTarget', (event: { sessionId: string }) => {
    workers.delete(event.sessionId);
  });
  session.on('Target.receivedMessageFromTarget', (event: WorkerMessage) => {
    const reply = JSON.parse(event.message) as { result?: { usedSize?: number } };
    const used = reply.result?.usedSize;
    if (typeof used === 'number') peaks.worker = Math.max(peaks.worker, used);
  });
  await session.send('Performance.enable');
  await session.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });

  async function sample(): Promise<void> {
    const { metrics } = await session.send('Performance.getMetrics');
    const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
    peaks.mainThread = Math.max(peaks.mainThread, used);
    peaks.samples += 1;
    for (const sessionId of workers) {
      const message = JSON.stringify({ id: nextId++, method: 'Runtime.getHeapUsage' });
      await session.send('Target.sendMessageToTarget', { sessionId, message });
    }
  }

  let running = true;
  const loop = (async () => {
    while (running) {
      await sample().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
      await session.detach().catch(() => undefined);
      return peaks;
    },
  };
}
