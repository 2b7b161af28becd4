import type { FastifyError, FastifyInstance } from 'fastify';

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
  ) {
    super(message);
    this.name = 'ApiError';
  }
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
 * Installs the single error handler: every failure leaves as `{ error: { code, message } }`.
 * Client errors keep their message; 5xx errors are logged in full and answered with a generic
 * message, so internals (stack traces, upstream replies, keys) never reach the browser.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const { status, body } = bodyFor(error);
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: body.error.code, status }, 'request refused');
    }
    return reply.status(status).send(body);
  });
}
