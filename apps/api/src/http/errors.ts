import type { RefusalFields } from '@placeport/contract';
import { PaymentIntentId, type ErrorAnswer } from '@placeport/contract/routes';
import { OverloadedError } from '@placeport/resolver';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { PaymentError, type Log, type PaymentErrorCode } from '../payments/errors.js';
import { PaymentFailure, type PaymentFailureKind } from '../payments/provider.js';
import { StoreUnavailableError } from '../state/index.js';
import { refusalLevel } from './request-log.js';

/**
 * An error meant for the client: its status, stable `code`, human `message` and numbers (`fields`)
 * are sent as they are. Use it for every refusal; anything else that is thrown becomes an
 * anonymous 500.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Sent as `Retry-After` (seconds): when asking again may succeed (503s, 429s). */
    readonly retryAfterSeconds?: number,
    readonly fields?: RefusalFields,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The status of each refusal, and its code on the wire when that is not its own. */
const REFUSALS: Record<PaymentErrorCode, [status: number, code?: string]> = {
  invalid_amount: [400],
  below_minimum_charge: [400],
  too_many_places: [400],
  demo_limit: [400],
  invalid_counts: [400],
  amount_mismatch: [400],
  count_mismatch: [400],
  not_a_placeport_payment: [400],
  not_authorized: [402, 'payment_not_authorized'],
  not_authorized_yet: [409, 'payment_not_authorized'],
  already_captured: [409],
  payment_cancelled: [409],
  payment_required: [402],
  free_budget_used: [402],
  too_many_urls: [400],
  link_allowance_used: [403],
};

/** The answer to each kind of provider failure; the provider's own words are only logged. */
const PROVIDER_FAILURES: Record<
  PaymentFailureKind,
  [status: number, code: string, message: string]
> = {
  not_found: [404, 'payment_not_found', 'No payment with this id was found.'],
  unexpected_state: [
    409,
    'payment_unexpected_state',
    'The payment is not in a state that allows this step. Nothing was charged by this request.',
  ],
  amount_too_small: [
    400,
    'below_minimum_charge',
    'The payment provider refuses amounts under $0.50.',
  ],
  conflict: [
    409,
    'payment_conflict',
    'This payment is already being settled with other amounts. Nothing more was charged.',
  ],
  card_declined: [402, 'card_declined', 'The card was declined.'],
  invalid_request: [400, 'payment_rejected', 'The payment provider refused the request.'],
  unavailable: [
    503,
    'payment_provider_unavailable',
    'The payment provider could not be reached. Please try again in a moment.',
  ],
  misconfigured: [
    503,
    'payments_unavailable',
    'Payments are not available right now. Please contact support.',
  ],
};

/** How long to wait before asking again when the provider could not be reached. */
export const PROVIDER_RETRY_AFTER_SECONDS = 10;

/** How long a client should wait before asking again while the shared state is away. */
export const STORE_RETRY_AFTER_SECONDS = 5;
/** …and while the memory store refuses new payments because every one it keeps is open. */
export const STORE_FULL_RETRY_AFTER_SECONDS = 60;

/**
 * The answer when the shared state cannot be used: 503 `store_unavailable` (Redis is away; the
 * instance reconnects by itself) or `store_full` (the memory store refuses a new payment while
 * all it keeps are open authorizations), with `Retry-After`. Never a 500, so the page can say
 * "try again in a moment". `reference` names the payment the request was about, if any.
 */
function storeUnavailable(error: StoreUnavailableError, reference?: string): ApiError {
  const about = reference ? ` Payment ${reference} was not changed by this request.` : '';
  if (error.reason === 'full') {
    const message = `Too many payments are open on this server right now; please try again in a few minutes.${about}`;
    return new ApiError(503, 'store_full', message, STORE_FULL_RETRY_AFTER_SECONDS);
  }
  const message = `This server cannot reach its shared state right now; please try again in a moment.${about}`;
  return new ApiError(503, 'store_unavailable', message, STORE_RETRY_AFTER_SECONDS);
}

