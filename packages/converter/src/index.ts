export * from './core/types.js';
export * from './core/latlng.js';
export * from './core/coordinates.js';
export * from './core/place-ids.js';
