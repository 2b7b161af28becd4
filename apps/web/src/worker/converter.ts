/**
 * The page's handle on the conversion worker, behind a small interface so tests can substitute
 * a fake. The real one starts the worker lazily, on the first file, and ends it on `terminate`.
 */
import * as Comlink from 'comlink';
import type {
  ConversionProgress,
  ConverterWorkerApi,
  ConvertOptions,
  ConvertResult,
  InspectResult,
} from './types';

export interface Converter {
  /** Hands the chosen file to the worker, which reads the archive and keeps its lists. */
  inspect(file: File): Promise<InspectResult>;
  /** Converts the chosen lists; progress arrives throttled by the worker. */
  convert(
    options: ConvertOptions,
    onProgress: (progress: ConversionProgress) => void,
  ): Promise<ConvertResult>;
  /** Forgets the archive (Remove). */
  reset(): Promise<void>;
  /** Ends the worker; the next call starts a fresh one. */
  terminate(): void;
}

/** The real worker, wrapped by Comlink. */
export function createWorkerConverter(): Converter {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<ConverterWorkerApi> | null = null;

  function api(): Comlink.Remote<ConverterWorkerApi> {
    if (!remote) {
      worker = new Worker(new URL('./converter.worker.ts', import.meta.url), {
        type: 'module',
        name: 'placeport-converter',
      });
      remote = Comlink.wrap<ConverterWorkerApi>(worker);
    }
    return remote;
  }

  return {
    inspect: (file) => api().inspect(file, file.name),
    convert: (options, onProgress) => api().convert(options, Comlink.proxy(onProgress)),
    reset: async () => {
      if (remote) await remote.reset();
    },
    terminate: () => {
      remote?.[Comlink.releaseProxy]();
      worker?.terminate();
      worker = null;
      remote = null;
    },
  };
}
