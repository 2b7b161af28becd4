/**
 * The API's refusals as the callers read them: every refusal's body is
 * `{ "error": { "code", "message", ...RefusalFields } }` (see `ErrorAnswer` in `./routes`).
 */

/** A lookup batch of which no link got an answer from Google: the server cannot reach it (503). */
export const GOOGLE_UNREACHABLE = 'google_unreachable';

/** The spans a count of payments from one address is kept over (`too_many_payments`). */
export const PAYMENT_CAP_SPANS = ['hour', 'day'] as const;

/**
 * The numbers some refusals carry beside their sentence, so no caller reads them out of its words.
 * Each is absent where the refusal has no such number.
 */
export interface RefusalFields {
  /**
   * The cap that was reached: the places one payment covers (`too_many_places`, `demo_limit`,
   * `link_allowance_used`), the payments one address may start (`too_many_payments`) or the free
   * lookups of a day (`free_budget_used`).
   */
  limit?: number;
  /** `too_many_payments`: the span `limit` counts over. */
  per?: (typeof PAYMENT_CAP_SPANS)[number];
  /** `already_captured`: what the payment was charged, in dollars. */
  amountCaptured?: number;
}

/** A refusal's body as the callers read it: its code, its sentence and its numbers. */
export interface ErrorBody extends RefusalFields {
  code: string;
  message: string;
}

/**
 * The code, sentence and numbers of a refusal's body text; null when the body is not the API's
 * error shape (a proxy's page, an empty body, a code that is not a non-empty string). A missing
 * sentence is `''`; a number of the wrong type is left out.
 */
export function readErrorBody(text: string): ErrorBody | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (typeof error?.code !== 'string' || error.code === '') return null;
  const read: ErrorBody = {
    code: error.code,
    message: typeof error.message === 'string' ? error.message : '',
  };
  if (Number.isFinite(error.limit)) read.limit = error.limit as number;
  if (PAYMENT_CAP_SPANS.includes(error.per as never)) read.per = error.per as ErrorBody['per'];
  if (Number.isFinite(error.amountCaptured)) read.amountCaptured = error.amountCaptured as number;
  return read;
}