/** The answer to a provider failure; a capture's quotes the payment it was about (product.md Receipt). */
export function providerAnswer(failure: PaymentFailure, reference?: string): ApiError {
  const [status, code, message] = PROVIDER_FAILURES[failure.kind];
  const quoted = reference ? `${message} Payment reference: ${reference}.` : message;
  const retryAfter = failure.kind === 'unavailable' ? PROVIDER_RETRY_AFTER_SECONDS : undefined;
  return new ApiError(status, code, quoted, retryAfter);
}

/** Fastify's own client errors, renamed to stable codes with plain messages. */
const FASTIFY_CODES: Record<string, [code: string, message: string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'unsupported_media_type',
    'Send the request body as application/json.',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    'invalid_request',
    'The request body length does not match its Content-Length.',
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_request', 'The request body is empty.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The request body is not valid JSON.'],
};

/**
 * The payment a request is about, once its body was parsed and validated (a capture, a paid
 * resolve, a demo authorization), so a 503 can quote it; undefined before that (a rate-limit
 * check runs first) or for other bodies.
 */
function paymentOf(body: unknown): string | undefined {
  const id = (body as { paymentIntentId?: unknown } | null | undefined)?.paymentIntentId;
  return v.is(PaymentIntentId, id) ? id : undefined;
}

/**
 * What the client is told of anything thrown: an {@link ApiError} as it is; a refusal, a provider
 * failure, the shared state away or the resolver's queue full as their answers; Fastify's client
 * errors under stable codes; anything else an anonymous 500.
 */
function answerTo(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof PaymentError) {
    const [status, code = error.code] = REFUSALS[error.code];
    return new ApiError(status, code, error.message, undefined, error.fields);
  }
  if (error instanceof PaymentFailure) return providerAnswer(error);
  if (error instanceof StoreUnavailableError) {
    return storeUnavailable(error, paymentOf(request.body));
  }
  if (error instanceof OverloadedError) {
    return new ApiError(503, 'overloaded', error.message, error.retryAfterSeconds);
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    return new ApiError(
      500,
      'internal_error',
      'Something went wrong on our side. Please try again.',
    );
  }
  const known = FASTIFY_CODES[error.code];
  if (known) return new ApiError(status, ...known);
  if (error.name === 'SyntaxError') {
    return new ApiError(400, ...FASTIFY_CODES.FST_ERR_CTP_INVALID_JSON_BODY!);
  }
  return new ApiError(status, 'bad_request', error.message);
}

/** Logs a provider's own words on the request (never sent to the browser). */
export function providerLog(request: FastifyRequest): Log {
  return (detail) => request.log.warn({ provider: detail }, 'payment provider refused');
}

/**
 * Installs the single error handler: every failure leaves as `{ error: { code, message, ...fields } }`
 * ({@link answerTo}). Unexpected 5xx errors are logged in full and answered with a generic
 * message, so internals (stack traces, upstream replies, keys) never reach the browser; a 5xx the
 * API gives on purpose ({@link ApiError}: Google or Stripe out of reach) is a warning with its code. The shared state being
 * away ({@link StoreUnavailableError}, thrown by any store call) is a 503 with `Retry-After`
 * quoting the payment the request was about, logged as a warning, never a 500.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    const answer = answerTo(thrown, request);
    const { statusCode: status, code, message, retryAfterSeconds, fields } = answer;
    if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
    if (thrown instanceof StoreUnavailableError || thrown instanceof OverloadedError) {
      request.log.warn({ err: thrown, code }, 'busy or degraded: try again later');
    } else if (thrown instanceof ApiError && status >= 500) {
      // A 503 the API means to give (Google or Stripe out of reach, the store full): a warning
      // with its code and sentence, not an error with a stack trace on every batch of an outage.
      request.log.warn({ code, status }, thrown.message);
    } else if (status >= 500) {
      request.log.error({ err: thrown }, 'request failed');
    } else {
      // A flood's refusals (404, 429) are debug: their count is said once a minute (request-log.ts).
      request.log[refusalLevel(status)]({ code, status }, 'request refused');
    }
    const body: ErrorAnswer = { error: { code, message, ...fields } };
    return reply.status(status).send(body);
  });
}
