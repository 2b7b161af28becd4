export * from './takeout/index.js';
export * from './fake-stripe/index.js';
export * from './fake-google/index.js';
export * from './redis/index.js';
export * from './read-back/index.js';
export * from './fake-proxy/index.js';
