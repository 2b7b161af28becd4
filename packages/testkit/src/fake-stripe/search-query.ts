import { invalidParam, type FakeStripeError } from './errors.js';
import type { FakePaymentIntent } from './payment-intents.js';

/**
 * The part of Stripe's search query language (https://docs.stripe.com/search#search-query-language)
 * the fake understands, for PaymentIntents:
 *
 * - a clause is `field operator value`: `status:'requires_capture'`, `metadata['order']:'42'`,
 *   `created<1700000000`, `amount>=500`, `currency:null` (field is absent or null);
 * - string values are quoted ('…' or "…", `\` escapes a quote); numbers and `null` are bare;
 * - `:` is an exact match, case-insensitive for strings; `~` a substring match (3+ characters) on
 *   `status`, `currency` and `customer`; `<`, `>`, `<=`, `>=` compare `amount` and `created`;
 * - `-` before a clause negates it;
 * - clauses are joined by spaces or `AND` (all must match) or by `OR` (any), never both, at most 10.
 *
 * Anything else (parentheses, other fields, unquoted words) is refused with an
 * `invalid_request_error` on `query` that says what is wrong, rather than answered wrongly.
 */
export interface SearchQuery {
  join: 'AND' | 'OR';
  clauses: SearchClause[];
}

export type SearchOperator = ':' | '~' | '<' | '>' | '<=' | '>=';

export interface SearchClause {
  negated: boolean;
  field: 'amount' | 'created' | 'currency' | 'customer' | 'status' | 'metadata';
  /** For `metadata['key']`. */
  key?: string;
  operator: SearchOperator;
  value: string | number | null;
}

/** Stripe's documented maximum number of clauses in one query. */
export const MAX_SEARCH_CLAUSES = 10;

const NUMERIC_FIELDS = new Set(['amount', 'created']);
const STRING_FIELDS = new Set(['currency', 'customer', 'status']);
const SUPPORTED =
  "amount, created, currency, customer, metadata['key'], status (PaymentIntents' query fields)";

function refuse(message: string): FakeStripeError {
  return invalidParam('query', `Invalid search query: ${message}`);
}

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z0-9_.]/.test(char);
}

/** A linear, single-pass reader of one query string. */
class Reader {
  index = 0;

  constructor(readonly text: string) {}

  peek(): string | undefined {
    return this.text[this.index];
  }

  skipSpaces(): boolean {
    const start = this.index;
    while (isSpace(this.peek())) this.index += 1;
    return this.index > start;
  }

  atEnd(): boolean {
    return this.index >= this.text.length;
  }

  word(): string {
    const start = this.index;
    while (isWordChar(this.peek())) this.index += 1;
    return this.text.slice(start, this.index);
  }

  /** A quoted string starting at the current quote; `\` escapes the next character. */
  quoted(): string {
    const quote = this.peek();
    const start = this.index;
    this.index += 1;
    let value = '';
    while (!this.atEnd() && this.peek() !== quote) {
      if (this.peek() === '\\') this.index += 1;
      if (this.atEnd()) break;
      value += this.peek() ?? '';
      this.index += 1;
    }
    if (this.atEnd()) {
      throw refuse(`the string starting at position ${start} is not closed with ${quote}.`);
    }
    this.index += 1;
    return value;
  }

  /** A bare value (number or `null`): everything up to the next space. */
  bare(): string {
    const start = this.index;
    while (!this.atEnd() && !isSpace(this.peek())) this.index += 1;
    return this.text.slice(start, this.index);
  }
}

function readOperator(reader: Reader, at: number): SearchOperator {
  const two = reader.text.slice(reader.index, reader.index + 2);
  if (two === '<=' || two === '>=') {
    reader.index += 2;
    return two;
  }
  const one = reader.peek();
  if (one === ':' || one === '~' || one === '<' || one === '>') {
    reader.index += 1;
    return one;
  }
  throw refuse(
    `expected an operator (: ~ < > <= >=) after the field at position ${at}, found ${one === undefined ? 'the end' : `'${one}'`}.`,
  );
}

