/**
 * The worker's entry module: importing it inside a (module) Web Worker exposes the converter API on
 * `self` through Comlink. The web app's worker file is just `import '@placeport/converter/worker-entry'`.
 */
import * as Comlink from 'comlink';
import { createConverterWorkerApi } from './api.js';

Comlink.expose(createConverterWorkerApi());
