/**
 * The converter's worker: exposes the converter package's worker API on `self` through Comlink.
 * It does what `@placeport/converter/worker-entry` does, spelled out here because that package
 * declares `"sideEffects": false`, so a bare `import '@placeport/converter/worker-entry'` is
 * tree-shaken away by the bundler and the worker would answer nothing.
 */
import * as Comlink from 'comlink';
import { createConverterWorkerApi } from '@placeport/converter/worker';

Comlink.expose(createConverterWorkerApi());
