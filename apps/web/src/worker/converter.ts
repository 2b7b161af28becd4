/**
 * The page's handle on the conversion worker, behind a small interface so tests can substitute
 * a fake. The real one starts the worker lazily, on the first file, and ends it on `terminate`.
 * A worker that dies (an uncaught error, out of memory) fails the call in flight instead of
 * leaving the page waiting forever; the next call starts a fresh worker.
 */
import * as Comlink from 'comlink';
import type { PageWorkerApi } from './pageWorker';
import type { ConversionProgress, ConvertOptions, ConvertResult, InspectResult } from './types';

/** What the worker answers to a call of `method`. */
type Answer<K extends keyof PageWorkerApi> = Awaited<ReturnType<PageWorkerApi[K]>>;

/** The worker's API as the page calls it: the file handed over as it is, progress as a callback. */
export interface Converter extends Omit<PageWorkerApi, 'inspect' | 'convert'> {
  /** Hands the chosen file to the worker, which reads the archive and keeps its lists. */
  inspect(file: File): Promise<InspectResult>;
  /** Converts the chosen lists; progress arrives throttled by the worker. */
  convert(
    options: ConvertOptions,
    onProgress: (progress: ConversionProgress) => void,
  ): Promise<ConvertResult>;
  /**
   * Ends the worker (the architecture's way to cancel); a call still waiting fails with
   * {@link WORKER_TERMINATED}. The next call starts a fresh worker.
   */
  terminate(): void;
}

/** What the page needs of a worker: a Comlink endpoint that can report its death and be ended. */
export type WorkerLike = Comlink.Endpoint & {
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  terminate(): void;
};

/** The error of a call the page ended by terminating the worker. */
export const WORKER_TERMINATED = 'The conversion was stopped.';

/** Said when the worker died without a message of its own. */
export const WORKER_CRASHED =
  'The converter stopped unexpectedly. Please remove the file and try again.';

function startModuleWorker(): WorkerLike {
  return new Worker(new URL('./converter.worker.ts', import.meta.url), {
    type: 'module',
    name: 'placeport-converter',
  });
}

interface Running {
  worker: WorkerLike;
  remote: Comlink.Remote<PageWorkerApi>;
  /** Rejects when the worker dies or is terminated. */
  died: Promise<never>;
  dead: boolean;
  /** Rejects {@link Running.died}. */
  kill: (error: Error) => void;
}

/** The real worker, wrapped by Comlink; `start` is replaceable for tests. */
export function createWorkerConverter(start: () => WorkerLike = startModuleWorker): Converter {
  let running: Running | null = null;

  function terminate(): void {
    if (!running) return;
    running.kill(new Error(WORKER_TERMINATED));
    running.remote[Comlink.releaseProxy]();
    running.worker.terminate();
    running = null;
  }

  function current(): Running {
    if (!running) {
      const worker = start();
      let markDead: (error: Error) => void = () => undefined;
      const died = new Promise<never>((_, reject) => {
        markDead = reject;
      });
      died.catch(() => undefined);
      const run: Running = {
        worker,
        remote: Comlink.wrap<PageWorkerApi>(worker),
        died,
        dead: false,
        kill: (error) => {
          run.dead = true;
          markDead(error);
        },
      };
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        run.kill(
          new Error(event.message ? `${WORKER_CRASHED} (${event.message})` : WORKER_CRASHED),
        );
      });
      running = run;
    }
    return running;
  }

  async function call<T>(use: (remote: Comlink.Remote<PageWorkerApi>) => Promise<T>): Promise<T> {
    const run = current();
    try {
      return await Promise.race([use(run.remote), run.died]);
    } catch (error) {
      if (run.dead && running === run) terminate();
      throw error;
    }
  }

  return {
    inspect: (file) => call<InspectResult>((remote) => remote.inspect(file, file.name)),
    convert: (options, onProgress) =>
      call<ConvertResult>((remote) => remote.convert(options, Comlink.proxy(onProgress))),
    files: (format) => call<Answer<'files'>>((remote) => remote.files(format)),
    zipAll: (format) => call<Answer<'zipAll'>>((remote) => remote.zipAll(format)),
    prepareRetry: () => call<InspectResult>((remote) => remote.prepareRetry()),
    points: () => call<Answer<'points'>>((remote) => remote.points()),
    reset: async () => {
      if (running) await call((remote) => remote.reset());
    },
    lookupRefusals: async () => (running ? call((remote) => remote.lookupRefusals()) : []),
    deviceOnline: async () => {
      if (running) await call((remote) => remote.deviceOnline());
    },
    cancel: async () => {
      if (running) await call((remote) => remote.cancel());
    },
    terminate,
  };
}