function readClause(reader: Reader): SearchClause {
  const at = reader.index;
  if (reader.peek() === '(' || reader.peek() === ')') {
    throw refuse('parentheses are not supported; join clauses with AND or with OR.');
  }
  const negated = reader.peek() === '-';
  if (negated) reader.index += 1;
  const name = reader.word();
  if (name === '') {
    throw refuse(`expected a field at position ${reader.index}, found '${reader.peek() ?? ''}'.`);
  }
  let key: string | undefined;
  if (name === 'metadata') {
    if (reader.peek() !== '[') throw refuse("metadata needs a key: metadata['key']:'value'.");
    reader.index += 1;
    if (reader.peek() !== "'" && reader.peek() !== '"') {
      throw refuse("a metadata key must be quoted: metadata['key']:'value'.");
    }
    key = reader.quoted();
    if (reader.peek() !== ']') throw refuse(`expected ] after metadata['${key}'.`);
    reader.index += 1;
  } else if (!NUMERIC_FIELDS.has(name) && !STRING_FIELDS.has(name)) {
    throw refuse(`'${name}' is not a supported field; the fake supports ${SUPPORTED}.`);
  }
  const field = name as SearchClause['field'];
  const operator = readOperator(reader, at);

  let value: string | number | null;
  if (reader.peek() === "'" || reader.peek() === '"') {
    value = reader.quoted();
  } else {
    const bare = reader.bare();
    if (bare === 'null') value = null;
    else if (/^-?\d+$/.test(bare)) value = Number(bare);
    else if (bare === '') throw refuse(`expected a value after ${name}${operator}.`);
    else throw refuse(`the value '${bare}' must be quoted: ${name}${operator}'${bare}'.`);
  }

  const label = key === undefined ? name : `metadata['${key}']`;
  if (NUMERIC_FIELDS.has(name)) {
    if (operator === '~')
      throw refuse(`${label} is numeric; ~ only matches substrings of strings.`);
    if (typeof value === 'string') {
      throw refuse(`${label} is numeric: compare it with a bare number, e.g. ${name}>1000.`);
    }
    if (value === null && operator !== ':')
      throw refuse(`${label}${operator}null compares nothing.`);
  } else {
    if (typeof value === 'number') {
      throw refuse(`${label} holds strings: quote the value, e.g. ${label}:'${value}'.`);
    }
    if (operator !== ':' && operator !== '~') {
      throw refuse(`${label} holds strings; use : (exact) or ~ (substring), not ${operator}.`);
    }
    if (operator === '~') {
      if (key !== undefined) throw refuse(`metadata is matched exactly; use : rather than ~.`);
      if (value === null || [...value].length < 3) {
        throw refuse(`~ needs at least 3 characters to match.`);
      }
    }
  }
  return { negated, field, ...(key === undefined ? {} : { key }), operator, value };
}

/** Parses a query, or throws the `invalid_request_error` Stripe would give for it. */
export function parseSearchQuery(text: string): SearchQuery {
  const reader = new Reader(text);
  const clauses: SearchClause[] = [];
  let join: SearchQuery['join'] | undefined;
  reader.skipSpaces();
  if (reader.atEnd()) throw refuse('the query is empty.');
  for (;;) {
    clauses.push(readClause(reader));
    const spaced = reader.skipSpaces();
    if (reader.atEnd()) break;
    if (!spaced) {
      throw refuse(
        `unexpected '${reader.peek()}' at position ${reader.index}; separate clauses with a space, AND or OR.`,
      );
    }
    const start = reader.index;
    const word = reader.word();
    const upper = word.toUpperCase();
    let joiner: SearchQuery['join'] = 'AND';
    if ((upper === 'AND' || upper === 'OR') && (isSpace(reader.peek()) || reader.atEnd())) {
      joiner = upper;
      reader.skipSpaces();
      if (reader.atEnd()) throw refuse(`the query ends with ${word}.`);
    } else {
      reader.index = start;
    }
    if (join !== undefined && join !== joiner) {
      throw refuse('AND and OR cannot be combined in one query.');
    }
    join = joiner;
    if (clauses.length >= MAX_SEARCH_CLAUSES) {
      throw refuse(`a query can have at most ${MAX_SEARCH_CLAUSES} clauses.`);
    }
  }
  return { join: join ?? 'AND', clauses };
}

function fieldValue(intent: FakePaymentIntent, clause: SearchClause): string | number | null {
  switch (clause.field) {
    case 'metadata':
      return intent.metadata[clause.key ?? ''] ?? null;
    case 'customer':
      return null;
    default:
      return intent[clause.field];
  }
}

function clauseMatches(clause: SearchClause, intent: FakePaymentIntent): boolean {
  const actual = fieldValue(intent, clause);
  const { operator, value } = clause;
  let hit: boolean;
  if (value === null) {
    hit = actual === null;
  } else if (actual === null) {
    hit = false;
  } else if (typeof value === 'number') {
    const number = Number(actual);
    hit =
      operator === ':'
        ? number === value
        : operator === '<'
          ? number < value
          : operator === '>'
            ? number > value
            : operator === '<='
              ? number <= value
              : number >= value;
  } else {
    const text = String(actual).toLowerCase();
    const wanted = value.toLowerCase();
    hit = operator === '~' ? text.includes(wanted) : text === wanted;
  }
  return clause.negated ? !hit : hit;
}

/** Whether an intent matches a parsed query. */
export function matchesQuery(query: SearchQuery, intent: FakePaymentIntent): boolean {
  return query.join === 'AND'
    ? query.clauses.every((clause) => clauseMatches(clause, intent))
    : query.clauses.some((clause) => clauseMatches(clause, intent));
}
