import { invalidParam } from './errors.js';
import { field, type FormObject } from './form.js';
import type { FakePaymentIntent, OrderedIntent } from './payment-intents.js';

/** Stripe's search result object (`GET /v1/payment_intents/search`). */
interface StripeSearchResult {
  object: 'search_result';
  url: '/v1/payment_intents/search';
  has_more: boolean;
  next_page: string | null;
  data: FakePaymentIntent[];
}

/** One clause: `status:'…'` (no key) or `metadata['key']:'…'`, its value lower-cased. */
interface SearchClause {
  key: string | undefined;
  value: string;
}

/** A place in Stripe's order (newest `created` first, then the latest created first). */
interface Position {
  created: number;
  sequence: number;
}

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
const SEARCH_PARAMS = new Set(['query', 'limit', 'page', 'expand']);
const CLAUSE = /^(?:status|metadata\[(['"])([^'"\]]+)\1\]):(['"])([^'"]*)\3$/;

/**
 * The part of Stripe's search query language (https://docs.stripe.com/search#search-query-language)
 * the API sends: exact, case-insensitive clauses `status:'…'` and `metadata['key']:'…'`, joined by
 * spaces or `AND`. Anything else (OR, negation, other fields, comparisons, unquoted values) is
 * refused with an `invalid_request_error` on `query` rather than answered wrongly.
 */
export function parseSearchQuery(text: string): SearchClause[] {
  const words = text.trim().split(/\s+(?:AND\s+)?/i);
  if (words[0] === '') throw invalidParam('query', 'Invalid search query: the query is empty.');
  return words.map((word) => {
    const match = CLAUSE.exec(word);
    if (!match) {
      throw invalidParam(
        'query',
        `Invalid search query: the fake understands only status:'…' and metadata['key']:'…' joined by spaces or AND, not ${word}.`,
      );
    }
    return { key: match[2], value: match[4]!.toLowerCase() };
  });
}

function matches(clauses: readonly SearchClause[], intent: FakePaymentIntent): boolean {
  return clauses.every(
    ({ key, value }) =>
      (key === undefined ? intent.status : intent.metadata[key])?.toLowerCase() === value,
  );
}

/** Whether `a` comes after `b` in the order (it is older). */
function isAfter(a: Position, b: Position): boolean {
  return a.created < b.created || (a.created === b.created && a.sequence < b.sequence);
}

function positionOf(entry: OrderedIntent): Position {
  return { created: entry.intent.created, sequence: entry.sequence };
}

function limitOf(params: FormObject): number {
  const text = field(params, 'limit');
  if (text === undefined || text === '') return DEFAULT_LIMIT;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalidParam(
      'limit',
      `Invalid integer: limit must be between 1 and ${MAX_LIMIT}.`,
      'parameter_invalid_integer',
    );
  }
  return limit;
}

function pageToken(position: Position): string {
  return Buffer.from(JSON.stringify([position.created, position.sequence])).toString('base64url');
}

function readPageToken(token: string): Position {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every(Number.isInteger)) {
      return { created: parsed[0] as number, sequence: parsed[1] as number };
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw invalidParam(
    'page',
    `Invalid page: '${token}'. Pass the next_page value of the previous search result unchanged.`,
  );
}

/**
 * `GET /v1/payment_intents/search`: the query language of {@link parseSearchQuery}, newest first,
 * `limit` (1–100, default 10) and the `page` cursor from the previous result's `next_page`. The
 * cursor is a place in the order, so intents that stop matching while a client pages (a sweep
 * capturing them) do not make it skip others.
 */
export function searchIntents(
  ordered: readonly OrderedIntent[],
  params: FormObject,
): StripeSearchResult {
  for (const name of Object.keys(params)) {
    if (!SEARCH_PARAMS.has(name)) {
      throw invalidParam(name, `Received unknown parameter: ${name}`, 'parameter_unknown');
    }
  }
  const text = field(params, 'query');
  if (text === undefined) {
    throw invalidParam('query', 'Missing required param: query.', 'parameter_missing');
  }
  const clauses = parseSearchQuery(text);
  const limit = limitOf(params);
  const token = field(params, 'page');
  const after = token === undefined || token === '' ? undefined : readPageToken(token);
  const hits = ordered.filter(
    (entry) =>
      (after === undefined || isAfter(positionOf(entry), after)) && matches(clauses, entry.intent),
  );
  const page = hits.slice(0, limit);
  const hasMore = hits.length > limit;
  const last = page.at(-1);
  return {
    object: 'search_result',
    url: '/v1/payment_intents/search',
    has_more: hasMore,
    next_page: hasMore && last ? pageToken(positionOf(last)) : null,
    data: page.map((entry) => entry.intent),
  };
}
