/**
 * The one way the page talks to the API, as the seed's section 7 says: cookies always included,
 * a JSON content type only when there is a body, and any non-OK answer turned into an Error whose
 * message is `status: response text` (or the status text when the body is empty). The error also
 * carries what the API said (architecture.md: `{ error: { code, message, ... } }`, `Retry-After`),
 * so the page can name the cause of a refusal.
 */
import { readErrorBody, type ErrorBody } from '@placeport/contract';

/**
 * What the API said when it refused a call: its stable code (`demo_limit`, `overloaded`, …), its
 * own sentence and the numbers some refusals carry (`limit`, `per`, `amountCaptured`).
 */
export interface Refusal extends ErrorBody {
  status: number;
  /** `Retry-After`, in seconds, when the API sent it. */
  retryAfterSeconds: number | null;
}

/**
 * Reads a refusal from a non-OK answer's status, body text and `Retry-After` header; null when the
 * body is not the API's error shape (a proxy's page, an empty body). Pure: the worker uses it too.
 */
export function readRefusal(
  status: number,
  text: string,
  retryAfter: string | null,
): Refusal | null {
  const error = readErrorBody(text);
  if (error === null) return null;
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  return {
    status,
    ...error,
    retryAfterSeconds: Number.isFinite(seconds) && seconds >= 0 ? seconds : null,
  };
}

/** A call the API answered with an error status: the seed's message, and the refusal if any. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly refusal: Refusal | null,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** The refusal behind an error, when it is the API's. */
export function refusalOf(error: unknown): Refusal | null {
  return error instanceof ApiRequestError ? error.refusal : null;
}

/** The contract's deadline of a payment call (the server's Stripe calls fit within it). */
export { PAYMENT_CALL_TIMEOUT_MS } from '@placeport/contract';

/** What the page says when a call got no answer before its deadline. */
export const NO_ANSWER_TEXT =
  'The server did not answer in time. Check your connection, then try again.';

/**
 * A call that got no answer before its signal ended it: an answer lost, as when the connection
 * drops, never a refusal (`refusalOf` is null), so the server may have done what was asked.
 */
export class NoAnswerError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(NO_ANSWER_TEXT, options);
    this.name = 'NoAnswerError';
  }
}

/**
 * Sends the call and reads its JSON answer. `signal` (a deadline) ends a call that has not been
 * answered, with a {@link NoAnswerError}.
 */
export async function requestJson<T>(
  url: string,
  method: 'GET' | 'POST',
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const init: RequestInit = { method, credentials: 'include' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  if (signal !== undefined) init.signal = signal;
  try {
    return await answerOf<T>(await fetch(url, init));
  } catch (error) {
    if (signal?.aborted === true && !(error instanceof ApiRequestError)) {
      throw new NoAnswerError({ cause: error });
    }
    throw error;
  }
}

/** The JSON of an OK answer, or the answer as an {@link ApiRequestError}. */
async function answerOf<T>(response: Response): Promise<T> {
  if (!response.ok) {
    const text = await response.text();
    throw new ApiRequestError(
      response.status,
      `${response.status}: ${text || response.statusText}`,
      readRefusal(response.status, text, response.headers.get('retry-after')),
    );
  }
  return (await response.json()) as T;
}
