/**
 * `@placeport/contract`: the rules and shapes PlacePort's packages share, each written once. This
 * entry has no dependency, so the page's first bundle and the CLI's `--help` can import it freely;
 * the route schemas (valibot) are in `@placeport/contract/routes`. Every name of these modules is
 * the contract's, so each is exported whole.
 * @packageDocumentation
 */
export * from './money.js';
export * from './limits.js';
export * from './formats.js';
export * from './reasons.js';
export * from './messages.js';
export * from './states.js';
export * from './format.js';
export * from './errors.js';
