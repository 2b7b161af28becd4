/**
 * The page's conversion worker: the converter's worker API (with the page's additions, see
 * `pageWorker.ts`) exposed on `self` through Comlink.
 */
import * as Comlink from 'comlink';
import { createConverterWorkerApi } from '@placeport/converter/worker';
import { createPageWorkerApi } from './pageWorker';

Comlink.expose(createPageWorkerApi(createConverterWorkerApi));
