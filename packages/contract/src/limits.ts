import { MIN_PAID_PLACES } from './money.js';

/**
 * Links a lookup request without a payment may hold: a free selection has fewer places than a
 * payment covers ({@link MIN_PAID_PLACES}), so 4. The API refuses more; the CLI sends no more.
 */
export const FREE_TIER_MAX_URLS = MIN_PAID_PLACES - 1;

/** Links one lookup request may hold, paid or not. */
export const MAX_URLS_PER_CALL = 1000;

/**
 * Longest link the resolver accepts (a longer one is `not_allowed`, and the API refuses it);
 * Takeout's are percent-encoded ASCII of a few hundred characters.
 */
export const MAX_URL_LENGTH = 2048;

/**
 * The most places one archive may hold, all its lists together (starred places included). Bytes
 * alone do not bound the work: a 719 KB ZIP unpacks to a truthful 247 MB CSV of 4.3 million short
 * rows, within every byte limit, and converting it took 4.2 GB and 48 s. Every place costs memory
 * through the whole run (its parse, its lookup, its placemark in each file, the page's results), so
 * the count is what must be bounded. 200,000 is twice the 100,000-place archives the product
 * promises to convert without freezing the page (product.md), and about fifty times the largest real
 * export measured (3,833 places). The converter counts row by row while parsing, so an archive past
 * it is refused after 200,001 places are read, never materialised whole.
 */
export const MAX_ARCHIVE_PLACES = 200_000;

/**
 * How long a payment call (creating the intent, the demo authorization, the capture, a payment's
 * status) may go unanswered before the page takes its answer as lost: the connection may have
 * dropped without the browser noticing, and a page left waiting has no way out but a reload. The
 * API gives up on a Stripe call (with its retries) before this, so the page hears its 503.
 */
export const PAYMENT_CALL_TIMEOUT_MS = 30_000;
