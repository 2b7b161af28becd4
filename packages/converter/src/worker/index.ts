export * from './types.js';
export { createConverterWorkerApi, type WorkerDependencies } from './api.js';
export { createResolveClient } from './resolve-client.js';
