import type { FastifyError, FastifyInstance } from 'fastify';
import { StoreUnavailableError } from '../state/index.js';

/** The one error body every route returns (architecture.md "Contracts"). */
export interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * An error meant for the client: its status, stable `code` and human `message` are sent as they are.
 * Use it for every refusal; anything else that is thrown becomes an anonymous 500.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Sent as `Retry-After` (seconds): when asking again may succeed (503s, 429s). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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
export function storeUnavailable(error: StoreUnavailableError, reference?: string): ApiError {
  const about = reference ? ` Payment ${reference} was not changed by this request.` : '';
  return error.reason === 'full'
    ? new ApiError(
        503,
        'store_full',
        `Too many payments are open on this server right now; please try again in a few minutes.${about}`,
        STORE_FULL_RETRY_AFTER_SECONDS,
      )
    : new ApiError(
        503,
        'store_unavailable',
        `This server cannot reach its shared state right now; please try again in a moment.${about}`,
        STORE_RETRY_AFTER_SECONDS,
      );
}

/** Fastify's own client errors, renamed to stable codes with plain messages. */
const FASTIFY_CODES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Send the request body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_request',
    message: 'The request body length does not match its Content-Length.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_request', message: 'The request body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'invalid_json',
    message: 'The request body is not valid JSON.',
  },
};

function bodyFor(error: FastifyError | ApiError): { status: number; body: ErrorBody } {
  if (error instanceof ApiError) {
    return {
      status: error.statusCode,
      body: { error: { code: error.code, message: error.message } },
    };
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    return {
      status: 500,
      body: {
        error: {
          code: 'internal_error',
          message: 'Something went wrong on our side. Please try again.',
        },
      },
    };
  }
  const known = FASTIFY_CODES[error.code];
  if (known) return { status, body: { error: known } };
  if (error.name === 'SyntaxError') {
    return { status: 400, body: { error: FASTIFY_CODES.FST_ERR_CTP_INVALID_JSON_BODY! } };
  }
  return { status, body: { error: { code: 'bad_request', message: error.message } } };
}

/**
 * The payment a request is about, once its body was parsed and validated (a capture, a paid
 * resolve, a demo authorization), so a 503 can quote it; undefined before that (a rate-limit
 * check runs first) or for other bodies.
 */
function paymentOf(body: unknown): string | undefined {
  const id = (body as { paymentIntentId?: unknown } | null | undefined)?.paymentIntentId;
  return typeof id === 'string' && /^pi_[A-Za-z0-9_]{1,200}$/.test(id) ? id : undefined;
}

/**
 * Installs the single error handler: every failure leaves as `{ error: { code, message } }`.
 * Client errors keep their message; 5xx errors are logged in full and answered with a generic
 * message, so internals (stack traces, upstream replies, keys) never reach the browser. The shared
 * state being away ({@link StoreUnavailableError}, thrown by any store call) is a 503 with
 * `Retry-After` quoting the payment the request was about, logged as a warning, never a 500.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | ApiError, request, reply) => {
    const error =
      thrown instanceof StoreUnavailableError
        ? storeUnavailable(thrown, paymentOf(request.body))
        : thrown;
    const { status, body } = bodyFor(error);
    if (error instanceof ApiError && error.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    if (thrown instanceof StoreUnavailableError) {
      request.log.warn({ err: thrown, code: body.error.code }, 'shared state unavailable');
    } else if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: body.error.code, status }, 'request refused');
    }
    return reply.status(status).send(body);
  });
}
