/**
 * The worker's entry module: importing it inside a (module) Web Worker exposes the converter API on
 * `self` through Comlink, for a page that needs nothing more. PlacePort's own page exposes the same
 * API with its additions (`apps/web/src/worker/converter.worker.ts`).
 */
import * as Comlink from 'comlink';
import { createConverterWorkerApi } from './api.js';

Comlink.expose(createConverterWorkerApi());
