import { FakeStripeError, invalidParam } from './errors.js';
import { field, type FormObject } from './form.js';
import type { FakePaymentIntent, OrderedIntent } from './payment-intents.js';
import { matchesQuery, parseSearchQuery } from './search-query.js';

/** Stripe's list object (`GET /v1/payment_intents`). */
export interface StripeList {
  object: 'list';
  url: '/v1/payment_intents';
  has_more: boolean;
  data: FakePaymentIntent[];
}

/** Stripe's search result object (`GET /v1/payment_intents/search`). */
export interface StripeSearchResult {
  object: 'search_result';
  url: '/v1/payment_intents/search';
  has_more: boolean;
  next_page: string | null;
  data: FakePaymentIntent[];
}

/** A place in Stripe's order (newest `created` first, then the latest created first). */
interface Position {
  created: number;
  sequence: number;
}

/** Default and bounds of `limit`, for lists and searches alike. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

const LIST_PARAMS = new Set([
  'limit',
  'starting_after',
  'ending_before',
  'created',
  'customer',
  'expand',
]);
const SEARCH_PARAMS = new Set(['query', 'limit', 'page', 'expand']);
const RANGE_KEYS = new Set(['gt', 'gte', 'lt', 'lte']);

/** Whether `a` comes after `b` in the list (it is older). */
function isAfter(a: Position, b: Position): boolean {
  return a.created < b.created || (a.created === b.created && a.sequence < b.sequence);
}

function positionOf(entry: OrderedIntent): Position {
  return { created: entry.intent.created, sequence: entry.sequence };
}

/** Stripe refuses parameters an endpoint does not take ("Received unknown parameter"). */
function refuseUnknown(params: FormObject, known: ReadonlySet<string>): void {
  for (const name of Object.keys(params)) {
    if (!known.has(name)) {
      throw invalidParam(name, `Received unknown parameter: ${name}`, 'parameter_unknown');
    }
  }
}

function integer(text: string, param: string): number {
  if (!/^-?\d+$/.test(text)) {
    throw invalidParam(param, `Invalid integer: ${text}`, 'parameter_invalid_integer');
  }
  return Number(text);
}

function limitOf(params: FormObject): number {
  if (typeof params.limit === 'object') {
    throw invalidParam(
      'limit',
      'Invalid integer: limit must be an integer',
      'parameter_invalid_integer',
    );
  }
  const text = field(params, 'limit');
  if (text === undefined || text === '') return DEFAULT_LIMIT;
  const limit = integer(text, 'limit');
  if (limit < 1) {
    throw invalidParam(
      'limit',
      `This value must be greater than or equal to 1.`,
      'parameter_invalid_integer',
    );
  }
  if (limit > MAX_LIMIT) {
    throw invalidParam(
      'limit',
      `This value must be less than or equal to ${MAX_LIMIT}.`,
      'parameter_invalid_integer',
    );
  }
  return limit;
}

/** `created=N` (exactly) or `created[gt|gte|lt|lte]=N`. */
function createdFilter(params: FormObject): (created: number) => boolean {
  const raw = params.created;
  if (raw === undefined || raw === '') return () => true;
  if (typeof raw === 'string') {
    const exact = integer(raw, 'created');
    return (created) => created === exact;
  }
  const bounds: Array<(created: number) => boolean> = [];
  for (const [key, value] of Object.entries(raw)) {
    if (!RANGE_KEYS.has(key) || typeof value !== 'string') {
      throw invalidParam(
        `created[${key}]`,
        `Received unknown parameter: created[${key}]`,
        'parameter_unknown',
      );
    }
    const bound = integer(value, `created[${key}]`);
    bounds.push(
      key === 'gt'
        ? (created) => created > bound
        : key === 'gte'
          ? (created) => created >= bound
          : key === 'lt'
            ? (created) => created < bound
            : (created) => created <= bound,
    );
  }
  return (created) => bounds.every((test) => test(created));
}

function cursorParam(params: FormObject, name: string): string | undefined {
  const value = params[name];
  if (typeof value === 'object') {
    throw invalidParam(name, `Invalid string: ${name} must be an object ID`);
  }
  return value === '' ? undefined : value;
}

/**
 * `GET /v1/payment_intents`: newest first, `limit` (1–100, default 10), cursor paging by id with
 * `starting_after` (the page after that object) or `ending_before` (the page before it, still newest
 * first), `created` filters; `customer` is accepted and ignored (the fake has no customers). The
 * cursor is the object's place in the order, so intents created or changed while a client pages do
 * not shift the pages, as with Stripe. An unknown cursor id is `resource_missing` on that parameter.
 */
export function listIntents(
  ordered: readonly OrderedIntent[],
  params: FormObject,
  positionOfId: (id: string) => Position | undefined,
): StripeList {
  refuseUnknown(params, LIST_PARAMS);
  const limit = limitOf(params);
  const startingAfter = cursorParam(params, 'starting_after');
  const endingBefore = cursorParam(params, 'ending_before');
  if (startingAfter !== undefined && endingBefore !== undefined) {
    throw new FakeStripeError(400, {
      type: 'invalid_request_error',
      message:
        'You may only specify one of these parameters: ending_before, starting_after. They are mutually exclusive.',
    });
  }
  const inRange = createdFilter(params);
  const cursor = (id: string, param: string): Position => {
    const position = positionOfId(id);
    if (!position) {
      throw new FakeStripeError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param,
        message: `No such payment_intent: '${id}'`,
      });
    }
    return position;
  };
  const matching = ordered.filter((entry) => inRange(entry.intent.created));
  let page: readonly OrderedIntent[];
  let hasMore: boolean;
  if (startingAfter !== undefined) {
    const after = cursor(startingAfter, 'starting_after');
    const rest = matching.filter((entry) => isAfter(positionOf(entry), after));
    page = rest.slice(0, limit);
    hasMore = rest.length > limit;
  } else if (endingBefore !== undefined) {
    const before = cursor(endingBefore, 'ending_before');
    const rest = matching.filter((entry) => isAfter(before, positionOf(entry)));
    page = rest.slice(Math.max(0, rest.length - limit));
    hasMore = rest.length > limit;
  } else {
    page = matching.slice(0, limit);
    hasMore = matching.length > limit;
  }
  return {
    object: 'list',
    url: '/v1/payment_intents',
    has_more: hasMore,
    data: page.map((entry) => entry.intent),
  };
}

function pageToken(position: Position): string {
  return Buffer.from(JSON.stringify([position.created, position.sequence])).toString('base64url');
}

function readPageToken(token: string): Position {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      parsed.every((part) => Number.isInteger(part))
    ) {
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
  refuseUnknown(params, SEARCH_PARAMS);
  if (typeof params.query === 'object') throw invalidParam('query', 'Invalid string: query');
  const text = field(params, 'query');
  if (text === undefined) {
    throw invalidParam('query', 'Missing required param: query.', 'parameter_missing');
  }
  const query = parseSearchQuery(text);
  const limit = limitOf(params);
  if (typeof params.page === 'object') throw invalidParam('page', 'Invalid string: page');
  const token = field(params, 'page');
  const after = token === undefined || token === '' ? undefined : readPageToken(token);
  const hits = ordered.filter(
    (entry) =>
      (after === undefined || isAfter(positionOf(entry), after)) &&
      matchesQuery(query, entry.intent),
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
