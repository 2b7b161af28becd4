/**
 * `@placeport/contract`: the rules and shapes PlacePort's packages share, each written once. This
 * entry has no dependency, so the page's first bundle and the CLI's `--help` can import it freely;
 * the route schemas (valibot) are in `@placeport/contract/routes`.
 * @packageDocumentation
 */
export {
  PRICE_PER_PLACE_CENTS,
  MINIMUM_CHARGE_CENTS,
  MIN_PAID_PLACES,
  MAX_PAYMENT_PLACES,
  REACHABLE_DEMO_MAX_PLACES,
} from './money.js';
export {
  FREE_TIER_MAX_URLS,
  MAX_URLS_PER_CALL,
  MAX_URL_LENGTH,
  MAX_ARCHIVE_PLACES,
} from './limits.js';
export { OUTPUT_FORMATS, isOutputFormat, type OutputFormat } from './formats.js';
export {
  LOOKUP_FAILURES,
  REASON_TEXT,
  isLookupFailure,
  type LookupFailure,
  type UnplacedReason,
} from './reasons.js';
export { MESSAGES } from './messages.js';
export { PAYMENTS_MODES, PAYMENT_STATES } from './states.js';
